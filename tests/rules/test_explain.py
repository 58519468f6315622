"""Explanations in words, all derived from the engine: rule conditions from the parsed tree,
and when a chosen penalty would have been right (the issue's examples, from the documents)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quiz.model.words import t
from quiz.rules.engine import judge
from quiz.rules.explain import applies_to_words, describe_facts, describe_rule, explain_penalty

SOURCES = Path(__file__).resolve().parents[2] / "rulesets" / "sources"
YGO_SEED = (SOURCES / "000_3dbd1793d2ab97b4.txt").read_text(encoding="utf-8").splitlines()
PKM_SEED = (SOURCES / "001_f571d43f7b972e1e.txt").read_text(encoding="utf-8").splitlines()
ALWAYS = {t("rule.always", "en"), t("rule.always", "ja")}


# --- rule conditions, described from the tree ---------------------------------------------------

def test_tardiness_rules_in_words(ygo):
    tardiness = ygo.infraction("tardiness")
    assert "１０分経過しても" in YGO_SEED[67] and "５分経過しても" in YGO_SEED[65]
    assert describe_rule(ygo, tardiness, 0, "en") == "The player was 10 or more minutes late after the call"
    # rules are tried in order: the second applies from 5 minutes up to the first one's 10
    assert describe_rule(ygo, tardiness, 1, "en") == "The player was 5 to 9 minutes late after the call"
    assert describe_rule(ygo, tardiness, 2, "en") == "The player was fewer than 5 minutes late after the call"
    assert describe_rule(ygo, tardiness, 0, "ja") == "集合時間から10分以上遅れていた"
    assert describe_rule(ygo, tardiness, 1, "ja") == "集合時間から5〜9分遅れていた"
    assert describe_rule(ygo, tardiness, 2, "ja") == "集合時間から5分未満遅れていた"


def test_extra_draw_duel_loss_rule_in_words(ygo):
    """Line 55 (not identifiable, or otherwise not restorable) and line 56 (decisive)."""
    text = describe_rule(ygo, ygo.infraction("extra_draw"), 1, "en")
    assert text == ("Not done on purpose and any of (the extra card cannot be identified; "
                    "it can no longer be put back; it decisively affects the game)")
    assert describe_rule(ygo, ygo.infraction("extra_draw"), 1, "ja") == (
        "故意ではなかった、かつ次のいずれか（引いたカードを特定できない／元に戻せない／ゲームの展開に決定的な影響を与える）")
    # the last rule: what none of the rules above covers, said in full
    assert describe_rule(ygo, ygo.infraction("extra_draw"), 2, "en") == (
        "Not done on purpose, the extra card can be identified, it can be put back "
        "and it does not decisively affect the game")


def test_combined_and_single_rules_in_words(ygo, pkm):
    # Pokémon line 48: 意図的に長引かせ、それが勝敗に影響した
    assert describe_rule(pkm, pkm.infraction("slow_play"), 0, "en") == "Done on purpose and it affected the result"
    assert describe_rule(pkm, pkm.infraction("slow_play"), 0, "ja") == "意図的だった、かつ勝敗に影響した"
    assert describe_rule(pkm, pkm.infraction("slow_play"), 1, "en") == (
        "Not done on purpose or it did not affect the result")
    # one unconditional rule applies always
    assert describe_rule(pkm, pkm.infraction("decklist_mismatch"), 0, "en") == "Always (every case of this infraction)"
    assert describe_rule(ygo, ygo.infraction("rules_misplay"), 0, "ja") == "故意だった"


# --- when a chosen penalty would have been right ---------------------------------------------------

def test_intentional_yugioh_extra_draw_is_judged_as_an_intentional_violation(ygo):
    """Line 61-62: on purpose it is a deliberate violation, a Disqualification without Prizes,
    not "given for other infractions" (the engine's ``becomes`` is followed)."""
    found = explain_penalty(ygo, "extra_draw", "disqualification_no_prize", {}, "en")
    assert found.possible and found.standard
    assert found.changes == ["Done on purpose"]
    assert found.judged_as == "intentional_violation"
    assert found.verdict.penalty == "disqualification_no_prize"
    assert found.other_infractions == []
    assert explain_penalty(ygo, "extra_draw", "disqualification_no_prize", {}, "ja").changes == ["故意だった"]


def test_pokemon_caution_after_an_earlier_warning(pkm):
    """Line 29: after a Warning, a caution-level infraction is a prize penalty; a Caution would be
    right only with no earlier Warning, never "always"."""
    assert "「警告」が科せられた後" in PKM_SEED[28]
    facts = {"prior_warnings": 1}
    assert judge(pkm, "card_revealed", facts).penalty == "prize_penalty"
    found = explain_penalty(pkm, "card_revealed", "caution", facts, "en")
    assert found.possible and found.standard and found.judged_as is None
    assert found.changes == ["The player had received no Warning at this event yet"]
    assert not ALWAYS & set(found.changes)
    assert explain_penalty(pkm, "card_revealed", "caution", facts, "ja").changes == ["この大会ではまだ警告を受けていなかった"]


def test_tardiness_of_two_minutes_needs_five_to_nine_for_a_duel_loss(ygo):
    """Lines 66-69: a Duel Loss from 5 minutes, a Match Loss from 10: 5 to 9."""
    found = explain_penalty(ygo, "tardiness", "duel_loss", {"minutes_late": 2}, "en")
    assert found.changes == ["The player was 5 to 9 minutes late after the call"] and found.standard
    assert explain_penalty(ygo, "tardiness", "duel_loss", {"minutes_late": 2}, "ja").changes == [
        "集合時間から5〜9分遅れていた"]
    assert explain_penalty(ygo, "tardiness", "match_loss", {"minutes_late": 2}, "en").changes == [
        "The player was 10 or more minutes late after the call"]


def test_the_right_penalty_needs_no_change(ygo, pkm):
    found = explain_penalty(ygo, "tardiness", "warning", {"minutes_late": 2}, "en")
    assert found.possible and found.changes == [] and found.standard
    assert explain_penalty(pkm, "harm_or_damage", "disqualification", {}, "en").changes == []  # line 42


def test_an_accepted_only_penalty_says_so(ygo):
    """Line 80: a Warning for unintentional slow play is at the judge's discretion."""
    found = explain_penalty(ygo, "slow_play", "warning", {}, "en")
    assert found.possible and not found.standard
    assert found.verdict.penalty == "caution" and "warning" in found.verdict.accepted
    assert len(found.changes) == 1


def test_no_facts_give_it_names_the_infractions_that_do(ygo, pkm):
    found = explain_penalty(pkm, "card_revealed", "suspension", {}, "en")
    assert not found.possible and found.changes == [] and found.verdict is None
    assert found.other_infractions == ["Harm or damage"]
    assert explain_penalty(pkm, "card_revealed", "suspension", {}, "ja").other_infractions == ["危害・備品の破損"]
    # revision 2: intentional slow play (line 82) and principle B never reach a disqualification
    slow = explain_penalty(ygo, "slow_play", "disqualification", {"intentional": True}, "en")
    assert not slow.possible and slow.other_infractions == ["Deciding the result by chance"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_explanation_is_the_engines_verdict(ygo, language):
    """Lines 55-56: one fact away (not identifiable, not restorable, or decisive), with no fix."""
    found = explain_penalty(ygo, "extra_draw", "duel_loss", {}, language)
    assert found.standard and len(found.changes) == 1
    assert found.verdict.trace == ("yugioh-ocg/extra_draw/unrestorable_or_decisive",)
    assert (found.verdict.penalty, found.verdict.fixes) == ("duel_loss", ())


# --- facts in words ------------------------------------------------------------------------------------

def test_facts_in_words(ygo):
    facts = {"minutes_late": 7, "intentional": False}
    assert describe_facts(ygo, facts, "en") == ["The player was 7 minutes late after the call", "Not done on purpose"]
    assert describe_facts(ygo, {"minutes_late": 1}, "en") == ["The player was 1 minute late after the call"]
    assert describe_facts(ygo, {"minutes_late": 0}, "ja") == ["集合時間に遅れていなかった"]
    assert describe_facts(ygo, {"identifiable": True}, "ja") == ["引いたカードを特定できる"]
    assert describe_facts(ygo, {"identifiable": False}, "en") == ["The extra card cannot be identified"]


# --- every condition of both documents in words, never as a formula --------------------------------------

FORMULA = re.compile(r"[≥≤<>=≠∧∨]|\b[a-z]+_[a-z_]+\b|\b(True|False|None)\b")


def every_text(ruleset, language):
    """Every sentence the explanations can say about ``ruleset``: each rule's condition, each
    escalation, upgrade and scope condition, each fact at each value it can be shown with, and
    each change a "would be right if" can ask for."""
    from quiz.rules.engine import compile_ruleset
    from quiz.rules.outcomes import describe_changes, sample_values

    book = compile_ruleset(ruleset)
    for infraction in ruleset.infractions:
        for index in range(len(infraction.rules)):
            yield f"{infraction.id}/rule {index}", describe_rule(ruleset, infraction, index, language)
        for fact, values in sample_values(ruleset, infraction.id).items():
            for value in values:
                yield f"{infraction.id}/{fact}={value}", describe_changes(ruleset, infraction.id, {fact: value}, language)[0]
                yield f"{fact}={value}", describe_facts(ruleset, {fact: value}, language)[0]
    for name, conditions in [("escalation", [e.when for e in book.escalations]),
                             ("upgrade", [u.when for u in book.upgrades]),
                             ("scope", [s.when for scopes in book.scopes.values() for s in scopes])]:
        for n, condition in enumerate(conditions):
            yield f"{name} {n}", condition.describe(book.facts, language)
    for spec in ruleset.facts:
        for value in ((False, True) if spec.type == "bool" else (0, 1, 2, 7)):
            yield f"{spec.id}={value}", describe_facts(ruleset, {spec.id: value}, language)[0]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("ruleset_id", ["yugioh-ocg", "pokemon-card-ja"])
def test_every_condition_reads_as_a_sentence(content, ruleset_id, language):
    ruleset = content.rulesets[ruleset_id]
    ids = {f.id for f in ruleset.facts}
    seen = 0
    for where, text in every_text(ruleset, language):
        seen += 1
        assert text and not FORMULA.search(text), f"{where}: {text!r} reads as a formula"
        assert not any(re.search(rf"\b{fact}\b", text) for fact in ids if "_" in fact), f"{where}: {text!r}"
        if language == "ja":
            assert not re.search(r"[A-Za-z]", text), f"{where}: {text!r} has Latin letters in Japanese"
            assert "はい" not in text and "いいえ" not in text, f"{where}: {text!r} is a form, not a sentence"
        else:
            assert text[0].isupper(), f"{where}: {text!r} does not start a sentence"
            assert not re.search(r": (yes|no)\b", text), f"{where}: {text!r} is a form, not a sentence"
    assert seen > 50


@pytest.mark.parametrize("ruleset_id", ["yugioh-ocg", "pokemon-card-ja"])
def test_every_fact_of_the_documents_declares_its_wording(content, ruleset_id):
    for spec in content.rulesets[ruleset_id].facts:
        assert spec.phrase is not None, spec.id
        if spec.type == "bool":
            assert spec.negation is not None, spec.id
        else:
            assert spec.unit is not None and spec.unit_one and spec.phrase_none is not None, spec.id


def test_a_discretionary_scope_says_may(ygo):
    """YGO line 14 (ジャッジの判断で…できる): the feedback says the judge *may* apply the match loss to
    the next match; a scope the document imposes (line 10, 適用する) is stated plainly."""
    assert "ジャッジの判断で次のマッチに適用することができる" in YGO_SEED[13]
    between = judge(ygo, "tardiness", {"minutes_late": 15, "between_matches": True})
    assert applies_to_words(between, "en") == (
        "the next match, if the judge so decides (the document says the judge may apply it there)")
    assert applies_to_words(between, "ja") == "ジャッジの判断で次のマッチに適用することができる"
    next_duel = judge(ygo, "tardiness", {"minutes_late": 7, "between_games": True})
    assert applies_to_words(next_duel, "en") == "the next game"
    assert applies_to_words(next_duel, "ja") == "次の対戦"


APP_READING = {"en": "this app's reading, not the rules' words", "ja": "規定の文言ではなく、このアプリの読み方です"}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_upgrades_bound_is_said_to_be_this_apps_reading(ygo, language):
    """Lines 28, 80, 94, 97 and 101 let the judge go higher (より上位 / 罰則を追加) and set no bound:
    reaching up to a Match Loss is this app's reading, and every upgrade's words say so plainly."""
    for line in (28, 80, 94, 97, 101):
        assert "より上位の罰則" in YGO_SEED[line - 1] or "罰則を追加" in YGO_SEED[line - 1]
        assert "マッチの敗北" not in YGO_SEED[line - 1]  # no bound in the line itself
    assert ygo.upgrades
    for upgrade in ygo.upgrades:
        assert APP_READING[language] in upgrade.explain.get(language), upgrade.id


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_penalty_only_accepted_by_an_upgrade_says_how_far_the_app_reads_it(ygo, language):
    """Where the feedback shows an upgrade (a wrong penalty that would be accepted if ...), it says
    the bound is this app's reading; a standard route says nothing of it."""
    explained = explain_penalty(ygo, "received_advice", "match_loss", {}, language)
    assert not explained.standard and len(explained.discretion) == 1
    assert APP_READING[language] in explained.discretion[0]
    assert explain_penalty(ygo, "tardiness", "match_loss", {"minutes_late": 3}, language).discretion == []
    accepted = judge(ygo, "slow_play", {"affected_result": True})
    assert any(APP_READING[language] in e.get(language) for e in accepted.explanations)
