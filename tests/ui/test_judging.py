"""Judging as the documents do, on the practice page: who receives a penalty, optional fixes,
escalations that keep the fixes, what would have made a wrong penalty right (from the
engine), and judgement calls. The cards are written to a content folder of the test's own,
so the shipped cards can change without changing what is tested here."""

from __future__ import annotations

import re

import pytest

from quiz.model.cards import NO_LISTED_INFRACTION
from quiz.training.grading import ScenarioAnswer
from tests.ui import answering

CARDS = """\
cards:
  - id: uitest-ygo-rock-paper-scissors
    kind: scenario
    style: exam
    ruleset: yugioh-ocg
    title: {ja: "ジャンケンで決着", en: "Settled by rock-paper-scissors"}
    situation:
      ja: "第3回戦。二人の選手は対戦をせず、ジャンケンで勝敗を決めて結果を報告しました。"
      en: "Round 3. The two players did not play: they settled the match by rock-paper-scissors and reported the result."
    infraction: result_by_chance
    expect: {penalty: disqualification, fixes: [], players: both}
    source:
      ja: "- 対戦を行わず、ジャンケンなど無作為な方法で勝敗を決定した\\n罰則：失格"
      en: "- Decided the winner by a random method such as rock-paper-scissors without playing\\nPenalty: Disqualification"

  - id: uitest-ygo-late-7
    kind: scenario
    style: exam
    ruleset: yugioh-ocg
    title: {ja: "七分後の着席", en: "Seated seven minutes in"}
    situation:
      ja: "第2回戦。山田選手は集合時間の7分後に席につきました。"
      en: "Round 2. Yamada sat down seven minutes after the assembly time."
    infraction: tardiness
    facts: {minutes_late: 7}
    expect: {penalty: duel_loss, fixes: []}
    source:
      ja: "- 指定の集合時間後５分経過しても、自分の席についていなかった。\\n罰則：デュエルの敗北"
      en: "- Was still not in their seat 5 minutes after the designated assembly time.\\nPenalty: Duel Loss"

  - id: uitest-ygo-extra-draw
    kind: scenario
    style: exam
    ruleset: yugioh-ocg
    title: {ja: "一枚多く引いた", en: "One card too many"}
    situation:
      ja: "第1回戦。佐野選手はドローフェイズにうっかり2枚引きましたが、2枚目がどのカードかは相手にもわかっています。"
      en: "Round 1. In his draw phase Sano drew two cards by mistake; which card was the second is known to both players."
    infraction: extra_draw
    source:
      ja: "- 故意ではなく、過剰にカードを引いた\\n罰則：警告\\n過剰に引いたカードを山札の１番上に戻す。"
      en: "- Drew extra cards, not on purpose\\nPenalty: Warning\\nReturn the extra card drawn to the top of the deck."

  - id: uitest-pkm-forgot-prize-after-warning
    kind: scenario
    style: exam
    ruleset: pokemon-card-ja
    title: {ja: "警告の後のサイド取り忘れ", en: "A forgotten Prize after a Warning"}
    situation:
      ja: "シティリーグ。この大会ですでに警告を1回受けている石田選手が、ポケモンをきぜつさせたのにサイドを取らずに進行しました。取り忘れたサイドは今から取れます。"
      en: "City League. Ishida, who already has a Warning at this event, knocked out a Pokémon and went on without taking a Prize card. The Prize can still be taken now."
    infraction: forgot_prize
    facts: {prior_warnings: 1}
    expect: {penalty: prize_penalty, fixes: [restore_game_state]}
    source:
      ja: "・ポケモンをきぜつさせたのに、サイドを取り忘れて進行してしまった。"
      en: "- Knocked Out a Pokémon but carried on without taking a Prize."

  - id: uitest-pkm-revealed-after-warning
    kind: scenario
    style: exam
    ruleset: pokemon-card-ja
    title: {ja: "警告の後に山札の上を見せた", en: "A card revealed after a Warning"}
    situation:
      ja: "ジムバトル。この大会ですでに警告を1回受けている森選手が、山札の上のカードを誤って表にしてしまいました。"
      en: "Gym Battle. Mori, who already has a Warning at this event, turned the top card of his deck face up by mistake."
    infraction: card_revealed
    facts: {prior_warnings: 1}
    expect: {penalty: prize_penalty, fixes: [restore_game_state]}
    source:
      ja: "このほか、「警告」が科せられた後、再度「注意」または「警告」相当のルール違反が繰り返された場合も、このペナルティが科せられる。"
      en: "It is also given when, after a Warning, a caution- or warning-level infraction is committed again."

  - id: uitest-pkm-mixed-into-deck
    kind: scenario
    style: exam
    ruleset: pokemon-card-ja
    title: {ja: "手札を山札に混ぜた", en: "Hand shuffled into the deck"}
    situation:
      ja: "シティリーグ。佐藤選手は誤って手札のカードを山札と混ぜて切ってしまいました。"
      en: "City League. By mistake, Sato shuffled cards from her hand into her deck."
    infraction: cards_mixed_into_deck
    expect: {penalty: prize_penalty, fixes: []}
    source:
      ja: "・誤って、カードの効果以外で、手札やトラッシュのカードを山札と混ぜて切ってしまった。"
      en: "- By mistake, not by a card effect, shuffled cards from the hand or discard pile into the deck."

  - id: uitest-pkm-jc-mixed-on-purpose
    kind: judgement_call
    ruleset: pokemon-card-ja
    title: {ja: "わざと混ぜた手札", en: "Cards mixed in on purpose"}
    situation:
      ja: "ジムバトル。高橋選手は、相手が見ていない間に手札のカードをわざと山札に混ぜて切ったことを認めました。"
      en: "Gym Battle. Takahashi admitted shuffling cards from his hand into his deck on purpose while his opponent looked away."
    nearest: cards_mixed_into_deck
    facts: {intentional: true}
    principle: examples_only
    explanation:
      ja: "最も近い行は「誤って」混ぜた場合の例です。わざと混ぜた場合の例はなく、ジャッジの判断に委ねられます。"
      en: "The nearest line is the example of mixing cards in by mistake. There is none for doing it on purpose: that is for the judge."
    tags: [judgement-call]
    source:
      ja: "・誤って、カードの効果以外で、手札やトラッシュのカードを山札と混ぜて切ってしまった。"
      en: "- By mistake, not by a card effect, shuffled cards from the hand or discard pile into the deck."
"""

BOTH_RECEIVE = "Both players receive this penalty."
LEFT_TO_JUDGE = "The document does not decide this case: it is left to the head judge."


@pytest.fixture
def cards(imported_cards):
    return imported_cards("judging.yaml", CARDS)


def show(at, card_id: str):
    """Put the card on the practice page and rerun; the card as loaded."""
    state = at.session_state["practice"]
    state.card, state.seed, state.outcome = card_id, 0, None
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["practice"].card == card_id
    return at.session_state["shell"].content.cards[card_id]


def page_text(at) -> str:
    """Every text element of the page, bold and Markdown escapes removed."""
    values = [e.value for kind in ("markdown", "caption", "info", "success", "error", "warning", "subheader")
              for e in getattr(at, kind)]
    return re.sub(r"\\(.)", r"\1", "\n".join(str(v) for v in values).replace("**", ""))


def marks(at) -> dict[str, str]:
    """Part label -> "correct" / "accepted" / "wrong", from the marks of the feedback."""
    found = {}
    for element in at.markdown:
        match = re.match(r":\w+\[:material/\w+:\] \*\*(.+?)\*\* · (\w+)$", element.value)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def test_a_card_of_an_act_of_both_players_asks_who_receives_it(open_app, cards, store):
    at = open_app()
    card = show(at, "uitest-ygo-rock-paper-scissors")
    question = answering.players_question(at)
    assert question is not None and question.options == ["The offender", "Both players"]

    answering.fill(at, card, ScenarioAnswer("result_by_chance", "disqualification", (), None))
    assert [w.value for w in at.warning] == ["Choose the infraction, the penalty and who receives it first."]
    assert store.attempts().empty  # required like the infraction and the penalty

    answering.fill(at, card, ScenarioAnswer("result_by_chance", "disqualification", (), "both"))
    answering.open_details(at)
    assert [s.value for s in at.success] == ["Right on every part."]
    assert marks(at)["Who receives it"] == "correct"
    text = page_text(at)
    assert "- Who receives it: Both players" in text and BOTH_RECEIVE in text
    row = store.attempts().iloc[0]
    assert (row["chosen_players"], row["players_result"], bool(row["correct"])) == ("both", "correct", True)


def test_naming_only_the_offender_of_an_act_of_both_players_is_wrong(open_app, cards, store):
    at = open_app()
    card = show(at, "uitest-ygo-rock-paper-scissors")
    answering.fill(at, card, ScenarioAnswer("result_by_chance", "disqualification", (), "offender"))
    answering.open_details(at)
    assert [e.value for e in at.error] == ["So close! See below."]  # one part wrong
    assert marks(at) == {"Infraction": "correct", "Penalty": "correct", "Who receives it": "wrong", "Fix": "correct"}
    assert BOTH_RECEIVE in page_text(at)
    assert not bool(store.attempts().iloc[0]["correct"])


def test_both_players_in_japanese(open_app, cards):
    at = open_app(lang="ja")
    card = show(at, "uitest-ygo-rock-paper-scissors")
    assert answering.players_question(at).options == ["違反したプレイヤー", "両プレイヤー"]
    answering.fill(at, card, ScenarioAnswer("result_by_chance", "disqualification", (), "both"))
    answering.open_details(at)
    assert [s.value for s in at.success] == ["すべて正解です。"]
    assert "両プレイヤーにこの罰則が科されます。" in page_text(at)


def test_a_card_of_one_offender_does_not_ask(open_app, cards):
    at = open_app()
    show(at, "uitest-ygo-late-7")
    assert answering.players_question(at) is None


def test_an_escalation_keeps_the_fixes_and_the_opponents_prizes_are_optional(open_app, cards, store):
    at = open_app()
    card = show(at, "uitest-pkm-forgot-prize-after-warning")
    answering.fill(at, card, ScenarioAnswer("forgot_prize", "prize_penalty", ("restore_game_state",)))
    answering.open_details(at)
    assert [s.value for s in at.success] == ["Right on every part."]
    assert set(marks(at).values()) == {"correct"}
    text = page_text(at)
    assert "- Required fix: Return the game to the correct state" in text
    assert "- Optional (the judge may add): The opponent takes Prize cards (the judge sets how many)" in text
    # the optional fix may be chosen too
    state = at.session_state["practice"]
    state.outcome, state.n = None, state.n + 1
    at.run()
    answering.fill(at, card, ScenarioAnswer("forgot_prize", "prize_penalty",
                                            ("restore_game_state", "opponent_takes_prizes")))
    assert [s.value for s in at.success] == ["Right on every part."]
    assert list(store.attempts()["correct"].astype(bool)) == [True, True]


def test_a_prize_penalty_needs_no_prizes_taken(open_app, cards):
    at = open_app()
    card = show(at, "uitest-pkm-mixed-into-deck")
    answering.fill(at, card, ScenarioAnswer("cards_mixed_into_deck", "prize_penalty", ()))
    answering.open_details(at)
    assert [s.value for s in at.success] == ["Right on every part."]
    assert "- Required fix: No fix" in page_text(at)


def test_a_caution_after_a_warning_is_explained_by_the_earlier_warnings(open_app, cards):
    at = open_app()
    card = show(at, "uitest-pkm-revealed-after-warning")
    answering.fill(at, card, ScenarioAnswer("card_revealed", "caution", ("restore_game_state",)))
    answering.open_details(at)
    assert marks(at)["Penalty"] == "wrong"
    text = page_text(at)
    assert "A Caution would be right if:\n- The player had received no Warning at this event yet" in text
    assert "always" not in text
    # the escalation's line is quoted once, though the prize penalty's line holds it too
    escalation = "このほか、「警告」が科せられた後、再度「注意」または「警告」相当のルール違反が繰り返された場合も"
    assert text.count(escalation) == 1
    # the same line again, named by its section and item as the document titles them
    assert re.search(r"The card was drawn from .+ › .+ \(line \d+ of the app's copy\), quoted above\.", text)


def test_a_penalty_no_facts_make_right_names_the_infractions_that_carry_it(open_app, cards):
    at = open_app()
    card = show(at, "uitest-ygo-late-7")
    answering.fill(at, card, ScenarioAnswer("tardiness", "disqualification", ()))
    answering.open_details(at)
    text = page_text(at)
    assert "A Disqualification is never right for this infraction; the document gives it for:" in text


def test_a_penalty_right_only_on_purpose_says_what_it_would_then_be_judged_as(open_app, cards):
    at = open_app()
    card = show(at, "uitest-ygo-extra-draw")
    answering.fill(at, card, ScenarioAnswer("extra_draw", "disqualification_no_prize", ()))
    answering.open_details(at)
    text = page_text(at)
    assert "A Disqualification without Prizes would be right if:\n- Done on purpose" in text
    assert "Then it is judged as Deliberate rules violation." in text


def test_a_penalty_only_accepted_at_discretion_says_so(open_app, cards):
    at = open_app()
    card = show(at, "uitest-ygo-extra-draw")
    answering.fill(at, card, ScenarioAnswer("extra_draw", "match_loss", ()))
    answering.open_details(at)
    text = page_text(at)
    assert ("A Match Loss would be accepted (at the judge's discretion) if:\n"
            "- The player had already been penalised for the same infraction 1 or more times at this event") in text


def test_a_judgement_call_is_graded_on_the_nearest_line_and_shows_the_principle(open_app, cards, store):
    at = open_app()
    card = show(at, "uitest-pkm-jc-mixed-on-purpose")
    assert LEFT_TO_JUDGE not in page_text(at)  # the kind of card is not given away before answering
    question = answering.widget(at.selectbox, "nearest")
    assert question.options[-1] == "No line of the document comes near"
    assert "Game play › Shuffled hand or discard into the deck" in question.options

    answering.fill(at, card, "cards_mixed_into_deck")
    answering.open_details(at)
    assert [s.value for s in at.success] == ["Right — that is the nearest line of the document."]
    text = page_text(at)
    assert LEFT_TO_JUDGE in text
    assert "Principle: The examples are only examples; the judge or organiser may give a lighter (or heavier) penalty." in text
    assert "以下①～⑤のペナルティの適用例は、あくまでも一例である。" in text  # the principle's line, quoted
    assert "Why the document does not decide it (" in text
    assert "The floor rules give no penalty for doing it on purpose" in text  # the engine's refusal
    assert card.explanation.en in text
    row = store.attempts().iloc[0]
    assert (row["card_kind"], row["chosen_choice"], bool(row["correct"])) == ("judgement_call", "cards_mixed_into_deck", True)


def test_a_judgement_call_answered_wrong(open_app, cards, store):
    at = open_app(lang="ja")
    card = show(at, "uitest-pkm-jc-mixed-on-purpose")
    answering.fill(at, card, NO_LISTED_INFRACTION)
    assert [e.value for e in at.error] == ["不正解です。文書で最も近いのは「手札・トラッシュを山札に混ぜた」です。"]
    assert "大会審判の判断に委ねられます" in page_text(at)
    assert not bool(store.attempts().iloc[0]["correct"])


def test_a_mock_exam_asks_a_judgement_call_and_explains_it_in_the_results(open_app, cards, store):
    from quiz.db.exams import start_exam
    from quiz.model.attempt import utc_now
    from quiz.training.exams import ExamSpec

    spec = ExamSpec(questions=2, minutes=30, pass_percent=80, rulesets=("pokemon-card-ja", "yugioh-ocg"))
    ids = ("uitest-pkm-jc-mixed-on-purpose", "uitest-ygo-rock-paper-scissors")
    start_exam(store, store.trainee("Aiko").id, "custom", spec, ids, (0, 0), utc_now())
    at = open_app(page="quiz/ui/pages/exam.py")
    at.button(key="exam-resume").click().run()
    content = at.session_state["shell"].content
    assert LEFT_TO_JUDGE not in page_text(at)
    answering.fill(at, content.cards[ids[0]], NO_LISTED_INFRACTION, button="Save answer")
    assert not at.exception, at.exception
    at.button(key="exam-next").click().run()
    assert answering.players_question(at) is not None  # the next question: an act of both players
    answering.fill(at, content.cards[ids[1]], ScenarioAnswer("result_by_chance", "disqualification", (), "offender"),
                   button="Save answer")
    assert not at.success and not at.error  # nothing is marked before handing in
    at.button(key="exam-hand-in").click().run()
    answering.open_details(at)
    assert not at.exception, at.exception
    text = page_text(at)
    assert "Wrong answers (2)" in text
    assert "Not quite. The nearest line of the document is: Shuffled hand or discard into the deck" in text
    assert LEFT_TO_JUDGE in text and "Principle: The examples are only examples" in text
    assert BOTH_RECEIVE in text
    rows = store.attempts().set_index("card_id")
    assert rows.loc[ids[1], "chosen_players"] == "offender" and not bool(rows.loc[ids[1], "correct"])
