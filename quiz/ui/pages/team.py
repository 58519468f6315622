"""Team (supervisor): every trainee's figures, one trainee's progress, and confusing cards."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from quiz.access.look_alikes import look_alike_groups, visible_name
from quiz.content.categories import category_labels
from quiz.content.loader import Content
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.errors import OutOfScopeError
from quiz.model.local_time import local_text
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.report.floor_calls import most_missed, team_floor_calls, team_floor_charts, trainee_floor_table
from quiz.report.progress_findings import Spec
from quiz.report.team import card_statistics, team_overview
from quiz.report.team_findings import team_findings, team_findings_charts
from quiz.report.team_tables import card_table, overview_table
from quiz.ui import shell as shell_module
from quiz.ui import tables
from quiz.ui.markdown import escape_markdown
from quiz.ui.pin_forms import new_pin_form
from quiz.ui.scope_figures import REFRESH_MINUTES, FiguresKey, figures_key
from quiz.ui.supervisor_gate import scope_shell, supervisor_scope
from quiz.ui.time_zone import viewer_zone
from quiz.ui.trainee_report import render_trainee_report

shell = shell_module.current()
st.title(shell.t("team.title"), anchor=False)
scope = supervisor_scope(shell, "team")
if scope is None:
    st.stop()
shell = scope_shell(shell, scope)  # the cards of the scope's store, its packs included


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _team_tables(
    _store: Store, _content: Content, _scope: Scope, key: FiguresKey, zone: str,
) -> tuple[dt.datetime, pd.DataFrame, pd.DataFrame, pd.DataFrame, dict[str, Spec | None]]:
    """When they were computed, the overview (raw and as shown), the per-card table, and the
    charts of findings (per trainee, and per fact across the team).

    They read every attempt of every trainee (seconds on a million answers), so they are
    computed once per period of a few minutes, or when asked, not on every rerun. They are
    ``_scope``'s, kept under its store (``FiguresKey``).
    """
    rulesets, language = key.rulesets, key.language
    overview = team_overview(_store.engine, _scope, utc_now(), rulesets)
    names = category_labels(_content, language, t("shell.knowledge", language))
    findings = team_findings(_store, _scope, rulesets)
    cards = card_table(card_statistics(_store.engine, _scope, rulesets), _content, language, findings)
    trainee_names = dict(zip(overview["trainee_id"], overview["trainee"]))
    charts = team_findings_charts(findings, trainee_names, _content, language)
    return utc_now(), overview, overview_table(overview, names, zone, findings), cards, charts


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _floor_tables(
    _store: Store, _content: Content, _scope: Scope, key: FiguresKey, names: tuple[tuple[int, str], ...],
) -> tuple[pd.DataFrame, pd.DataFrame, Spec | None] | None:
    """The floor calls of ``_scope``'s trainees: per trainee (as shown), the calls whose
    evidence is most often missed, and each trainee's findings by evidence; None when no
    trainee has answered one. Computed as ``_team_tables`` is, once per period."""
    floor = team_floor_calls(_store, _scope, key.rulesets)
    if not floor.answered:
        return None
    trainee_names = dict(names)
    return (trainee_floor_table(floor, trainee_names), most_missed(floor.by_card, _content, key.language),
            team_floor_charts(floor, trainee_names, key.language)["evidence"])


zone = viewer_zone(shell)
with st.spinner(shell.t("team.computing")):
    computed_at, overview, overview_shown, cards_shown, findings_charts = _team_tables(
        shell.store, shell.content, scope, figures_key(shell, scope, utc_now()), zone,
    )
freshness, refresh = st.columns([4, 1], vertical_alignment="center")
freshness.caption(shell.t("team.as_of", time=f"{local_text(computed_at, zone)} ({zone})", minutes=REFRESH_MINUTES))
if refresh.button(shell.t("team.refresh"), icon=":material/refresh:"):
    _team_tables.clear()
    _floor_tables.clear()
    st.rerun()
everyone = [trainee.name for trainee in shell.store.trainees(scope)]  # answers or not, whatever the sidebar's games
if overview.empty and not everyone:
    st.info(shell.t("team.empty"))
    st.stop()


floor_tables = _floor_tables(
    shell.store, shell.content, scope, figures_key(shell, scope, computed_at),
    tuple(zip(overview["trainee_id"], overview["trainee"])),
)


def show_floor_table(table: pd.DataFrame, name: str) -> None:
    tables.show_table(table, lambda column: shell.t(f"floor_stats.col_{column}"), shell.t("team.download"), name)


def show_table(table: pd.DataFrame, name: str) -> None:
    tables.show_table(table, lambda column: shell.t(f"team.col_{column}"), shell.t("team.download"), name)


def show_findings_chart(title: str, spec: Spec | None, none: str, help_key: str | None = None) -> None:
    """A chart of findings under its title (and ``help_key``'s words), or ``none`` (a key)
    said plainly when it has nothing to draw."""
    st.subheader(shell.t(title), anchor=False)
    if help_key is not None:
        st.caption(shell.t(help_key))
    if spec is None:
        st.caption(shell.t(none))
    else:
        st.vega_lite_chart(spec=spec, width="stretch")


trainees_tab, cards_tab, trainee_tab = st.tabs(
    [shell.t("team.tab_trainees"), shell.t("team.tab_cards"), shell.t("team.tab_trainee")]
)
with trainees_tab:
    st.caption(shell.t("team.trainees_help"))
    look_alikes = look_alike_groups(shell.store, scope)  # names made before the name rules, told apart
    if look_alikes:
        st.warning(shell.t("accounts.look_alikes", names="; ".join(
            " / ".join(escape_markdown(visible_name(t.name)) for t in group) for group in look_alikes
        )))
    if overview.empty:
        st.info(shell.t("team.empty"))
    else:
        show_table(overview_shown, "team-trainees")
        no_findings = "team.no_findings" if findings_charts["by_fact"] is None else "team.no_findings_penalty_errors"
        show_findings_chart("team.findings", findings_charts["by_trainee"], no_findings, "team.findings_help")
        st.subheader(shell.t("floor_stats.heading"), anchor=False)
        if floor_tables is None:
            st.caption(shell.t("floor_stats.no_calls"))
        else:
            st.caption(shell.t("floor_stats.team_help"))
            show_floor_table(floor_tables[0], "team-floor-calls")
            if floor_tables[2] is not None:
                st.vega_lite_chart(spec=floor_tables[2], width="stretch")
with cards_tab:
    st.caption(shell.t("team.cards_help"))
    if overview.empty:
        st.info(shell.t("team.empty"))
    else:
        show_table(cards_shown, "team-cards")
        show_findings_chart("team.findings_by_fact", findings_charts["by_fact"], "team.no_findings")
        st.subheader(shell.t("floor_stats.most_missed"), anchor=False)
        if floor_tables is None:
            st.caption(shell.t("floor_stats.no_calls"))
        else:
            st.caption(shell.t("floor_stats.most_missed_help"))
            show_floor_table(floor_tables[1], "team-floor-calls-missed")
with trainee_tab:
    picked = st.selectbox(shell.t("team.pick_trainee"), everyone, index=None,
                          placeholder=shell.t("team.pick_placeholder"), key="team-trainee")
    try:
        trainee = shell.store.seen_trainee(scope, picked) if picked else None
    except OutOfScopeError:  # a name this page never offered
        trainee = None
    if trainee is not None:
        st.subheader(shell.t("team.viewing", name=escape_markdown(trainee.name)), anchor=False)
        with st.expander(shell.t("team.new_pin"), icon=":material/key:"):  # at the top: a forgotten PIN is urgent
            new_pin_form(shell.store, scope, trainee, shell.language, zone)
        render_trainee_report(shell, trainee, own=False, key="team-progress")
