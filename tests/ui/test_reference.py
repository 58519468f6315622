"""The reference page: the ladders, every infraction with its rules in words, one search across
every game, and the games compared with when each penalty applies."""

from __future__ import annotations

import re

FORMULA = re.compile(r"[≥≤<>=≠]|\b[a-z]+_[a-z_]+\b")


def expanders(container) -> list[str]:
    """The expanders' labels as shown (content in a label is Markdown-escaped)."""
    return [e.label.replace("\\", "") for e in container.expander]


def results(at) -> list[str]:
    """The search's results: expanders named after their game (a game's own list names none)."""
    games = ("Pokémon TCG · ", "Yu-Gi-Oh! OCG · ", "ポケモンカード · ", "遊戯王OCG · ")
    return [label for label in expanders(at.main) if label.startswith(games)]


def texts(container) -> str:
    return "\n".join(m.value for m in container.markdown) + "\n" + "\n".join(c.value for c in container.caption)


def test_reference_lists_both_ladders_and_each_infraction_once(open_app):
    at = open_app(page="quiz/ui/pages/reference.py")
    assert at.title[0].value == "Reference"
    assert [t.label for t in at.tabs][-1] == "Compare the games"
    ladders = [t.value for t in at.table if "Officially recorded" in t.value.columns]
    assert len(ladders) == 2
    assert list(ladders[1]["Original (Japanese)"])[:2] == ["注意", "警告"]
    assert list(ladders[1].index)[:2] == ["Caution", "Warning"]
    ygo_tab = next(t for t in at.tabs if "Yu-Gi-Oh" in t.label)
    labels = [label for label in expanders(ygo_tab) if label != "Principles"]
    assert len(labels) == len(set(labels)) == 18  # one per infraction, not one per rule
    assert "Tardiness · Match Loss / Duel Loss / Warning" in labels
    assert "18 infractions" in texts(ygo_tab)
    assert not at.dataframe  # no table of repeated columns, cut quotes or sideways scrolling


def test_each_rule_says_when_it_applies_and_quotes_its_line_in_full(open_app, ygo):
    at = open_app(page="quiz/ui/pages/reference.py")
    ygo_tab = next(t for t in at.tabs if "Yu-Gi-Oh" in t.label)
    tardiness = next(e for e in ygo_tab.expander if e.label.startswith("Tardiness"))
    text = texts(tardiness)
    rules = [line for line in text.split("\n") if line.startswith("**")]
    assert len(rules) == 3
    assert "**Match Loss** — The player was 10 or more minutes late after the call" in text
    assert "**Duel Loss** — The player was 5 to 9 minutes late after the call" in text
    assert "**Warning** — The player was fewer than 5 minutes late after the call" in text
    for rule in ygo.infraction("tardiness").rules:  # every line of the document, whole
        for line in rule.citation.ja.split("\n"):
            assert line[2:] in text.replace("\\", "")
    assert not any(FORMULA.search(rule) for rule in rules)


def test_one_search_finds_infractions_of_every_game_and_names_the_game(open_app):
    at = open_app(page="quiz/ui/pages/reference.py")
    at.text_input(key="reference-search").set_value("draw").run()
    found = results(at)
    assert any(label.startswith("Pokémon TCG · ") and "Drew extra cards" in label for label in found)
    assert any(label.startswith("Yu-Gi-Oh! OCG · ") and "Drawing extra cards" in label for label in found)
    assert f"{len(found)} infractions found" in [c.value for c in at.caption]
    # a word is matched from its start: "late" is no part of "manipulated"
    at.text_input(key="reference-search").set_value("late").run()
    found = results(at)
    assert found == ["Yu-Gi-Oh! OCG · Tardiness · Match Loss / Duel Loss / Warning"]
    assert "1 infraction found" in [c.value for c in at.caption]
    at.text_input(key="reference-search").set_value("no such words").run()
    assert at.info[0].value == "No infraction mentions “no such words”."


def test_search_in_japanese_with_full_width_digits(open_app):
    at = open_app(lang="ja", page="quiz/ui/pages/reference.py")
    at.text_input(key="reference-search").set_value("遅刻").run()
    found = results(at)
    assert found == ["遊戯王OCG · 遅刻 · マッチの敗北 / デュエルの敗北 / 警告"]
    assert "1件の違反が見つかりました" in [c.value for c in at.caption]
    at.text_input(key="reference-search").set_value("10分").run()  # the document writes "１０分"
    assert any("遅刻" in label for label in results(at))
    ladder = next(t.value for t in at.table if "公式記録" in t.value.columns)
    assert "原文" not in ladder.columns  # in Japanese the name is the original


def test_comparison_says_when_each_penalty_applies(open_app):
    at = open_app(page="quiz/ui/pages/reference.py")
    compare = at.tabs[-1]
    text = texts(compare)
    assert "#### Tardiness" in text
    assert "**Match Loss** — if the player was 10 or more minutes late after the call" in text
    assert "**Warning** — if the player was fewer than 5 minutes late after the call" in text
    assert "Not covered by this document." in text  # Pokémon has no tardiness line
    assert "**Game Loss** — in every case" in text  # deck list mismatch
    rules = [line.strip() for line in text.split("\n") if line.strip().startswith("- **")]
    assert len(rules) > 40 and not any(FORMULA.search(rule) for rule in rules)


def test_comparison_in_japanese(open_app):
    at = open_app(lang="ja", page="quiz/ui/pages/reference.py")
    text = texts(at.tabs[-1])
    assert "**マッチの敗北** — 集合時間から10分以上遅れていた場合" in text
    assert "**デュエルの敗北** — 集合時間から5〜9分遅れていた場合" in text


def test_search_finds_what_people_type_and_names_where_it_is_written(open_app):
    """The search's own example ドロー, 引きすぎ and two words サイド 取り忘れ each find
    the lines; each result says where in the document (section and item, the line as a detail)."""
    at = open_app(lang="ja", page="quiz/ui/pages/reference.py")
    at.text_input(key="reference-search").set_value("ドロー").run()
    found = results(at)
    assert [label.split(" · ")[2] for label in found[:2]] == ["余分にカードを引いた", "過剰にカードを引いた"]
    at.text_input(key="reference-search").set_value("引きすぎ").run()
    assert len(results(at)) == 2 and "2件の違反が見つかりました" in [c.value for c in at.caption]
    at.text_input(key="reference-search").set_value("サイド 取り忘れ").run()
    assert [label.split(" · ")[2] for label in results(at)] == ["相手のサイドの取り忘れを見逃した", "サイドを取り忘れた"]
    captions = [c.value.replace("\\", "") for c in at.main.caption]
    assert "該当する記載：ポケモンカードゲーム フロアルール（ペナルティ） › ⑷ペナルティについて（重要） › ①「注意」 › 違反例（アプリ内の写しの21行目）" in captions
