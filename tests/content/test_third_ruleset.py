"""A third game, in YAML only (tests/fixtures/third_game/), through every part of the core with
no code change: loading, validation, coverage, the engine, grading, outcome queries,
explanations and the practice flow.

Lantern Tiles is invented: its own ladder (reminder, strike, round_loss, ejection), its own
facts, a scope, two escalations (one keeping the fixes, one not), a capped upgrade, undecided
rules, a both-players rule and optional fixes of a rung and of a rule. Its document is
``rulesets/sources/lantern-tiles.txt``; the cases below quote it line by line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.content.categories import card_category
from quiz.content.coverage import branches, coverage
from quiz.content.loader import load_content
from quiz.content.ruleset_checks import check_ruleset
from quiz.content.snapshot import load_content_snapshotted
from quiz.model.cards import NO_LISTED_INFRACTION, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.errors import FactError, UndecidedCaseError
from quiz.rules.engine import judge
from quiz.rules.explain import describe_rule, explain_penalty
from quiz.rules.outcomes import can_name_both_players, describe_changes, possible_penalties, route_to_penalty
from quiz.rules.variants import possible_facts
from quiz.training.answer_outcomes import asks_players
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer, grade_scenario
from quiz.training.kinds import answer_card
from quiz.training.pools import card_pool

ROOT = Path(__file__).resolve().parents[2]
THIRD = ROOT / "tests" / "fixtures" / "third_game"
RULESETS_DIR = THIRD / "rulesets"
SCENARIOS_DIR = THIRD / "scenarios"
SOURCE = (RULESETS_DIR / "sources" / "lantern-tiles.txt").read_text(encoding="utf-8").splitlines()
LADDER = ["reminder", "strike", "round_loss", "ejection"]


@pytest.fixture(scope="module")
def third():
    return load_content(RULESETS_DIR, [SCENARIOS_DIR], ROOT)


@pytest.fixture(scope="module")
def lt(third):
    return third.rulesets["lantern-tiles"]


# --- loading and validation -----------------------------------------------------------------------

def test_it_loads_without_a_problem(third, lt):
    assert third.problems == []
    assert list(third.rulesets) == ["lantern-tiles"]
    assert [p.id for p in lt.ladder] == LADDER
    assert len(third.scenario_cards) == 20 and len(third.knowledge_cards) == 1 and len(third.judgement_calls) == 5
    assert third.summary().endswith(", 0 errors")
    # its cards live in the folder named after the ruleset id, as the loader expects
    assert {Path(f).parent.name for f in third.card_files.values()} == {"lantern-tiles"}
    assert lt.source_lines == SOURCE


def test_the_ruleset_checks_find_nothing(lt):
    assert check_ruleset(lt, SOURCE) == []


def test_a_misplaced_card_is_still_located(third, lt, tmp_path):
    """Validation of its cards is the shipped games' validation: a wrong expectation is located."""
    folder = tmp_path / "lantern-tiles"
    folder.mkdir()
    text = (SCENARIOS_DIR / "lantern-tiles" / "play.yaml").read_text(encoding="utf-8")
    (folder / "play.yaml").write_text(text.replace("expect: {penalty: reminder, fixes: [restore_board]}",
                                                   "expect: {penalty: strike, fixes: [restore_board]}"), encoding="utf-8")
    broken = load_content(RULESETS_DIR, [tmp_path], tmp_path)
    assert len(broken.problems) == 1
    problem = broken.problems[0]
    assert problem.field.endswith("expect.penalty") and "engine gives reminder" in problem.message


def test_every_branch_is_covered_by_two_cards(third, lt):
    rows = coverage(third)
    assert [row.branch for row in rows] == branches(lt)
    assert {row.branch for row in rows} == {
        "lantern-tiles/misplaced_tiles/deliberate", "lantern-tiles/misplaced_tiles/many", "lantern-tiles/misplaced_tiles/few",
        "lantern-tiles/cheating/not_deliberate", "lantern-tiles/cheating/standard", "lantern-tiles/wrong_set/standard",
        "lantern-tiles/table_talk/standard", "lantern-tiles/agreed_result/both_players",
        "lantern-tiles/agreed_result/standard", "lantern-tiles/peeking/deliberate", "lantern-tiles/peeking/standard",
        "lantern-tiles/escalation/cannot_restore", "lantern-tiles/escalation/after_reminders",
        "lantern-tiles/upgrade/swayed_outcome", "lantern-tiles/scope/round_loss/next_game",
    }
    assert all(row.ok for row in rows), [r for r in rows if not r.ok]


def test_a_snapshot_gives_back_the_same_content(third, tmp_path):
    again = load_content_snapshotted(RULESETS_DIR, [SCENARIOS_DIR], ROOT, cache_dir=tmp_path)
    cached = load_content_snapshotted(RULESETS_DIR, [SCENARIOS_DIR], ROOT, cache_dir=tmp_path)
    assert list(tmp_path.glob("content-*.json"))
    assert again.fingerprint() == cached.fingerprint() == third.fingerprint()
    assert judge(cached.rulesets["lantern-tiles"], "table_talk", {}).citations[0].lines == (32, 33, 34)


def test_no_code_knows_the_third_game():
    for path in (ROOT / "quiz").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "lantern" not in text.lower(), path


# --- the engine, line by line --------------------------------------------------------------------

# (line, text on that line, infraction, facts, penalty, fixes, optional fixes, accepted, players, applies_to)
LINES = [
    (19, "罰則：注意喚起", "misplaced_tiles", {"tiles_misplaced": 1}, "reminder", {"restore_board"}, set(),
     ("reminder",), "offender", "current_game"),
    (20, "盤面を元に戻す。", "misplaced_tiles", {"tiles_misplaced": 2}, "reminder", {"restore_board"}, set(),
     ("reminder",), "offender", "current_game"),
    (21, "3枚以上の牌を間違った場所に置いた", "misplaced_tiles", {"tiles_misplaced": 3}, "strike", {"restore_board"},
     {"extra_time"}, ("strike",), "offender", "current_game"),
    (22, "罰則：ストライク", "misplaced_tiles", {"tiles_misplaced": 9}, "strike", {"restore_board"},
     {"extra_time"}, ("strike",), "offender", "current_game"),
    # line 7: a strike lets the judge give the opponent extra time (an optional fix of the rung)
    (7, "追加の持ち時間を与えることができる", "table_talk", {}, "strike", set(), {"move_spectators", "extra_time"},
     ("strike",), "offender", "current_game"),
    # line 34: the judge may move the spectators (an optional fix of the rule)
    (34, "観戦者を対局席から離すことができる", "table_talk", {}, "strike", set(), {"move_spectators", "extra_time"},
     ("strike",), "offender", "current_game"),
    # line 35: up to a round loss, not an ejection
    (35, "ラウンドの敗北までの罰則を与えることができる", "table_talk", {"swayed_outcome": True}, "strike", set(),
     {"move_spectators", "extra_time"}, ("strike", "round_loss"), "offender", "current_game"),
    # line 15: cannot be restored -> a strike; nothing to put back
    (15, "盤面を元に戻せない場合は、注意喚起に代えてストライクを与える", "misplaced_tiles",
     {"tiles_misplaced": 1, "board_restorable": False}, "strike", set(), {"extra_time"}, ("strike",), "offender",
     "current_game"),
    (15, "盤面を元に戻せない場合は、注意喚起に代えてストライクを与える", "peeking", {"board_restorable": False},
     "strike", set(), {"extra_time"}, ("strike",), "offender", "current_game"),
    # line 16: after two reminders -> a strike; the original fix stays
    (16, "注意喚起を2回受けた後", "misplaced_tiles", {"tiles_misplaced": 1, "prior_reminders": 2}, "strike",
     {"restore_board"}, {"extra_time"}, ("strike",), "offender", "current_game"),
    (16, "注意喚起を2回受けた後", "peeking", {"prior_reminders": 5}, "strike", {"reshuffle_pool"}, {"extra_time"},
     ("strike",), "offender", "current_game"),
    (43, "見た牌を山に戻して混ぜる", "peeking", {"prior_reminders": 1}, "reminder", {"reshuffle_pool"}, set(),
     ("reminder",), "offender", "current_game"),
    # lines 9-10: a round loss applies to the round in progress, or the next one between rounds
    (9, "進行中のラウンドに敗北する", "wrong_set", {}, "round_loss", {"replace_set"}, set(), ("round_loss",),
     "offender", "current_game"),
    (10, "ラウンドとラウンドの間に違反した場合は、次のラウンドに適用する", "wrong_set", {"between_rounds": True},
     "round_loss", {"replace_set"}, set(), ("round_loss",), "offender", "next_game"),
    (26, "罰則：退場", "misplaced_tiles", {"tiles_misplaced": 1, "deliberate": True}, "ejection", set(), set(),
     ("ejection",), "offender", "event"),
    (26, "罰則：退場", "cheating", {}, "ejection", set(), set(), ("ejection",), "offender", "event"),
    (38, "罰則：退場", "agreed_result", {}, "ejection", set(), set(), ("ejection",), "offender", "event"),
    (39, "両プレイヤーを退場とする", "agreed_result", {"both_players": True}, "ejection", set(), set(), ("ejection",),
     "both", "event"),
]


@pytest.mark.parametrize("case", LINES, ids=[f"L{c[0]}-{c[2]}-{i}" for i, c in enumerate(LINES)])
def test_line(lt, case):
    line, text, infraction, facts, penalty, fixes, optional, accepted, players, applies_to = case
    assert text in SOURCE[line - 1], f"line {line} does not say {text!r}"
    verdict = judge(lt, infraction, facts)
    assert verdict.penalty == penalty and set(verdict.fixes) == fixes and set(verdict.optional_fixes) == optional
    assert verdict.accepted == accepted and verdict.players == players and verdict.applies_to == applies_to
    assert line in {n for c in verdict.citations for n in c.lines}


@pytest.mark.parametrize(
    ("line", "infraction", "facts"),
    [(25, "cheating", {"deliberate": False}), (41, "peeking", {"deliberate": True})],
)
def test_undecided_cases_are_refused_naming_the_line(lt, line, infraction, facts):
    with pytest.raises(UndecidedCaseError) as refused:
        judge(lt, infraction, facts)
    assert refused.value.lines == (line,) and f"line {line}" in str(refused.value)
    assert refused.value.ruleset == "lantern-tiles"


def test_facts_are_its_own(lt):
    with pytest.raises(FactError, match="unknown fact 'minutes_late'"):
        judge(lt, "peeking", {"minutes_late": 3})
    with pytest.raises(FactError, match="tiles_misplaced is required"):
        judge(lt, "misplaced_tiles", {})


# --- grading --------------------------------------------------------------------------------------------

def test_grading(lt):
    swayed = judge(lt, "table_talk", {"swayed_outcome": True})
    grade = grade_scenario(lt, swayed, ScenarioAnswer("table_talk", "round_loss", ("move_spectators", "extra_time")))
    assert grade.penalty == "accepted" and grade.correct and grade.penalty_steps == 1
    assert grade_scenario(lt, swayed, ScenarioAnswer("table_talk", "ejection", ())).penalty == "wrong"
    lost = judge(lt, "misplaced_tiles", {"tiles_misplaced": 1, "board_restorable": False})
    stale = grade_scenario(lt, lost, ScenarioAnswer("misplaced_tiles", "strike", ("restore_board",)))
    assert stale.fixes == "wrong" and stale.extra_fixes == ("restore_board",)
    both = judge(lt, "agreed_result", {"both_players": True})
    assert grade_scenario(lt, both, ScenarioAnswer("agreed_result", "ejection", (), "both")).correct
    assert not grade_scenario(lt, both, ScenarioAnswer("agreed_result", "ejection", (), "offender")).correct


def test_the_practice_flow(third, lt):
    cards = third.cards
    assert set(card_pool(third, ["lantern-tiles"])) == set(cards)
    agreed = cards["lt-agreed-both"]
    assert isinstance(agreed, ScenarioCard) and asks_players(third, agreed)
    assert not asks_players(third, cards["lt-table-talk"])
    assert card_category(third, agreed) == "integrity"
    right = answer_card(third, GivenAnswer(agreed, ScenarioAnswer("agreed_result", "ejection", (), "both"), 1, 3.0))
    assert right.grade.correct and right.record.players_result == "correct"
    assert right.record.standard_players == "both" and right.record.content_fingerprint == third.fingerprint()
    wrong = answer_card(third, GivenAnswer(agreed, ScenarioAnswer("agreed_result", "round_loss", (), "offender"), 1,
                                           3.0))
    assert not wrong.grade.correct and wrong.record.penalty_result == "wrong"
    knowledge = cards["lt-k-strike-recorded"]
    assert isinstance(knowledge, KnowledgeCard)
    assert answer_card(third, GivenAnswer(knowledge, "a", 1, 1.0)).grade.correct
    call = cards["lt-jc-peek-on-purpose"]
    assert isinstance(call, JudgementCallCard)
    assert answer_card(third, GivenAnswer(call, "peeking", 1, 1.0)).grade.correct
    assert not answer_card(third, GivenAnswer(call, NO_LISTED_INFRACTION, 1, 1.0)).grade.correct
    assert answer_card(third, GivenAnswer(cards["lt-jc-no-line"], NO_LISTED_INFRACTION, 1, 1.0)).grade.correct


# --- outcome queries and explanations -------------------------------------------------------------------

def test_outcomes(lt):
    assert possible_penalties(lt, "misplaced_tiles") == {"reminder", "strike", "ejection"}
    assert possible_penalties(lt, "table_talk") == {"strike", "round_loss"}
    assert possible_penalties(lt, "peeking") == {"reminder", "strike"}
    assert can_name_both_players(lt, "agreed_result") and not can_name_both_players(lt, "cheating")
    # the wording is the ruleset's own (its facts' phrase, negation and unit): no code for a new game
    assert describe_changes(lt, "misplaced_tiles", {"tiles_misplaced": 3}, "en") == ["3 or more tiles were misplaced"]
    assert describe_changes(lt, "misplaced_tiles", {"tiles_misplaced": 0}, "ja") == ["置き間違えた牌が3枚未満だった"]
    assert describe_rule(lt, lt.infraction("misplaced_tiles"), 1, "en") == "Not done deliberately and 3 or more tiles were misplaced"
    # a fact declared without wording is named with its value
    assert describe_rule(lt, lt.infraction("agreed_result"), 0, "ja") == "両プレイヤーが取り決めた：はい"


def test_explanations(lt):
    ejection = explain_penalty(lt, "misplaced_tiles", "ejection", {"tiles_misplaced": 1}, "en")
    assert ejection.changes == ["Done deliberately"] and ejection.judged_as == "cheating" and ejection.standard
    accepted = explain_penalty(lt, "table_talk", "round_loss", {}, "en")
    assert accepted.changes == ["Swayed the outcome: yes"] and not accepted.standard
    never = explain_penalty(lt, "misplaced_tiles", "round_loss", {"tiles_misplaced": 1}, "en")
    assert not never.possible and never.other_infractions == ["Unregistered tile set"]


def test_every_explanation_is_what_the_engine_gives(third, lt):
    """The issue's property test, on the third game's cards."""
    checked = 0
    for card in third.scenario_cards:
        for facts in possible_facts(card):
            own = judge(lt, card.infraction, facts)
            for penalty in LADDER:
                route = route_to_penalty(lt, card.infraction, penalty, facts)
                if route is None:
                    assert not explain_penalty(lt, card.infraction, penalty, facts, "en").possible
                    assert penalty not in possible_penalties(lt, card.infraction)
                    continue
                judged = judge(lt, card.infraction, {**facts, **route.changes})
                assert penalty in judged.accepted and (judged.penalty == penalty) == route.standard
                assert (route.changes == {}) == (penalty in own.accepted)
                checked += 1
    assert checked > 40
