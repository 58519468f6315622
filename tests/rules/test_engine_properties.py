"""Property tests: any valid facts give a verdict that stays on the ladder, or a refusal that
names the document's line; discretion stays within what the documents allow."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.content.loader import load_content
from quiz.model.errors import UndecidedCaseError
from quiz.rules.engine import judge

CONTENT = load_content(card_paths=[])
RULESETS = list(CONTENT.rulesets.values())
YGO = CONTENT.rulesets["yugioh-ocg"]
PKM = CONTENT.rulesets["pokemon-card-ja"]


def _value(spec):
    if spec.type == "bool":
        return st.booleans()
    return st.integers(min_value=spec.min or 0, max_value=60)


@st.composite
def cases(draw, rulesets=None):
    ruleset = draw(st.sampled_from(rulesets or RULESETS))
    infraction = draw(st.sampled_from(ruleset.infractions))
    facts = {}
    for spec in ruleset.facts:
        if spec.id in infraction.requires or draw(st.booleans()):
            facts[spec.id] = draw(_value(spec))
    return ruleset, infraction.id, facts


def _outcome(ruleset, infraction, facts):
    try:
        return judge(ruleset, infraction, facts)
    except UndecidedCaseError as refused:
        return refused


@settings(max_examples=800, deadline=None)
@given(cases())
def test_verdict_stays_on_the_ladder(case):
    ruleset, infraction, facts = case
    outcome = _outcome(ruleset, infraction, facts)
    if isinstance(outcome, UndecidedCaseError):
        # refused: the message names the line of the infraction the path stopped at
        assert outcome.lines and f"{outcome.lines[0]}" in str(outcome)
        assert outcome.trace and outcome.trace[0].startswith(f"{ruleset.id}/{infraction}/")
        assert ruleset.infraction(outcome.infraction) is not None
        return
    verdict = outcome
    ladder = [p.id for p in ruleset.ladder]
    fixes = {f.id for f in ruleset.fixes}
    assert verdict.penalty in ladder
    assert verdict.accepted[0] == verdict.penalty
    assert set(verdict.accepted) <= set(ladder) and len(set(verdict.accepted)) == len(verdict.accepted)
    assert set(verdict.fixes) <= fixes and set(verdict.optional_fixes) <= fixes
    assert not set(verdict.fixes) & set(verdict.optional_fixes)
    assert verdict.players in ("offender", "both")
    assert verdict.trace and verdict.trace[0].startswith(f"{ruleset.id}/{infraction}/")
    assert verdict.citations and all(c.lines for c in verdict.citations)


@settings(max_examples=500, deadline=None)
@given(cases([YGO]))
def test_yugioh_discretion_never_adds_a_disqualification(case):
    """Principle B (line 28) and the affected-result lines add up to a Match Loss only (revision 2)."""
    ruleset, infraction, facts = case
    verdict = _outcome(ruleset, infraction, facts)
    if isinstance(verdict, UndecidedCaseError):
        return
    rank = {p.id: i for i, p in enumerate(ruleset.ladder)}
    added = [p for p in verdict.accepted if p != verdict.penalty]
    assert all(rank[verdict.penalty] < rank[p] <= rank["match_loss"] for p in added)
    if added:  # contiguous: every penalty from the standard one up to the cap
        assert list(verdict.accepted) == [p.id for p in ruleset.ladder[rank[verdict.penalty]: rank[added[-1]] + 1]]
    # who receives it: the offender, except for a result decided by chance (line 84)
    assert (verdict.players == "both") == (verdict.infraction == "result_by_chance")


@settings(max_examples=300, deadline=None)
@given(cases([YGO]), st.integers(1, 20))
def test_a_repeat_never_narrows_what_is_accepted(case, repeats):
    ruleset, infraction, facts = case
    first = _outcome(ruleset, infraction, {**facts, "prior_same_infraction": 0})
    again = _outcome(ruleset, infraction, {**facts, "prior_same_infraction": repeats})
    assert isinstance(first, UndecidedCaseError) == isinstance(again, UndecidedCaseError)
    if not isinstance(first, UndecidedCaseError):
        assert again.penalty == first.penalty and set(first.accepted) <= set(again.accepted)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=120), st.integers(min_value=0, max_value=120))
def test_later_is_never_lighter(first, second):
    rank = {p.id: i for i, p in enumerate(YGO.ladder)}
    early, late = sorted((first, second))
    assert rank[judge(YGO, "tardiness", {"minutes_late": early}).penalty] <= rank[
        judge(YGO, "tardiness", {"minutes_late": late}).penalty
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([i.id for i in PKM.infractions]),
    st.integers(0, 5),
    st.integers(0, 5),
    st.booleans(),
    st.booleans(),
)
def test_more_prior_penalties_never_lighten(infraction, cautions, warnings, intentional, restorable):
    rank = {p.id: i for i, p in enumerate(PKM.ladder)}
    facts = {"intentional": intentional, "restorable": restorable}
    base = _outcome(PKM, infraction, facts)
    more = _outcome(PKM, infraction, {**facts, "prior_cautions": cautions, "prior_warnings": warnings})
    # whether the document decides the case does not depend on earlier penalties
    assert isinstance(base, UndecidedCaseError) == isinstance(more, UndecidedCaseError)
    if isinstance(base, UndecidedCaseError):
        return
    assert rank[more.penalty] >= rank[base.penalty]
    if restorable:  # the escalations change the penalty only: the fixes stay (revision 2)
        assert set(base.fixes) <= set(more.fixes)
