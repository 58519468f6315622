"""The placeholder formatter: names only, literal braces doubled, everything else refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quiz.rules.placeholders import PlaceholderError, fill, parse_template, placeholder_names


def test_names_are_found_once_each_in_order():
    assert placeholder_names("{player}は第{round}回戦で{player}と") == ["player", "round"]


def test_filling_replaces_every_use():
    assert fill("Round {round}: {player} vs {other}, {player} to play", {"round": "3", "player": "Sato", "other": "Ito"}) == (
        "Round 3: Sato vs Ito, Sato to play"
    )


def test_doubled_braces_are_literal_and_not_placeholders():
    assert placeholder_names("{{round}} and {round}") == ["round"]
    assert fill("{{round}} and {round}", {"round": "7"}) == "{round} and 7"


def test_text_without_braces_is_one_literal_run():
    assert parse_template("第3回戦。") == ((False, "第3回戦。"),)
    assert parse_template("") == ()


@pytest.mark.parametrize(
    "text",
    ["{x.__class__}", "{x.__class__.__mro__}", "{0}", "{}", "{x[0]}", "{x!r}", "{x:>99}", "{Player}", "{ x }"],
)
def test_anything_but_a_plain_name_is_refused(text):
    with pytest.raises(PlaceholderError, match="not allowed"):
        parse_template(text)
    with pytest.raises(PlaceholderError):
        fill(text, {"x": "value"})


@pytest.mark.parametrize(("text", "needle"), [("a { b", "never closed"), ("a } b", "lone '}'"), ("{a", "never closed")])
def test_unbalanced_braces_are_refused(text, needle):
    with pytest.raises(PlaceholderError, match=needle):
        parse_template(text)


def test_a_value_is_inserted_as_written_and_never_read_as_a_template():
    assert fill("{name}", {"name": "{x.__class__} {{"}) == "{x.__class__} {{"


def test_a_missing_value_is_an_error():
    with pytest.raises(PlaceholderError, match=r"no value for placeholder \{round\}"):
        fill("Round {round}", {})


@given(st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=40))
def test_brace_free_text_fills_to_itself(text):
    assert fill(text, {}) == text
