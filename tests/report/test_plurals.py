"""English strings with a count: "1 rule", "2 rules" (``key.one`` chosen by a count of 1)."""

from __future__ import annotations

import pytest

from quiz.model.words import strings, t


@pytest.mark.parametrize(("key", "count", "expected"), [
    ("reference.rows", 1, "1 rule shown"),
    ("reference.rows", 2, "2 rules shown"),
    ("reference.rows", 0, "0 rules shown"),
    ("exam.unanswered_warning", 1, "1 question unanswered; it counts as wrong when you hand in."),
    ("exam.unanswered_warning", 20, "20 questions unanswered; they count as wrong when you hand in."),
    ("practice.round", 1, "Practising 1 recent mistake."),
    ("practice.round", 3, "Practising 3 recent mistakes."),
])
def test_english_counts_agree_with_their_nouns(key, count, expected):
    name = "count" if "{count}" in strings("en")[key] else "n"
    assert t(key, "en", **{name: count}) == expected


def test_japanese_has_one_form_for_every_count():
    assert t("reference.rows", "ja", n=1) == "1件のルールを表示"
    assert t("reference.rows", "ja", n=5) == "5件のルールを表示"


def test_a_key_without_a_singular_is_used_for_one_too():
    assert t("exam.question_number", "en", n=1) == "Question 1"


def test_every_singular_has_its_general_form():
    for language in ("en", "ja"):
        table = strings(language)
        assert all(key.removesuffix(".one") in table for key in table if key.endswith(".one"))
