"""Property tests: any valid facts give a verdict that stays on the ladder."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.engine import judge
from quiz.loader import load_content

CONTENT = load_content(card_paths=[])
RULESETS = list(CONTENT.rulesets.values())


def _value(spec):
    if spec.type == "bool":
        return st.booleans()
    return st.integers(min_value=spec.min or 0, max_value=60)


@st.composite
def cases(draw):
    ruleset = draw(st.sampled_from(RULESETS))
    infraction = draw(st.sampled_from(ruleset.infractions))
    facts = {}
    for spec in ruleset.facts:
        if spec.id in infraction.requires or draw(st.booleans()):
            facts[spec.id] = draw(_value(spec))
    return ruleset, infraction.id, facts


@settings(max_examples=600, deadline=None)
@given(cases())
def test_verdict_stays_on_the_ladder(case):
    ruleset, infraction, facts = case
    verdict = judge(ruleset, infraction, facts)
    ladder = [p.id for p in ruleset.ladder]
    fixes = {f.id for f in ruleset.fixes}
    assert verdict.penalty in ladder
    assert verdict.accepted[0] == verdict.penalty
    assert [ladder.index(p) for p in verdict.accepted] == sorted(ladder.index(p) for p in verdict.accepted)
    assert set(verdict.fixes) <= fixes and set(verdict.optional_fixes) <= fixes
    assert not set(verdict.fixes) & set(verdict.optional_fixes)
    assert verdict.trace and verdict.trace[0].startswith(f"{ruleset.id}/{infraction}/")
    assert verdict.citations and all(c.lines for c in verdict.citations)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=120), st.integers(min_value=0, max_value=120))
def test_later_is_never_lighter(first, second):
    ygo = CONTENT.rulesets["yugioh-ocg"]
    rank = {p.id: i for i, p in enumerate(ygo.ladder)}
    early, late = sorted((first, second))
    assert rank[judge(ygo, "tardiness", {"minutes_late": early}).penalty] <= rank[
        judge(ygo, "tardiness", {"minutes_late": late}).penalty
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([i.id for i in CONTENT.rulesets["pokemon-card-ja"].infractions]),
    st.integers(0, 5),
    st.integers(0, 5),
    st.booleans(),
)
def test_more_prior_penalties_never_lighten(infraction, cautions, warnings, intentional):
    pkm = CONTENT.rulesets["pokemon-card-ja"]
    rank = {p.id: i for i, p in enumerate(pkm.ladder)}
    base = judge(pkm, infraction, {"intentional": intentional})
    more = judge(pkm, infraction, {"intentional": intentional, "prior_cautions": cautions, "prior_warnings": warnings})
    assert rank[more.penalty] >= rank[base.penalty]
