"""Team (supervisor): every trainee's figures, one trainee's progress, and confusing cards."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from quiz.access.look_alikes import look_alike_groups_of, visible_name
from quiz.model.attempt import utc_now
from quiz.model.errors import OutOfScopeError
from quiz.model.local_time import local_text
from quiz.report.progress_findings import Spec
from quiz.ui import shell as shell_module
from quiz.ui import tables, team_figures
from quiz.ui.markdown import escape_markdown
from quiz.ui.pin_forms import new_pin_form
from quiz.ui.scope_figures import REFRESH_MINUTES, figures_key
from quiz.ui.supervisor_gate import scope_shell, supervisor_scope
from quiz.ui.time_zone import viewer_zone
from quiz.ui.trainee_report import render_trainee_report

shell = shell_module.current()
st.title(shell.t("team.title"), anchor=False)
scope = supervisor_scope(shell, "team")
if scope is None:
    st.stop()
shell = scope_shell(shell, scope)  # the cards of the scope's store, its packs included

zone = viewer_zone(shell)
with st.spinner(shell.t("team.computing")):
    computed_at, overview, overview_shown, cards_shown, findings_charts = team_figures.team_tables(
        shell.store, shell.content, scope, figures_key(shell, scope, utc_now()), zone,
    )
freshness, refresh = st.columns([4, 1], vertical_alignment="center")
freshness.caption(shell.t("team.as_of", time=f"{local_text(computed_at, zone)} ({zone})", minutes=REFRESH_MINUTES))
if refresh.button(shell.t("team.refresh"), icon=":material/refresh:"):
    team_figures.clear()
    st.rerun()
seen = shell.store.trainees(scope)  # answers or not, whatever the sidebar's games
everyone = [trainee.name for trainee in seen]
if overview.empty and not everyone:
    st.info(shell.t("team.empty"))
    st.stop()


floor_tables = team_figures.floor_tables(shell.store, shell.content, scope, figures_key(shell, scope, computed_at),
                                         overview)


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
    look_alikes = look_alike_groups_of(seen)  # names made before the name rules, told apart
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
