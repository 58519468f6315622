"""The penalty confusion grid fits a phone: cells of one width per ladder, long names on lines."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from quiz.report.cell_colours import cell_fill, ink_on
from quiz.report.charts import CELL_STEPS, GRID_WIDTH, LABEL_COLUMNS, confusion_heatmap, wrap_label

LABELS = {"chosen": "Chosen", "standard": "Standard", "count": "Answers"}
YUGIOH = ["Caution", "Warning", "Duel Loss", "Match Loss", "Disqualification", "Disqualification without Prizes"]
YUGIOH_JA = ["注意", "警告", "デュエルの敗北", "マッチの敗北", "失格", "受賞資格を失う失格"]
EXPRESSION = re.compile(r"^indexof\((\[.*?\]), datum\.value\) < 0 \? datum\.value : (\[\[.*\]\])\[indexof\(\1, datum\.value\)\]$")


def _spec(order: list[str]) -> dict:
    confusion = pd.DataFrame({"standard": [order[0]], "chosen": [order[-1]], "count": [2]})
    return confusion_heatmap(confusion, order, LABELS, "Game").to_dict()


def _axes(spec: dict) -> tuple[dict, dict]:
    encoding = spec["layer"][0]["encoding"]
    return encoding["x"]["axis"], encoding["y"]["axis"]


def _drawn(axis: dict, names: list[str]) -> dict[str, list[str]]:
    """What the axis writes for each name: the lines of its label expression, else the name."""
    if "labelExpr" not in axis:
        return {name: [name] for name in names}
    match = EXPRESSION.match(axis["labelExpr"])
    assert match is not None, axis["labelExpr"]
    lines = dict(zip(json.loads(match.group(1)), json.loads(match.group(2)), strict=True))
    return {name: lines.get(name, [name]) for name in names}


@pytest.mark.parametrize(("text", "lines"), [
    ("Disqualification without Prizes", ["Disqualification", "without Prizes"]),
    ("Prize Penalty", ["Prize Penalty"]),
    ("受賞資格を失う失格", ["受賞資格を失う失格"]),  # nine wide characters: eighteen columns
    ("受賞資格を失う失格と出場停止", ["受賞資格を失う失格", "と出場停止"]),
    ("x" * 40, ["x" * 18, "x" * 18, "xxxx"]),
    ("", [""]),
])
def test_a_long_label_is_broken_into_lines(text: str, lines: list[str]) -> None:
    assert wrap_label(text) == lines
    assert LABEL_COLUMNS == 18


def test_every_line_fits_and_nothing_is_lost() -> None:
    for name in [*YUGIOH, *YUGIOH_JA, "Game Loss for Unsporting Conduct — Severe", "a b c d e f g h i j k l m n"]:
        lines = wrap_label(name)
        assert "".join("".join(lines).split()) == "".join(name.split())
        assert all(len(line) <= LABEL_COLUMNS for line in lines)


def test_both_axes_draw_every_name_and_long_ones_on_two_lines() -> None:
    x_axis, y_axis = _axes(_spec(YUGIOH))
    assert x_axis["labelExpr"] == y_axis["labelExpr"]
    for axis in (x_axis, y_axis):
        assert axis["labelLimit"] == 0 and axis["labelOverlap"] is False  # every label, whole
        drawn = _drawn(axis, YUGIOH)
        assert drawn["Disqualification without Prizes"] == ["Disqualification", "without Prizes"]
        assert all(lines == [name] for name, lines in drawn.items() if name != "Disqualification without Prizes")


def test_names_that_fit_need_no_expression() -> None:
    x_axis, y_axis = _axes(_spec(YUGIOH_JA))
    assert "labelExpr" not in x_axis and "labelExpr" not in y_axis


def test_a_quote_in_a_name_stays_in_its_string() -> None:
    name = 'Disqualification "with" the Prizes\' loss'
    axis, _ = _axes(_spec(["Caution", name]))
    assert _drawn(axis, [name]) == {name: wrap_label(name)}


@pytest.mark.parametrize(("rungs", "step"), [(3, 40), (6, 32), (8, 24), (12, 24)])
def test_the_grid_is_as_wide_on_every_ladder(rungs: int, step: int) -> None:
    spec = _spec([f"Penalty {n}" for n in range(rungs)])
    assert spec["width"] == {"step": step}
    assert spec["height"]["step"] >= CELL_STEPS[0]
    if rungs * CELL_STEPS[0] <= GRID_WIDTH:
        assert rungs * step <= GRID_WIDTH
    rows = spec["datasets"][spec["data"]["name"]]
    assert len(rows) == rungs * rungs and sum(r["count"] for r in rows) == 2
    assert [t["title"] for t in spec["layer"][0]["encoding"]["tooltip"]] == ["Standard", "Chosen", "Answers"]


def test_each_number_is_drawn_in_the_ink_of_its_cell() -> None:
    """Black numbers on the darkest cells were unreadable: each cell carries its fill and the
    ink of its number, and the chart draws both as they are (no scale)."""
    confusion = pd.DataFrame({"standard": ["Caution", "Warning", "Warning"], "chosen": ["Caution", "Warning", "Caution"],
                              "count": [1, 9, 4]})
    spec = confusion_heatmap(confusion, ["Caution", "Warning"], LABELS, "Game").to_dict()
    cells, text = spec["layer"]
    assert cells["encoding"]["color"] == {"field": "fill", "legend": None, "scale": None, "type": "nominal"}
    assert text["encoding"]["color"] == {"field": "ink", "legend": None, "scale": None, "type": "nominal"}
    rows = {(row["standard"], row["chosen"]): row for row in next(iter(spec["datasets"].values()))}
    assert rows[("Warning", "Warning")]["fill"] == cell_fill(1.0) and rows[("Warning", "Warning")]["ink"] == "#ffffff"
    assert rows[("Caution", "Caution")]["ink"] == ink_on(cell_fill(1 / 9))
    assert rows[("Caution", "Warning")]["fill"] == cell_fill(0.0)
