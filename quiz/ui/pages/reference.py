"""Reference: each document's ladder and infractions, and the two games side by side."""

from __future__ import annotations

import streamlit as st

from quiz.report.reference import comparison_table, infraction_table, ladder_table
from quiz.ui import shell as shell_module
from quiz.ui.markdown import escape_markdown, quote_block

shell = shell_module.current()
lang = shell.language
st.title(shell.t("reference.title"), anchor=False)
rulesets = [shell.content.rulesets[r] for r in shell.rulesets]
tabs = st.tabs([r.document.title.get(lang) for r in rulesets] + [shell.t("reference.compare")])
scopes = {s: shell.t(f"scope.{s}") for s in
          ("current_game", "next_game", "current_match", "next_match", "event", "future_events")}

for tab, ruleset in zip(tabs, rulesets):
    with tab:
        version = f" ({escape_markdown(ruleset.document.version)})" if ruleset.document.version else ""
        st.caption(escape_markdown(ruleset.document.title.ja) + version)
        st.subheader(shell.t("reference.ladder"), anchor=False)
        ladder = ladder_table(ruleset, lang, scopes)
        ladder.columns = [shell.t(f"reference.col_{c}") for c in ladder.columns]
        st.table(ladder.set_index(ladder.columns[0]))
        if ruleset.principles:
            with st.expander(shell.t("reference.principles")):
                for principle in ruleset.principles:
                    st.markdown(escape_markdown(principle.text.get(lang)))
                    st.markdown(quote_block(principle.citation.ja))
        st.subheader(shell.t("reference.infractions"), anchor=False)
        query = st.text_input(shell.t("reference.search"), key=f"search-{ruleset.id}",
                              placeholder=shell.t("reference.search_placeholder"))
        table = infraction_table(ruleset, lang, query)
        table.columns = [shell.t(f"reference.col_{c}") for c in table.columns]
        wide = {name: st.column_config.TextColumn(width="large") for name in table.columns[2:]}
        st.dataframe(table, hide_index=True, width="stretch", column_config=wide)
        st.caption(shell.t("reference.rows", n=len(table)))

with tabs[-1]:
    st.subheader(shell.t("reference.compare"), anchor=False)
    st.caption(shell.t("reference.compare_help"))
    compare = comparison_table(shell.content, lang)
    if not compare.empty:
        compare = compare.rename(columns={"theme": shell.t("reference.col_theme")})
    if not compare.empty:
        st.table(compare.set_index(compare.columns[0]))
