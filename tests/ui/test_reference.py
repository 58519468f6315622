"""The reference page: the ladders, the searchable infractions, the comparison."""

from __future__ import annotations


def test_reference_lists_both_ladders_and_filters(open_app):
    at = open_app(page="quiz/ui/pages/reference.py")
    assert at.title[0].value == "Reference"
    assert [t.label for t in at.tabs][-1] == "Compare the games"
    ladders = [t.value for t in at.table if "Officially recorded" in t.value.columns]
    assert len(ladders) == 2
    assert list(ladders[1]["Original (Japanese)"])[:2] == ["注意", "警告"]
    assert list(ladders[1].index)[:2] == ["Caution", "Warning"]
    ygo_tab = next(t for t in at.tabs if "Yu-Gi-Oh" in t.label)
    search = ygo_tab.text_input[0]
    before = next(df.value for df in ygo_tab.dataframe if "When" in df.value.columns)
    search.set_value("tardiness").run()
    ygo_tab = next(t for t in at.tabs if "Yu-Gi-Oh" in t.label)
    after = next(df.value for df in ygo_tab.dataframe if "When" in df.value.columns)
    assert len(after) == 3 < len(before)
    assert set(after["Infraction"]) == {"Tardiness"}


def test_reference_search_in_japanese(open_app):
    at = open_app(lang="ja", page="quiz/ui/pages/reference.py")
    ygo_tab = next(t for t in at.tabs if "遊戯王" in t.label)
    ygo_tab.text_input[0].set_value("遅刻").run()
    ygo_tab = next(t for t in at.tabs if "遊戯王" in t.label)
    table = next(df.value for df in ygo_tab.dataframe if "条件" in df.value.columns)
    assert len(table) == 3 and "英訳" not in table.columns


def test_comparison_has_both_games(open_app):
    at = open_app(page="quiz/ui/pages/reference.py")
    compare = at.tabs[-1].table[0].value
    assert compare.index.name == "Theme" and len(compare.columns) == 2
    row = compare.loc["Drawing extra cards"]
    assert "Warning" in row.iloc[0] and "Warning" in row.iloc[1]
