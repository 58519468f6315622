"""Run by tests/test_new_card_kind.py in a subprocess, on the copy of the package that has the
true-or-false kind: a card of it from its file through the content checks, the answer form,
grading, the stored record, re-grading and the feedback on a page. Fails by an assertion.

usage: python tests/new_kind/exercise.py REPO WORK   (WORK holds the patched ``quiz``, first on PYTHONPATH)
"""

from __future__ import annotations

import sys
from pathlib import Path

from quiz.training.given_answer import GivenAnswer

CARD_FILE = """cards:
  - id: lt-tf-strikes
    kind: true_false
    ruleset: lantern-tiles
    title: {ja: ストライクの記録, en: Are strikes recorded?}
    statement: {ja: ストライクは公式に記録される。, en: A strike is officially recorded.}
    "true": true
    explanation: {ja: 規定のとおりです。, en: "The rules say strikes are officially recorded."}
    source: {ja: "- ストライクは公式に記録される。", en: "- Strikes are officially recorded."}
"""
CARD_ID = "lt-tf-strikes"


def load(repo: str, work: str):  # -> Content (the patched copy's class)
    from quiz.content.loader import load_content

    game = Path(repo) / "tests/fixtures/third_game"
    return load_content(game / "rulesets", [game / "scenarios", Path(work) / "cards"], base=Path(work))


def page(repo: str, work: str, database: str) -> None:
    """A page that draws the card's form, and once answered its feedback and the answer in words."""
    import streamlit as st

    from quiz.db.store import Store
    from quiz.training.given_answer import GivenAnswer
    from quiz.training.kinds import answer_card
    from quiz.ui import card_views, form_answers
    from quiz.ui.shell import Shell
    from tests.new_kind.exercise import CARD_ID, load

    content = load(repo, work)
    store = Store(database)
    trainee = store.trainee("Kind Tester")
    shell = Shell("en", trainee, ("lantern-tiles",), (), content, store)
    card = content.cards[CARD_ID]
    given = form_answers.take_given("tf")
    if given is None:
        card_views.answer_form(shell, card, "tf")
    else:
        outcome = answer_card(content, GivenAnswer(card, given.chosen, trainee.id, 3.0))
        card_views.feedback(shell, card, outcome)
        st.caption("answered: " + card_views.answer_summary(shell, card, outcome.record))


def main(repo: str, work: str) -> None:
    import quiz

    assert Path(quiz.__file__).resolve().is_relative_to(Path(work).resolve()), quiz.__file__
    from quiz.content.card_kinds import preview_answer
    from quiz.content.categories import category_keys
    from quiz.db.regrade import plan_regrade
    from quiz.db.store import Store
    from quiz.db.submissions import submit_answer
    from quiz.report.card_words import choice_words
    from quiz.training import kinds

    folder = Path(work) / "cards/lantern-tiles"
    folder.mkdir(parents=True)
    (folder / "true_false.yaml").write_text(CARD_FILE, encoding="utf-8")
    content = load(repo, work)
    assert content.problems == [], content.problems
    card = content.cards[CARD_ID]
    assert card.kind == "true_false"
    assert category_keys(content)[CARD_ID] == "lantern-tiles/knowledge"
    assert preview_answer(card, content.rulesets["lantern-tiles"], None, "en", "", "", "") == ("", "True")

    # read the form, grade, build the record
    assert kinds.answer_from_form(content, card, {"choice": "maybe"}) is None
    given = kinds.answer_from_form(content, card, {"choice": "false"})
    assert given == "false"
    assert kinds.shown_texts(card)[1].get("en") == "A strike is officially recorded."
    wrong = kinds.answer_card(content, GivenAnswer(card, given, 1, 2.0)).record
    assert (wrong.card_kind, wrong.correct, wrong.chosen_choice, wrong.correct_choice) == (
        "true_false", False, "false", "true")
    assert kinds.answer_card(content, GivenAnswer(card, kinds.blank_answer(card), 1, 2.0)).record.blank

    # stored with its review schedule, read back and re-graded unchanged
    database = f"sqlite:///{Path(work) / 'quiz.db'}"
    store = Store(database)
    trainee = store.trainee("Kind Tester")
    submission = submit_answer(store, content, GivenAnswer(card, "true", trainee.id, 3.0))
    assert submission.outcome.record.correct
    report = plan_regrade(store, content)
    assert (report.changed, report.skipped_total) == (0, 0), report
    assert choice_words(content, CARD_ID, "true", "en") == "true"
    store.dispose()

    # the form and the feedback on a page
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(page, args=(repo, work, database), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    at.radio(key="tf-choice").set_value("true")
    at.button[0].click()
    at.run()
    assert not at.exception, at.exception
    assert [s.value for s in at.success] == ["True"], at
    assert any("officially recorded" in m.value for m in at.markdown)
    assert "answered: true" in [c.value for c in at.caption]


if __name__ == "__main__":
    sys.path.append(sys.argv[1])  # tests.new_kind for the page's imports, after the patched quiz
    main(sys.argv[1], sys.argv[2])
    print("the true-or-false kind ran end to end")
