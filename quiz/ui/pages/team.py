"""Team (supervisor): every trainee's figures, one trainee's progress, and confusing cards."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from quiz.attempt import utc_now
from quiz.markdown import escape_markdown
from quiz.progress_view import category_labels
from quiz.team import card_statistics, team_overview
from quiz.csv_export import csv_bytes
from quiz.team_view import card_table, overview_table
from quiz.ui import shell as shell_module
from quiz.ui.trainee_report import render_trainee_report
from quiz.ui.supervisor_gate import lock, supervisor_unlocked

shell = shell_module.current()
st.title(shell.t("team.title"), anchor=False)
if not supervisor_unlocked(shell):
    st.stop()
lock(shell)

overview = team_overview(shell.store.engine, utc_now(), shell.rulesets)
if overview.empty:
    st.info(shell.t("team.empty"))
    st.stop()


def show_table(table: pd.DataFrame, name: str) -> None:
    """A table with translated headers, and its CSV as shown."""
    table.columns = [shell.t(f"team.col_{column}") for column in table.columns]
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button(shell.t("team.download"), data=csv_bytes(table), file_name=f"{name}.csv",
                       mime="text/csv", key=f"team-download-{name}", icon=":material/download:")


trainees_tab, cards_tab, trainee_tab = st.tabs(
    [shell.t("team.tab_trainees"), shell.t("team.tab_cards"), shell.t("team.tab_trainee")]
)
with trainees_tab:
    st.caption(shell.t("team.trainees_help"))
    names = category_labels(shell.content, shell.language, shell.t("shell.knowledge"))
    show_table(overview_table(overview, names), "team-trainees")
with cards_tab:
    st.caption(shell.t("team.cards_help"))
    show_table(card_table(card_statistics(shell.store.engine, shell.rulesets), shell.content, shell.language),
               "team-cards")
with trainee_tab:
    picked = st.selectbox(shell.t("team.pick_trainee"), list(overview["trainee"]), index=None,
                          placeholder=shell.t("team.pick_placeholder"), key="team-trainee")
    trainee = shell.store.find_trainee(picked) if picked else None
    if trainee is not None:
        st.subheader(shell.t("team.viewing", name=escape_markdown(trainee.name)), anchor=False)
        render_trainee_report(shell, trainee, own=False, key="team-progress")
