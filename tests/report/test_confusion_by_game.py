"""The penalty confusion chart: one heatmap per game, its own ladder on both axes, words of the UI."""

from __future__ import annotations

import datetime as dt
import json

from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quiz.report.progress import progress_figures
from quiz.report.progress_charts import progress_charts
from tests.recording import record

RULESETS = ("yugioh-ocg", "pokemon-card-ja")


def _wrong(trainee: int, ruleset: str, standard: str, chosen: str) -> AttemptRecord:
    return AttemptRecord(trainee_id=trainee, card_id=f"{ruleset}-c", ruleset=ruleset, category="tardiness",
                         card_kind="scenario", chosen_penalty=chosen, standard_penalty=standard,
                         infraction_result="correct", penalty_result="wrong", fixes_result="correct",
                         penalty_steps=1, correct=False, seconds=5.0)


def _charts(spec: dict) -> list[dict]:
    return spec["vconcat"]


def _rows(spec: dict, chart: dict) -> list[dict]:
    name = chart["data"]["name"]
    return spec["datasets"][name]


def test_one_heatmap_per_game_with_the_same_ladder_on_both_axes(db_url, content):
    store = Store(db_url)
    trainee = store.trainee("Aiko").id
    record(store, _wrong(trainee, "yugioh-ocg", "warning", "duel_loss"))
    record(store, _wrong(trainee, "pokemon-card-ja", "warning", "prize_penalty"))
    record(store, _wrong(trainee, "pokemon-card-ja", "warning", "prize_penalty"))
    figures = progress_figures(store, trainee, RULESETS, dt.datetime.now(dt.UTC).date())
    spec = progress_charts(figures, content, "en")["confusion"]
    assert spec is not None
    json.dumps(spec)
    charts = _charts(spec)
    assert [c["title"] for c in charts] == [content.rulesets[r].document.short_name.en for r in RULESETS]
    for ruleset_id, chart in zip(RULESETS, charts):
        ladder = [p.name.en for p in content.rulesets[ruleset_id].ladder]
        rows = _rows(spec, chart)
        assert [r["standard"] for r in rows][:: len(ladder)] == ladder  # every rung a row
        assert {r["chosen"] for r in rows} == set(ladder)  # the same list as columns
        assert {(r["standard"], r["chosen"]) for r in rows} >= {(p, p) for p in ladder}  # the diagonal
        encoding = chart["layer"][0]["encoding"]
        assert encoding["x"]["scale"]["domain"] == ladder == encoding["y"]["scale"]["domain"]
        assert encoding["x"]["axis"]["labelLimit"] == 0 and encoding["x"]["axis"]["labelOverlap"] is False
        assert [t["title"] for t in encoding["tooltip"]] == ["Standard", "Chosen", "Answers"]
    yugioh = {(r["standard"], r["chosen"]): r["count"] for r in _rows(spec, charts[0])}
    pokemon = {(r["standard"], r["chosen"]): r["count"] for r in _rows(spec, charts[1])}
    assert yugioh[("Warning", "Duel Loss")] == 1 and sum(yugioh.values()) == 1
    assert pokemon[("Warning", "Prize Penalty")] == 2 and sum(pokemon.values()) == 2
    store.dispose()


def test_the_tooltip_is_in_japanese(db_url, content):
    store = Store(db_url)
    trainee = store.trainee("Yui").id
    record(store, _wrong(trainee, "yugioh-ocg", "warning", "duel_loss"))
    figures = progress_figures(store, trainee, RULESETS, dt.datetime.now(dt.UTC).date())
    spec = progress_charts(figures, content, "ja")["confusion"]
    [chart] = _charts(spec)
    titles = [t["title"] for t in chart["layer"][0]["encoding"]["tooltip"]]
    assert "count" not in titles and titles[-1] != "count"
    store.dispose()
