"""Reference: a search across every game's infractions, each document's ladder and
infractions (every rule in words, its lines quoted in full), and the games side by side."""

from __future__ import annotations

import streamlit as st

from quiz.report.citations import where_cited
from quiz.report.reference import (
    InfractionEntry,
    RuleEntry,
    SearchHit,
    comparison_rows,
    infraction_entries,
    ladder_table,
    search_entries,
)
from quiz.ui import exam_widgets
from quiz.ui import shell as shell_module
from quiz.ui.markdown import escape_markdown, quote_block

shell = shell_module.current()
lang = shell.language
st.title(shell.t("reference.title"), anchor=False)
exam_widgets.wait_for_closed_book_exam(shell)  # a closed-book exam running: not drawn
rulesets = [shell.content.rulesets[r] for r in shell.rulesets]
scopes = {s: shell.t(f"scope.{s}") for s in
          ("current_game", "next_game", "current_match", "next_match", "event", "future_events")}


def outcome(rule: RuleEntry) -> str:
    """What the rule gives, as Markdown: the penalty in bold, or the infraction it is judged as."""
    if rule.kind == "becomes":
        return escape_markdown(shell.t("reference.judged_as", infraction=rule.outcome))
    return f"**{escape_markdown(rule.outcome)}**"


def show_rules(entry: InfractionEntry) -> None:
    """Each rule: what it gives and when, the fixes, the document's line in full (and its English)."""
    st.caption(escape_markdown(entry.description))
    for rule in entry.rules:
        st.markdown(f"{outcome(rule)} — {escape_markdown(rule.when)}")
        if rule.fixes:
            st.markdown(escape_markdown(shell.t("reference.fixes", fixes=", ".join(rule.fixes))))
        st.markdown(quote_block(rule.original))
        if lang == "en":
            st.caption("  \n".join(escape_markdown(line) for line in rule.translation.split("\n")))


def show_entry(entry: InfractionEntry, hit: SearchHit | None = None) -> None:
    """An infraction as an expander labelled with its penalties; a search result also names its
    game and category (a game's own list is grouped by category) and where in the document it
    mentions the words searched for."""
    found = hit is not None
    penalties = " / ".join(dict.fromkeys(r.outcome for r in entry.rules if r.kind == "penalty"))
    parts = [entry.game, entry.category] * found + [entry.name] + [penalties] * bool(penalties)
    label = " · ".join(dict.fromkeys(parts))  # a category named as its only infraction is said once
    with st.expander(escape_markdown(label), expanded=found):
        if hit is not None and hit.lines:
            where = where_cited(shell.content.rulesets[entry.ruleset], hit.lines, lang)
            st.caption(escape_markdown(shell.t("reference.found_in", where=where)))
        show_rules(entry)


query = st.text_input(shell.t("reference.search_all"), key="reference-search",
                      placeholder=shell.t("reference.search_placeholder"))
if query.strip():
    found = search_entries(rulesets, lang, query)
    if found:
        st.caption(shell.t("reference.found", n=len(found)))
        for hit in found:
            show_entry(hit.entry, hit)
    else:
        st.info(shell.t("reference.nothing_found", query=escape_markdown(query.strip())))

tabs = st.tabs([r.document.title.get(lang) for r in rulesets] + [shell.t("reference.compare")])
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
        entries = infraction_entries(ruleset, lang)
        st.caption(shell.t("reference.listed", n=len(entries)))
        category = None
        for entry in entries:
            if entry.category != category:
                category = entry.category
                st.markdown(f"**{escape_markdown(category)}**")
            show_entry(entry)

with tabs[-1]:
    st.subheader(shell.t("reference.compare"), anchor=False)
    st.caption(shell.t("reference.compare_help"))
    for row in comparison_rows(shell.content, lang):
        st.markdown(f"#### {escape_markdown(row.theme)}")
        for column, (game, entries) in zip(st.columns(len(row.games)), row.games.items()):
            with column, st.container(border=True):
                st.markdown(f"**{escape_markdown(game)}**")
                if not entries:
                    st.caption(shell.t("reference.not_covered"))
                lines = []
                for entry in entries:
                    lines.append(f"- {escape_markdown(entry.name)}")
                    for rule in entry.rules:
                        when = shell.t("reference.always") if rule.clause is None else shell.t(
                            "reference.if", condition=rule.clause)
                        lines.append(f"    - {outcome(rule)} — {escape_markdown(when)}")
                if lines:
                    st.markdown("\n".join(lines))
