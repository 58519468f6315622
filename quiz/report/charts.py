"""Altair charts of a trainee's statistics (built in the core, shown by the pages)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import altair as alt
import pandas as pd

from quiz.report.cell_colours import cell_fill, ink_on


def accuracy_over_time(daily: pd.DataFrame, labels: dict[str, str]) -> alt.LayerChart | alt.FacetChart:
    """Daily accuracy as bars, with the 7-day rolling accuracy as a line. Dates are written
    with the language's own formats (``date_axis``, ``date_tooltip``): Vega would write
    English month and day names whatever the page's language."""
    data = daily.assign(date=pd.to_datetime(daily["date"]))
    base = alt.Chart(data).encode(x=alt.X("date:T", title=labels["date"], axis=alt.Axis(format=labels["date_axis"])))
    bars = base.mark_bar(opacity=0.45).encode(
        y=alt.Y("accuracy:Q", title=labels["accuracy"], axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip("date:T", title=labels["date"], format=labels["date_tooltip"]),
                 alt.Tooltip("answered:Q", title=labels["answered"]),
                 alt.Tooltip("accuracy:Q", title=labels["accuracy"], format=".0%")],
    )
    line = base.mark_line(point=True, color="#d62728").encode(
        y=alt.Y("rolling_7d:Q", title=labels["accuracy"]),
        tooltip=[alt.Tooltip("rolling_7d:Q", title=labels["rolling"], format=".0%")],
    )
    return alt.layer(bars, line).properties(height=260)


def accuracy_bars(
    data: pd.DataFrame, column: str, title: str, labels: dict[str, str]
) -> alt.LayerChart | alt.FacetChart:
    """Horizontal accuracy bars, one per value of ``column`` (already labelled)."""
    data = data.assign(label=[f"{a:.0%} ({n})" for a, n in zip(data["accuracy"], data["answered"])])
    base = alt.Chart(data).encode(
        y=alt.Y(f"{column}:N", title=title, sort=None, axis=alt.Axis(labelLimit=260)),
        x=alt.X("accuracy:Q", title=labels["accuracy"], axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        tooltip=[f"{column}:N", alt.Tooltip("answered:Q", title=labels["answered"]),
                 alt.Tooltip("accuracy:Q", title=labels["accuracy"], format=".0%")],
    )
    bars = base.mark_bar().encode(
        color=alt.Color("accuracy:Q", scale=alt.Scale(scheme="redyellowgreen", domain=[0, 1]), legend=None)
    )
    text = base.mark_text(align="left", dx=4).encode(text="label:N")
    return alt.layer(bars, text).properties(height=alt.Step(26))


# The confusion grid fits a 390-px phone (a 358-px column) whatever the ladder: the cells
# share a fixed width, and the labels are broken into lines (drawn whole, every one).
GRID_WIDTH = 192  # px: all the cells of a row together
CELL_STEPS = (24, 40)  # px: the narrowest and the widest cell
LABEL_COLUMNS = 18  # a label's line at most, in columns: a wide (CJK) character takes two


def confusion_heatmap(
    confusion: pd.DataFrame, order: list[str], labels: dict[str, str], title: str = ""
) -> alt.LayerChart | alt.FacetChart:
    """Chosen penalty against the standard one, one game's ladder ``order`` on both axes (every
    pair drawn, so the diagonal, the right answers, runs corner to corner); ``confusion`` has
    ``standard``, ``chosen`` and ``count`` named as in ``order``. The grid is as wide on every
    ladder (``GRID_WIDTH``) and long names are drawn on two lines or more (``wrap_label``), so
    it fits a phone; the tooltip names a cell's penalties on one line. A cell's blue darkens
    with its count, and its number is black or white, readable on it (``cell_colours``)."""
    counts = {(row.standard, row.chosen): int(row.count) for row in confusion.itertuples(index=False)}
    grid = pd.DataFrame(
        [(standard, chosen, counts.get((standard, chosen), 0)) for standard in order for chosen in order],
        columns=["standard", "chosen", "count"],
    )
    most = max(int(grid["count"].max()), 1)
    grid["fill"] = [cell_fill(count / most) for count in grid["count"]]
    grid["ink"] = [ink_on(fill) for fill in grid["fill"]]  # a number readable on its cell
    low, high = CELL_STEPS
    step = max(low, min(high, GRID_WIDTH // max(len(order), 1)))
    lines = _label_lines(order)
    base = alt.Chart(grid).encode(  # every label drawn, whole (no limit, no thinning out)
        x=alt.X("chosen:N", title=labels["chosen"], sort=order, scale=alt.Scale(domain=order),
                axis=alt.Axis(labelAngle=-40, labelLimit=0, labelOverlap=False, **lines)),
        y=alt.Y("standard:N", title=labels["standard"], sort=order, scale=alt.Scale(domain=order),
                axis=alt.Axis(labelLimit=0, labelOverlap=False, **lines)),
    )
    cells = base.mark_rect(stroke="#bbbbbb", strokeWidth=0.5).encode(
        color=alt.Color("fill:N", scale=None, legend=None),
        tooltip=[alt.Tooltip("standard:N", title=labels["standard"]), alt.Tooltip("chosen:N", title=labels["chosen"]),
                 alt.Tooltip("count:Q", title=labels["count"])],
    )
    text = base.transform_filter(alt.datum.count > 0).mark_text().encode(
        text="count:Q", color=alt.Color("ink:N", scale=None, legend=None))
    return alt.layer(cells, text).properties(title=title, width=alt.Step(step), height=alt.Step(max(low, step - 4)))


def wrap_label(text: str, columns: int = LABEL_COLUMNS) -> list[str]:
    """``text`` in lines of at most ``columns`` (a wide character takes two), broken at spaces;
    a word longer than a line (a name in Japanese has no spaces) is cut between characters."""
    lines: list[str] = []
    for word in text.split():
        for piece in _pieces(word, columns):
            if lines and _columns(lines[-1]) + 1 + _columns(piece) <= columns:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
    return lines or [text]


def _pieces(word: str, columns: int) -> list[str]:
    """A word in pieces of at most ``columns`` (one character per piece at least)."""
    pieces = [""]
    for char in word:
        if pieces[-1] and _columns(pieces[-1] + char) > columns:
            pieces.append("")
        pieces[-1] += char
    return pieces


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _label_lines(names: list[str]) -> dict[str, Any]:
    """The axis option drawing each of ``names`` that is too long for a line on several lines
    (a Vega expression giving the list of lines); none when every name fits on one."""
    wrapped = [(name, wrap_label(name)) for name in names]
    long = [(name, lines) for name, lines in wrapped if len(lines) > 1]
    if not long:
        return {}
    keys = json.dumps([name for name, _ in long])
    values = json.dumps([lines for _, lines in long])  # ASCII with \\u escapes: Vega reads them
    return {"labelExpr": f"indexof({keys}, datum.value) < 0 ? datum.value : {values}[indexof({keys}, datum.value)]"}


def leniency_bars(by_steps: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Penalty errors by signed ladder steps: left too lenient, right too harsh."""
    data = by_steps.assign(side=by_steps["steps"].map(lambda s: labels["lenient"] if s < 0 else labels["harsh"]))
    return (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("steps:O", title=labels["steps"], axis=alt.Axis(labelAngle=0)),
            y=alt.Y("count:Q", title=labels["count"]),
            color=alt.Color("side:N", title="", scale=alt.Scale(range=["#1f77b4", "#d62728"])),
            tooltip=["steps:O", "count:Q"],
        )
        .properties(height=220, width=alt.Step(48))
    )


def readiness_bars(readiness: pd.DataFrame, column: str, labels: dict[str, str]) -> alt.LayerChart | alt.FacetChart:
    """Predicted chance of a right answer today per ``column``, with the cards counted.

    ``readiness`` has ``column``, ``cards`` and ``readiness`` (see ``quiz.training.scheduling.readiness``);
    ``labels`` names ``readiness`` and ``cards``. Drawn like the accuracy bars.
    """
    data = readiness.rename(columns={"readiness": "accuracy", "cards": "answered"})
    return accuracy_bars(data, column, "", {"accuracy": labels["readiness"], "answered": labels["cards"]})


CAUSE_COLOURS = ["#ff7f0e", "#9467bd"]  # misjudged the facts, misapplied the document


def cause_bars(data: pd.DataFrame, column: str, causes: list[str], labels: dict[str, str]) -> alt.Chart:
    """Wrong penalties by cause (``cause``, named, in the order of ``causes``), one horizontal
    bar per value of ``column`` (already named, in the data's order) stacked by cause; with
    ``column`` the cause itself, one bar per cause and no legend."""
    return stacked_count_bars(data, column, "cause", causes, CAUSE_COLOURS, labels["wrong_penalties"])


EVIDENCE_COLOURS = ["#2ca02c", "#ff7f0e", "#d62728"]  # gathered, missed but right (a guess), missed and wrong


def evidence_bars(data: pd.DataFrame, column: str, kinds: list[str], labels: dict[str, str]) -> alt.Chart:
    """The findings of floor calls by their evidence (``evidence``, named, in the order of
    ``kinds``), one horizontal bar per value of ``column`` (already named) stacked by evidence."""
    return stacked_count_bars(data, column, "evidence", kinds, EVIDENCE_COLOURS, labels["findings"])


def stacked_count_bars(data: pd.DataFrame, column: str, stack: str, stacks: list[str], colours: list[str],
                       count_title: str) -> alt.Chart:
    """Counts (``count``) as one horizontal bar per value of ``column`` (in the data's order),
    stacked by ``stack`` in the order and colours of ``stacks``; with ``column`` the stack
    itself, one bar per value and no legend."""
    legend = None if column == stack else alt.Legend(orient="bottom", title=None)
    data = data.assign(order=data[stack].map({value: rank for rank, value in enumerate(stacks)}))
    return (
        alt.Chart(data)
        .mark_bar()
        .encode(
            y=alt.Y(f"{column}:N", title="", sort=None, axis=alt.Axis(labelLimit=260)),
            x=alt.X("count:Q", title=count_title, axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color(f"{stack}:N", sort=stacks, scale=alt.Scale(domain=stacks, range=colours), legend=legend),
            order=alt.Order("order:Q"),
            tooltip=[alt.Tooltip(f"{name}:N", title="") for name in dict.fromkeys([column, stack])]
            + [alt.Tooltip("count:Q", title=count_title)],
        )
        .properties(height=alt.Step(26))
    )
