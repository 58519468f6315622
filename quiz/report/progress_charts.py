"""The progress page's charts as Vega-Lite specs: built with Altair and validated once.

A page that draws the same figures again (every rerun, until the trainee answers) reuses
the specs instead of building and validating every chart anew.
"""

from __future__ import annotations

import altair as alt

from quiz.content.categories import category_labels
from quiz.content.loader import Content
from quiz.model.words import t
from quiz.report import charts
from quiz.report.floor_calls import progress_floor_charts
from quiz.report.progress import ProgressFigures
from quiz.report.progress_findings import Spec, fact_accuracy_chart, split_chart

CHART_LABELS = (
    "date", "date_axis", "date_tooltip", "accuracy", "answered", "rolling", "chosen", "standard", "steps", "count",
    "lenient", "harsh", "misjudged", "misapplied", "wrong_penalties",
)


def chart_labels(language: str) -> dict[str, str]:
    """The words of the charts (``CHART_LABELS``) in ``language``."""
    return {name: t(f"chart.{name}", language) for name in CHART_LABELS}


def progress_charts(figures: ProgressFigures, content: Content, language: str) -> dict[str, Spec | None]:
    """Every chart of the progress page in ``language``; None where there is nothing to draw."""
    labels = chart_labels(language)
    parts = figures.parts.assign(part=figures.parts["part"].map(lambda p: t(f"part.{p}", language)))
    games = figures.games.assign(ruleset=figures.games["ruleset"].map(
        lambda r: content.rulesets[r].document.short_name.get(language) if r in content.rulesets else r
    ))
    names = category_labels(content, language, t("shell.knowledge", language))
    categories = figures.categories.assign(
        category_key=figures.categories["category_key"].map(lambda k: names.get(k, k))
    )
    specs: dict[str, Spec | None] = {
        "over_time": charts.accuracy_over_time(figures.daily, labels).to_dict(),
        "by_part": charts.accuracy_bars(parts, "part", "", labels).to_dict(),
        "by_game": charts.accuracy_bars(games, "ruleset", "", labels).to_dict(),
        "by_category": charts.accuracy_bars(categories, "category_key", "", labels).to_dict(),
        "confusion": None,
        "leniency": None,
        "findings_by_fact": fact_accuracy_chart(figures.finding_facts, content, language, labels),
        "findings_split": split_chart(figures.findings, labels),
        **{f"floor_{name}": spec for name, spec in progress_floor_charts(figures.floor_calls, language).items()},
    }
    if not figures.confusion.empty:
        specs["confusion"] = _confusion(figures, content, language, labels)
    if figures.leniency.errors:
        specs["leniency"] = charts.leniency_bars(figures.leniency.by_steps, labels).to_dict()
    return specs


def _confusion(figures: ProgressFigures, content: Content, language: str, labels: dict[str, str]) -> Spec:
    """One heatmap per game, each on its own ladder (ids of one game never share an axis
    with another's), stacked under the game's name."""
    heatmaps = []
    for ruleset_id, rows in figures.confusion.groupby("ruleset", sort=False):
        ruleset = content.rulesets.get(str(ruleset_id))
        if ruleset is None:
            continue
        names = {p.id: ruleset.name_of("penalty", p.id, language) for p in ruleset.ladder}
        known = rows[rows["standard_penalty"].isin(names) & rows["chosen_penalty"].isin(names)]
        confusion = known.assign(standard=known["standard_penalty"].map(names),
                                 chosen=known["chosen_penalty"].map(names))
        title = ruleset.document.short_name.get(language)
        heatmaps.append(charts.confusion_heatmap(confusion, list(names.values()), labels, title))
    return alt.vconcat(*heatmaps).resolve_scale(color="independent", x="independent", y="independent").to_dict()
