"""One trainee's progress: figures, charts, mistakes and the CSV of their answers.

Drawn by the Progress page (for the trainee in the sidebar) and by the Team page's
drill-down (for the trainee a supervisor picked). ``own`` is false in the drill-down: the
viewer is not the trainee, so nothing offers to start a practice round for them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo

import streamlit as st

from quiz.content.categories import category_labels
from quiz.content.loader import Content
from quiz.db.goals import GOAL_RANGE, daily_goal, set_daily_goal
from quiz.db.store import Store, Trainee
from quiz.db.time_zones import (
    DEFAULT_TIME_ZONE,
    set_time_zone,
    time_zone_for,
    time_zone_names,
    time_zone_of,
    valid_time_zone,
)
from quiz.report import statistics as stats_sql
from quiz.report.progress import (
    ProgressFigures,
    answers_table,
    penalty_labels,
    progress_figures,
    safe_file_name,
    weakest_categories,
)
from quiz.report.progress_charts import Spec, progress_charts
from quiz.rules.variants import list_title
from quiz.training.pools import card_pool
from quiz.ui.markdown import escape_markdown
from quiz.ui.rounds import PRACTICE_PAGE, forget_goal, start_round
from quiz.ui.shell import Shell
from quiz.ui.tables import csv_download


def render_progress(shell: Shell, trainee: Trainee, *, own: bool = True, key: str = "progress") -> None:
    """Draw ``trainee``'s progress; ``key`` keeps widget ids apart when drawn twice. What to
    practise comes first (the weakest areas and the recent mistakes, each a button on the
    trainee's own page), then the figures and charts; the settings last (on a phone the
    page opened on them). Days are the trainee's own: the zone kept with them (first taken
    from their browser), which they can change here."""
    zone = _zone(shell, trainee, own)
    goal = daily_goal(shell.store, trainee.id)
    source = st.session_state.get(f"{key}-source") or "all"  # the control is drawn below, with the figures
    view = _view(shell, trainee.id, zone, goal, str(source))
    figures = view.figures
    if figures.summary.answered == 0:
        st.info(shell.t("progress.empty"))
        if own:
            st.page_link(PRACTICE_PAGE, label=shell.t("progress.start"), icon=":material/style:")
    else:
        _start_here(shell, figures, own, key)
        st.segmented_control(
            shell.t("progress.answers_from"), list(stats_sql.ANSWER_SOURCES), default="all", key=f"{key}-source",
            format_func=lambda name: shell.t(f"progress.from_{name}"), help=shell.t("progress.from_help"),
        )  # a click on the chosen one unselects it: all answers again
        _headline(shell, figures)
        _charts(shell, view.charts)
        _leniency(shell, figures, view.charts)
        _findings(shell, figures, view.charts)
        _floor_calls(shell, figures, view.charts)
        _mistakes(shell, figures, zone, own, key)
        _download(shell, trainee, own, key)
    if own:
        _settings(shell, trainee, zone, goal, key)
    else:
        st.caption(shell.t("progress.days_in_zone", zone=zone))


def _download(shell: Shell, trainee: Trainee, own: bool, key: str) -> None:
    """The trainee's answers as CSV, made when pressed."""
    store, rulesets, content, language = shell.store, shell.rulesets, shell.content, shell.language
    name = escape_markdown(trainee.name)
    label = shell.t("progress.download") if own else shell.t("team.download_answers", name=name)
    csv_download(label, lambda: answers_table(store.attempts(trainee.id), rulesets, content, language),
                 f"attempts-{safe_file_name(trainee.name, str(trainee.id))}.csv", key=f"{key}-download")


def _start_here(shell: Shell, figures: ProgressFigures, own: bool, key: str) -> None:
    """What to practise now: the weakest areas (each a round of its cards) and the recent
    mistakes (a round of them)."""
    st.subheader(shell.t("progress.start_here"), anchor=False)
    labels = category_labels(shell.content, shell.language, shell.t("shell.knowledge"))
    weakest = weakest_categories(figures.categories)
    if weakest.empty:
        st.caption(shell.t("progress.no_weak_areas"))
    for row in weakest.itertuples():
        name = labels.get(str(row.category_key), str(row.category_key))
        words = shell.t("progress.weak_area", name=escape_markdown(name), accuracy=f"{float(row.accuracy):.0%}",
                        count=int(row.answered))
        if not own:
            st.markdown(f"- {words}")
            continue
        line, button = st.columns([3, 1], vertical_alignment="center")
        line.markdown(words)
        cards = card_pool(shell.content, shell.rulesets, [str(row.category_key)])
        if button.button(shell.t("progress.practise_area"), key=f"{key}-practise-{row.category_key}",
                         icon=":material/style:", disabled=not cards):
            start_round(cards, ("progress.round_area", tuple(cards)))
    playable = [card for card in figures.mistakes["card_id"] if card in shell.content.cards]
    if own and playable and st.button(shell.t("progress.practise_mistakes", n=len(playable)), type="primary",
                                      key=f"{key}-practise-mistakes-first", icon=":material/replay:"):
        start_round(playable)


def _settings(shell: Shell, trainee: Trainee, zone: str, goal: int, key: str) -> None:
    """The trainee's own settings, last (on a phone the page opened on them): the time zone of
    their days and their daily goal, each kept when changed (a callback: the figures above are
    drawn with it in that run)."""
    with st.container(border=True, key=f"{key}-settings"):  # open: a fold hid the goal from who looks for it
        st.markdown(f"**:material/settings: {shell.t('progress.settings')}**")
        names = time_zone_names()
        st.selectbox(shell.t("progress.time_zone"), names, index=names.index(zone) if zone in names else None,
                     key=f"{key}-time-zone", help=shell.t("progress.time_zone_help"),
                     on_change=_keep_zone, args=(shell, trainee, zone, f"{key}-time-zone"))
        low, high = GOAL_RANGE
        st.number_input(shell.t("progress.goal"), low, high, value=goal, step=1, key=f"{key}-goal",
                        help=shell.t("progress.goal_help"), on_change=_keep_goal, args=(shell, trainee, f"{key}-goal"))


def _keep_goal(shell: Shell, trainee: Trainee, widget: str) -> None:
    chosen = st.session_state.get(widget)
    if isinstance(chosen, int) and GOAL_RANGE[0] <= chosen <= GOAL_RANGE[1]:
        set_daily_goal(shell.store, trainee.id, chosen)
        forget_goal()


def _keep_zone(shell: Shell, trainee: Trainee, zone: str, widget: str) -> None:
    chosen = st.session_state.get(widget)
    if isinstance(chosen, str) and chosen != zone:
        set_time_zone(shell.store, trainee.id, chosen)


def _zone(shell: Shell, trainee: Trainee, own: bool) -> str:
    """The trainee's zone; for their own page, first taken from their browser and kept; a
    supervisor sees the trainee's kept zone, else their own (not kept as the trainee's)."""
    if not own:
        return time_zone_of(shell.store, trainee.id) or valid_time_zone(st.context.timezone) or DEFAULT_TIME_ZONE
    return time_zone_for(shell.store, trainee.id, st.context.timezone)


METRIC_WIDTH = 150  # px: side by side, two or more to a row on a phone, not a column of single figures


def _headline(shell: Shell, figures: ProgressFigures) -> None:
    summary, streak = figures.summary, figures.streak
    met = figures.answered_today >= figures.goal
    with st.container(horizontal=True, wrap=True, gap="medium"):
        st.metric(shell.t("progress.answered"), summary.answered, width=METRIC_WIDTH)
        st.metric(shell.t("progress.accuracy"), f"{summary.accuracy:.0%}", width=METRIC_WIDTH)
        st.metric(shell.t("progress.today"), f"{figures.answered_today} / {figures.goal}", width=METRIC_WIDTH,
                  delta=shell.t("progress.goal_met") if met else None, delta_arrow="off")
        st.metric(shell.t("progress.streak"), _days(shell, streak.current), width=METRIC_WIDTH)
        st.metric(shell.t("progress.longest"), _days(shell, streak.longest), width=METRIC_WIDTH)


def _charts(shell: Shell, specs: dict[str, Spec | None]) -> None:
    st.subheader(shell.t("progress.over_time"), anchor=False)
    _chart(specs["over_time"])
    left, right = st.columns(2)
    with left:
        st.subheader(shell.t("progress.by_part"), anchor=False)
        _chart(specs["by_part"])
        st.subheader(shell.t("progress.by_game"), anchor=False)
        _chart(specs["by_game"])
    with right:
        st.subheader(shell.t("progress.by_category"), anchor=False)
        _chart(specs["by_category"])
    st.subheader(shell.t("progress.confusion"), anchor=False)
    if specs["confusion"] is None:
        st.caption(shell.t("progress.no_scenarios"))
    else:
        _chart(specs["confusion"], width="content")  # a square grid of fixed cells: stretched, it overflows


def _leniency(shell: Shell, figures: ProgressFigures, specs: dict[str, Spec | None]) -> None:
    st.subheader(shell.t("progress.leniency"), anchor=False)
    leniency = figures.leniency
    cols = list(st.columns(3))
    cols[0].metric(shell.t("progress.too_lenient"), leniency.too_lenient)
    cols[1].metric(shell.t("progress.too_harsh"), leniency.too_harsh)
    cols[2].metric(shell.t("progress.mean_steps"), f"{leniency.mean_steps:+.2f}")
    if specs["leniency"] is not None:
        _chart(specs["leniency"])
        st.caption(shell.t("progress.leniency_help"))
    else:
        st.caption(shell.t("progress.no_penalty_errors"))


def _findings(shell: Shell, figures: ProgressFigures, specs: dict[str, Spec | None]) -> None:
    """The findings right, by fact, and the wrong penalties on cards with findings told apart
    (misjudged the facts, misapplied the document); said plainly when there are none."""
    st.subheader(shell.t("progress.findings"), anchor=False)
    split = figures.findings
    if not split.answered:
        st.caption(shell.t("progress.no_findings"))
        return
    cols = list(st.columns(3))
    cols[0].metric(shell.t("progress.findings_right"), f"{split.accuracy:.0%}")
    cols[1].metric(shell.t("progress.misjudged"), split.misjudged)
    cols[2].metric(shell.t("progress.misapplied"), split.misapplied)
    st.caption(shell.t("progress.findings_help"))
    left, right = st.columns(2)
    with left:
        st.subheader(shell.t("progress.findings_by_fact"), anchor=False)
        _chart(specs["findings_by_fact"])
    with right:
        st.subheader(shell.t("progress.findings_split"), anchor=False)
        if specs["findings_split"] is None:
            st.caption(shell.t("progress.no_findings_penalty_errors"))
        else:
            _chart(specs["findings_split"])


def _floor_calls(shell: Shell, figures: ProgressFigures, specs: dict[str, Spec | None]) -> None:
    """The investigation of the floor calls answered, beside their rulings, and floor calls
    against scenario cards; nothing when the trainee has answered none."""
    split = figures.floor_calls.split
    if not split.answered:
        return
    st.subheader(shell.t("floor_stats.heading"), anchor=False)
    st.caption(shell.t("floor_stats.help"))
    first = list(st.columns(3))
    first[0].metric(shell.t("floor_stats.answered"), split.answered)
    first[1].metric(shell.t("floor_stats.accuracy"), f"{split.accuracy:.0%}")
    first[2].metric(shell.t("floor_stats.gathered_share"), f"{split.gathered_share:.0%}" if split.findings else "–")
    second = list(st.columns(4))
    second[0].metric(shell.t("floor_stats.right_guesses"), split.right_guesses)
    second[1].metric(shell.t("floor_stats.leading_per_call"), f"{split.leading_per_call:.1f}")
    second[2].metric(shell.t("floor_stats.time"), shell.t("floor_stats.time_value", seconds=round(split.mean_seconds),
                                                          budget=round(split.mean_budget)))
    second[3].metric(shell.t("floor_stats.over_budget"), f"{split.over_budget_share:.0%}")
    left, right = st.columns(2)
    with left:
        st.subheader(shell.t("floor_stats.evidence"), anchor=False)
        if specs["floor_evidence"] is None:
            st.caption(shell.t("floor_stats.no_evidence"))
        else:
            _chart(specs["floor_evidence"])
    with right:
        st.subheader(shell.t("floor_stats.kinds"), anchor=False)
        _chart(specs["floor_kinds"])


def _mistakes(shell: Shell, figures: ProgressFigures, zone: str, own: bool, key: str) -> None:
    """The cards last answered wrong (times in the trainee's zone), and a round of exactly those."""
    st.subheader(shell.t("progress.mistakes"), anchor=False)
    mistakes = figures.mistakes
    if mistakes.empty:
        st.caption(shell.t("progress.no_mistakes"))
        return
    cards = shell.content.cards
    penalties = penalty_labels(shell.content, shell.language)
    table = mistakes.assign(
        title=mistakes["card_id"].map(lambda c: list_title(cards[c]).get(shell.language) if c in cards else c),
        answered_at=mistakes["answered_at"].dt.tz_convert(zone).dt.strftime("%Y-%m-%d %H:%M"),
        chosen=mistakes["chosen_penalty"].map(lambda p: penalties.get(p, "")),
        standard=mistakes["standard_penalty"].map(lambda p: penalties.get(p, "")),
    )[["title", "answered_at", "chosen", "standard"]]
    headers = {} if own else {"chosen": "team.col_chosen"}  # not "your" penalty to a supervisor
    table.columns = [shell.t(headers.get(c, f"progress.col_{c}")) for c in table.columns]
    st.dataframe(table, hide_index=True, width="stretch")
    playable = [c for c in mistakes["card_id"] if c in cards]
    if own and st.button(
        shell.t("progress.practise_mistakes", n=len(playable)), type="primary", disabled=not playable,
        key=f"{key}-practise-mistakes",
    ):
        start_round(playable)


def _days(shell: Shell, n: int) -> str:
    return shell.t("progress.day" if n == 1 else "progress.days", n=n)


@dataclass(frozen=True)
class _View:
    figures: ProgressFigures
    charts: dict[str, Spec | None]


def _chart(spec: Spec | None, width: Literal["stretch", "content"] = "stretch") -> None:
    """A chart built by the core; None only for a figure with no data (drawn by the caller)."""
    if spec is not None:
        st.vega_lite_chart(spec=spec, width=width)


@dataclass(frozen=True)
class _ViewKey:
    """What a trainee's progress view is computed from, besides the store and the content:
    the cache key of ``_cached_view`` (Streamlit hashes a dataclass by its fields)."""

    url: str
    trainee_id: int
    rulesets: tuple[str, ...]
    today: dt.date
    zone: str
    goal: int
    source: str
    version: tuple[int, int]  # the trainee's answers (``stats_sql.version``)
    language: str
    content_fingerprint: str


def _view(shell: Shell, trainee_id: int, zone: str, goal: int, source: str) -> _View:
    """Figures and charts, recomputed only when the trainee has answered since, the day, the
    zone, the answers' source or the language changed, or other content was loaded."""
    today = dt.datetime.now(ZoneInfo(zone)).date()
    version = stats_sql.version(shell.store, stats_sql.AnswerScope(trainee_id))
    key = _ViewKey(str(shell.store.url), trainee_id, shell.rulesets, today, zone, goal, source, version,
                   shell.language, shell.content.fingerprint())
    return _cached_view(shell.store, shell.content, key)


@st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
def _cached_view(_store: Store, _content: Content, key: _ViewKey) -> _View:
    figures = progress_figures(_store, key.trainee_id, key.rulesets, key.today, key.zone, key.goal, key.source)
    return _View(figures, progress_charts(figures, _content, key.language))
