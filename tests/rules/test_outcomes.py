"""Outcome queries of a compiled ruleset, and the issue's property test:

"for every card and every penalty on its ladder, the facts that the explanation gives,
judged by the engine, yield that penalty (or the explanation says no facts do)".

The brute-force checks enumerate fact values themselves (every value 0-12 of each
whole-number fact, both values of each true/false fact that any condition on the path
reads), so they do not rest on the cut points the queries use.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.model.errors import UndecidedCaseError
from quiz.model.verdict import Verdict
from quiz.rules.engine import compile_ruleset, judge
from quiz.rules.explain import explain_penalty
from quiz.rules.outcomes import (
    can_name_both_players,
    cases,
    describe_changes,
    infractions_with_penalty,
    interval,
    possible_penalties,
    read_facts,
    route_to_penalty,
    sample_values,
)
from quiz.rules.variants import possible_facts
from tests.shipped_content import shipped_content

CONTENT = shipped_content()
RULESETS = dict(CONTENT.rulesets)
GRID_TOP = 12  # above every threshold of the shipped documents (10 minutes, 2 Cautions, ...)


def decision(verdict: Verdict) -> tuple:
    """What a grader reads of a verdict (not where it applies, nor its citations)."""
    return (verdict.infraction, verdict.penalty, verdict.accepted, verdict.fixes, verdict.optional_fixes,
            verdict.players)


def outcome_key(ruleset, infraction: str, facts: dict) -> tuple:
    try:
        return ("verdict", decision(judge(ruleset, infraction, facts)))
    except UndecidedCaseError as refused:
        return ("refused", refused.infraction, refused.lines)


def _path_facts(ruleset, infraction: str) -> set[str]:
    """Facts any condition on the infraction's path reads, found from the parsed tree directly:
    its rules, the infractions it becomes, every escalation and every upgrade."""
    book = compile_ruleset(ruleset)
    names: set[str] = set(book.infractions[infraction][0].requires)
    frontier, seen = [infraction], set()
    while frontier:
        current = frontier.pop()
        if current in seen:
            continue
        seen.add(current)
        names |= set(book.infractions[current][0].assumes)
        for rule in book.infractions[current][1]:
            if rule.when is not None:
                names |= rule.when.facts()
            if rule.rule.becomes:
                frontier.append(rule.rule.becomes)
    for escalation in book.escalations:
        names |= escalation.when.facts()
    for upgrade in book.upgrades:
        names |= upgrade.when.facts()
    return names


@cache
def grid(ruleset_id: str, infraction: str) -> tuple[tuple[dict, tuple], ...]:
    """(facts, outcome) for every combination of a plain grid of values."""
    ruleset = RULESETS[ruleset_id]
    specs = {s.id: s for s in ruleset.facts}
    names = sorted(_path_facts(ruleset, infraction))
    values = [(False, True) if specs[n].type == "bool" else tuple(range(specs[n].min or 0, GRID_TOP + 1))
              for n in names]
    found = []
    for combination in itertools.product(*values):
        facts = dict(zip(names, combination))
        found.append((facts, outcome_key(ruleset, infraction, facts)))
    return tuple(found)


def grid_penalties(ruleset_id: str, infraction: str) -> frozenset[str]:
    return frozenset(p for _, (kind, *rest) in grid(ruleset_id, infraction) if kind == "verdict" for p in rest[0][2])


def card_fact_sets(card) -> list[dict]:
    unique: dict[tuple, dict] = {}
    for facts in possible_facts(card):
        unique.setdefault(tuple(sorted(facts.items())), dict(facts))
    return list(unique.values())


SCENARIO_CARDS = sorted(CONTENT.scenario_cards, key=lambda c: c.id)
INFRACTIONS = [(rid, inf.id) for rid, ruleset in RULESETS.items() for inf in ruleset.infractions]


def test_there_are_shipped_cards_to_check():
    assert len(SCENARIO_CARDS) > 50
    assert {c.ruleset for c in SCENARIO_CARDS} == {"yugioh-ocg", "pokemon-card-ja"}


# --- the property test the issue asks for ------------------------------------------------------------

@pytest.mark.parametrize("card", SCENARIO_CARDS, ids=[c.id for c in SCENARIO_CARDS])
def test_the_explanation_of_every_penalty_is_what_the_engine_gives(card):
    ruleset = RULESETS[card.ruleset]
    for facts in card_fact_sets(card):
        own = judge(ruleset, card.infraction, facts)
        for rung in ruleset.ladder:
            penalty = rung.id
            route = route_to_penalty(ruleset, card.infraction, penalty, facts)
            explained = explain_penalty(ruleset, card.infraction, penalty, facts, "en")
            assert explained.possible == (route is not None)
            if route is None:
                # the explanation says no facts give it: no case of the infraction does
                assert explained.changes == [] and explained.verdict is None
                assert penalty not in grid_penalties(card.ruleset, card.infraction), (card.id, penalty)
                assert not any(isinstance(c.outcome, Verdict) and penalty in c.outcome.accepted
                               for c in cases(ruleset, card.infraction))
                continue
            # the facts the explanation gives, judged by the engine, yield that penalty
            judged = judge(ruleset, card.infraction, {**facts, **route.changes})
            assert penalty in judged.accepted, (card.id, penalty, route.changes)
            assert (judged.penalty == penalty) == route.standard, (card.id, penalty, route.changes)
            assert decision(judged) == decision(route.verdict)
            assert explained.standard == route.standard and explained.verdict == route.verdict
            assert explained.changes == describe_changes(ruleset, card.infraction, route.changes, "en")
            assert len(explained.changes) == len(route.changes)
            assert explained.judged_as == (judged.infraction if judged.infraction != card.infraction else None)
            # nothing to change exactly when the card's own verdict already accepts it
            assert (route.changes == {}) == (penalty in own.accepted), (card.id, penalty)
            if route.changes == {}:
                assert route.standard == (own.penalty == penalty)


@pytest.mark.parametrize(("ruleset_id", "infraction"), INFRACTIONS, ids=[f"{r}/{i}" for r, i in INFRACTIONS])
def test_the_sampled_cases_find_every_outcome_of_the_grid(ruleset_id, infraction):
    """The representative cases give exactly the outcomes a plain grid of values gives."""
    ruleset = RULESETS[ruleset_id]
    sampled = set()
    for case in cases(ruleset, infraction):
        sampled.add(outcome_key(ruleset, infraction, dict(case.facts)))
    assert sampled == {outcome for _, outcome in grid(ruleset_id, infraction)}
    assert possible_penalties(ruleset, infraction) == grid_penalties(ruleset_id, infraction)
    assert can_name_both_players(ruleset, infraction) == any(
        kind == "verdict" and rest[0][5] == "both" for _, (kind, *rest) in grid(ruleset_id, infraction))


@st.composite
def any_case(draw):
    ruleset = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    infraction = draw(st.sampled_from([i.id for i in ruleset.infractions]))
    facts = {spec.id: draw(st.booleans() if spec.type == "bool" else st.integers(spec.min or 0, 200))
             for spec in ruleset.facts}
    return ruleset, infraction, facts


@settings(max_examples=1500, deadline=None)
@given(any_case())
def test_exhaustiveness_any_facts_agree_with_the_sampled_case_of_their_intervals(case):
    """The claim the queries rest on: the verdict is constant on the intervals between cut points,
    so any facts get the verdict of the sampled case whose values stand for the same intervals."""
    ruleset, infraction, facts = case
    samples = sample_values(ruleset, infraction)
    representative = {}
    for name, points in samples.items():
        value = facts[name]
        representative[name] = value if isinstance(value, bool) else max(p for p in points if p <= value)
        if not isinstance(value, bool):
            low, high = interval(ruleset, infraction, name, representative[name])
            assert low <= value and (high is None or value <= high)
    matching = [c for c in cases(ruleset, infraction) if dict(c.facts) == representative]
    assert len(matching) == 1
    sampled = matching[0].outcome
    actual = outcome_key(ruleset, infraction, facts)
    if isinstance(sampled, Verdict):
        assert actual == ("verdict", decision(sampled))
    else:
        assert actual == ("refused", sampled.infraction, sampled.lines)


# --- the queries on lines of the documents ----------------------------------------------------------

def test_sample_values_follow_the_thresholds(ygo, pkm):
    # YGO lines 64-69: 5 and 10 minutes; line 28: a repeat (1 or more)
    assert sample_values(ygo, "tardiness") == {"minutes_late": (0, 5, 10), "prior_same_infraction": (0, 1)}
    # Pokémon line 23 (several Cautions: 2 or more) and line 29 (a Warning: 1 or more)
    values = sample_values(pkm, "card_revealed")
    assert values["prior_cautions"] == (0, 2) and values["prior_warnings"] == (0, 1)
    assert values["intentional"] == (False, True)


def test_read_facts_are_the_ruleset_facts_on_the_path(ygo, pkm):
    assert set(read_facts(ygo, "tardiness")) == {"minutes_late", "prior_same_infraction"}
    assert "intentional" in read_facts(ygo, "extra_draw")  # becomes intentional_violation
    assert "affected_result" in read_facts(ygo, "slow_play") and "affected_result" not in read_facts(ygo, "extra_look")
    assert "prior_same_infraction" not in read_facts(pkm, "card_revealed")


def test_possible_penalties(ygo, pkm):
    # tardiness: lines 65, 67, 69; principle B adds nothing beyond a match loss
    assert possible_penalties(ygo, "tardiness") == {"warning", "duel_loss", "match_loss"}
    # slow play: lines 79-82 and principle B; never a disqualification (revision 2)
    assert possible_penalties(ygo, "slow_play") == {"caution", "warning", "duel_loss", "match_loss"}
    # line 42: either or both
    assert possible_penalties(pkm, "harm_or_damage") == {"suspension", "disqualification"}
    # line 29 reaches every caution- and warning-level infraction
    assert possible_penalties(pkm, "card_revealed") == {"caution", "warning", "prize_penalty"}


def test_who_can_receive_it(ygo, pkm):
    assert can_name_both_players(ygo, "result_by_chance")  # line 84
    assert not can_name_both_players(ygo, "result_bribery")  # line 86: the other player is not decided
    assert can_name_both_players(pkm, "result_collusion")  # line 39, always (revision 3)
    assert not can_name_both_players(pkm, "card_revealed")


def test_refused_cases_are_among_the_cases(pkm):
    refused = [c for c in cases(pkm, "card_revealed") if isinstance(c.outcome, UndecidedCaseError)]
    assert refused and all(c.facts["intentional"] is True for c in refused)
    assert all({19, 73} & set(c.outcome.lines) for c in refused)


def test_route_is_the_nearest_case(ygo):
    route = route_to_penalty(ygo, "tardiness", "duel_loss", {"minutes_late": 2})
    assert route.changes == {"minutes_late": 5} and route.standard
    assert route_to_penalty(ygo, "tardiness", "duel_loss", {"minutes_late": 7}).changes == {}
    assert route_to_penalty(ygo, "tardiness", "caution", {"minutes_late": 7}) is None


def test_a_standard_route_wins_over_an_accepted_one_at_equal_distance(ygo):
    # an extra draw is a duel loss when not restorable (line 55) or decisive (56), and a
    # duel loss is only accepted on a repeat (line 28): one fact each, the standard wins
    route = route_to_penalty(ygo, "extra_draw", "duel_loss", {})
    assert route.standard and len(route.changes) == 1
    assert route.verdict.penalty == "duel_loss"


def test_an_accepted_only_route(ygo):
    route = route_to_penalty(ygo, "slow_play", "warning", {})
    assert not route.standard and route.verdict.penalty == "caution" and len(route.changes) == 1
    assert set(route.changes) <= {"affected_result", "prior_same_infraction"}


def test_describe_changes_in_both_languages(ygo):
    assert describe_changes(ygo, "tardiness", {"minutes_late": 5}, "en") == ["The player was 5 to 9 minutes late after the call"]
    assert describe_changes(ygo, "tardiness", {"minutes_late": 5}, "ja") == ["集合時間から5〜9分遅れていた"]
    assert describe_changes(ygo, "tardiness", {"minutes_late": 10}, "en") == ["The player was 10 or more minutes late after the call"]
    assert describe_changes(ygo, "tardiness", {"minutes_late": 10}, "ja") == ["集合時間から10分以上遅れていた"]
    assert describe_changes(ygo, "tardiness", {"minutes_late": 0}, "en") == ["The player was fewer than 5 minutes late after the call"]
    assert describe_changes(ygo, "extra_draw", {"intentional": True}, "en") == ["Done on purpose"]
    assert describe_changes(ygo, "extra_draw", {"restorable": False}, "ja") == ["元に戻せない"]


def test_infractions_with_penalty(pkm, ygo):
    assert infractions_with_penalty(pkm, "suspension") == ["harm_or_damage"]
    assert infractions_with_penalty(pkm, "suspension", exclude="harm_or_damage") == []
    assert infractions_with_penalty(ygo, "disqualification") == ["result_by_chance"]
