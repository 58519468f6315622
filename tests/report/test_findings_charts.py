"""Findings charted and tabled: fact names in the reader's language, wrong penalties told
apart, the Team page's figures per trainee and per card; nothing drawn without findings."""

from __future__ import annotations

import datetime as dt
import json

import pandas as pd
import pytest

from quiz.content.loader import Content
from quiz.db.answers import save_answer
from quiz.model.attempt import AttemptRecord, FindingRecord
from quiz.report.progress import progress_figures
from quiz.report.progress_charts import progress_charts
from quiz.report.progress_findings import fact_labels, fact_name
from quiz.report.team import card_statistics, team_overview
from quiz.report.team_findings import team_findings, team_findings_charts, weakest_findings
from quiz.report.team_tables import CARD_TABLE, OVERVIEW_TABLE, card_table, overview_table
from tests.scopes import EVERY_STORE

RULESETS = ("yugioh-ocg", "pokemon-card-ja")
NOW = dt.datetime(2026, 3, 20, 12, 0, tzinfo=dt.UTC)


def answer(trainee: int, card: str, *findings: tuple[str, bool], ruleset: str = "yugioh-ocg",
           follows: bool | None = None) -> AttemptRecord:
    """A scenario answer; ``follows`` given: its penalty is wrong, told apart by it."""
    return AttemptRecord(
        trainee_id=trainee, card_id=card, ruleset=ruleset, category="conduct", card_kind="scenario",
        chosen_penalty="warning", standard_penalty="warning" if follows is None else "duel_loss",
        infraction_result="correct", penalty_result="correct" if follows is None else "wrong",
        correct=follows is None and all(right for _, right in findings), seconds=5.0, answered_at=NOW,
        findings=tuple(FindingRecord(fact, right, True, right) for fact, right in findings),
        penalty_follows_findings=follows,
    )


def data(spec: dict) -> list[dict]:
    return [row for rows in spec.get("datasets", {}).values() for row in rows]


def named(content: Content, ruleset: str, fact: str, language: str) -> str:
    spec = next(f for f in content.rulesets[ruleset].facts if f.id == fact)
    return spec.name.get(language)


def test_progress_charts_name_each_fact_in_the_language_and_tell_wrong_penalties_apart(store, content):
    aiko = store.trainee("Aiko").id
    for record in (answer(aiko, "y1", ("intentional", False), ("decisive", True), follows=True),
                   answer(aiko, "y1", ("intentional", True), ("decisive", True)),
                   answer(aiko, "y2", ("intentional", True), follows=False),
                   answer(aiko, "p1", ("intentional", True), ruleset="pokemon-card-ja", follows=False)):
        save_answer(store, record)
    figures = progress_figures(store, aiko, RULESETS, NOW.date())
    assert (figures.findings.answered, figures.findings.misjudged, figures.findings.misapplied) == (4, 1, 2)
    english = progress_charts(figures, content, "en")
    bars = {row["fact"]: (row["answered"], row["accuracy"]) for row in data(english["findings_by_fact"])}
    ygo, pkm = (content.rulesets[r].document.short_name.en for r in RULESETS)
    assert bars == {  # two games: each fact under its game (the same id is another fact in another game)
        f"{ygo} › {named(content, 'yugioh-ocg', 'intentional', 'en')}": (3, pytest.approx(2 / 3)),
        f"{ygo} › {named(content, 'yugioh-ocg', 'decisive', 'en')}": (2, 1.0),
        f"{pkm} › {named(content, 'pokemon-card-ja', 'intentional', 'en')}": (1, 1.0),
    }
    split = [(row["cause"], row["count"]) for row in data(english["findings_split"])]
    assert split == [("Misjudged the facts", 1), ("Misapplied the document", 2)]
    japanese = progress_charts(figures, content, "ja")
    assert {row["cause"] for row in data(japanese["findings_split"])} == {"事実の見誤り", "規定の当てはめの誤り"}
    assert f"{content.rulesets['yugioh-ocg'].document.short_name.ja} › 故意である" in {
        row["fact"] for row in data(japanese["findings_by_fact"])}
    json.dumps(english)

    only_ygo = progress_charts(progress_figures(store, aiko, ("yugioh-ocg",), NOW.date()), content, "en")
    assert {row["fact"] for row in data(only_ygo["findings_by_fact"])} == {  # one game: no game named
        named(content, "yugioh-ocg", "intentional", "en"), named(content, "yugioh-ocg", "decisive", "en")}


def test_no_findings_answered_draws_no_findings_charts(store, content):
    ben = store.trainee("Ben").id
    save_answer(store, answer(ben, "plain"))  # a card without findings
    figures = progress_figures(store, ben, RULESETS, NOW.date())
    assert figures.findings.answered == 0 and figures.finding_facts.empty
    specs = progress_charts(figures, content, "en")
    assert specs["findings_by_fact"] is None and specs["findings_split"] is None
    save_answer(store, answer(ben, "y1", ("intentional", False)))  # findings, but the penalty right
    specs = progress_charts(progress_figures(store, ben, RULESETS, NOW.date()), content, "en")
    assert specs["findings_by_fact"] is not None and specs["findings_split"] is None


def test_a_fact_the_content_no_longer_has_is_shown_by_its_id(content):
    assert fact_name(content, "yugioh-ocg", "gone_fact", "en") == "gone_fact"
    assert fact_name(content, "gone-game", "intentional", "en") == "intentional"
    facts = pd.DataFrame({"ruleset": ["gone-game", "yugioh-ocg"], "fact": ["x", "intentional"]})
    assert fact_labels(facts, content, "ja") == [
        "gone-game › x", f"{content.rulesets['yugioh-ocg'].document.short_name.ja} › 故意である"]


def test_team_tables_and_charts_show_findings_per_trainee_and_per_card(store, content):
    aiko, ben, chie = (store.trainee(name).id for name in ("Aiko", "Ben", "Chie"))
    for record in (answer(aiko, "y1", ("intentional", False), ("decisive", True), follows=True),
                   answer(aiko, "y1", ("intentional", False), ("decisive", True), follows=False),
                   answer(ben, "y1", ("intentional", True), ("decisive", False)),
                   answer(ben, "y2", ("decisive", True)),
                   answer(chie, "plain")):
        save_answer(store, record)
    findings = team_findings(store, EVERY_STORE, RULESETS)
    overview = team_overview(store.engine, EVERY_STORE, NOW, RULESETS)
    trainees = overview_table(overview, {}, "UTC", findings).set_index("trainee")
    assert list(trainees.columns) == OVERVIEW_TABLE[1:]
    assert trainees.loc["Aiko", ["findings_accuracy", "misjudged", "misapplied"]].tolist() == [50.0, 1, 1]
    assert trainees.loc["Ben", ["findings_accuracy", "misjudged", "misapplied"]].tolist() == [pytest.approx(66.7), 0, 0]
    assert trainees.loc["Chie", ["findings_accuracy", "misjudged", "misapplied"]].isna().all()  # blank: no findings

    cards = card_table(card_statistics(store.engine, EVERY_STORE, RULESETS), content, "en", findings).set_index("card_id")
    assert list(cards.columns) == CARD_TABLE[:1] + CARD_TABLE[2:]
    intentional = named(content, "yugioh-ocg", "intentional", "en")
    # y1: intentional right 1 of 3, decisive 2 of 3 -> intentional is found wrong most often
    assert cards.loc["y1", ["weakest_finding", "findings_accuracy", "misjudged", "misapplied"]].tolist() == [
        f"{intentional} (33%)", 50.0, 1, 1]
    assert cards.loc["y2", "weakest_finding"] == ""  # every finding right
    assert cards.loc["plain", "weakest_finding"] == "" and pd.isna(cards.loc["plain", "misjudged"])

    names = dict(zip(overview["trainee_id"], overview["trainee"]))
    charts = team_findings_charts(findings, names, content, "en")
    assert sorted((row["trainee_id"], row["cause"], row["count"]) for row in data(charts["by_trainee"])) == [
        ("Aiko", "Misapplied the document", 1), ("Aiko", "Misjudged the facts", 1)]  # Ben had no wrong penalty
    by_fact = {row["fact"]: row["accuracy"] for row in data(charts["by_fact"])}
    assert by_fact == {intentional: pytest.approx(1 / 3),
                       named(content, "yugioh-ocg", "decisive", "en"): pytest.approx(3 / 4)}


def test_team_without_findings_has_blank_columns_and_no_charts(store, content):
    save_answer(store, answer(store.trainee("Aiko").id, "plain"))
    findings = team_findings(store, EVERY_STORE, RULESETS)
    overview = team_overview(store.engine, EVERY_STORE, NOW, RULESETS)
    assert overview_table(overview, {}, "UTC", findings)[["findings_accuracy", "misjudged"]].isna().all(axis=None)
    charts = team_findings_charts(findings, {}, content, "en")
    assert charts == {"by_trainee": None, "by_fact": None}


def test_the_weakest_finding_of_a_card_is_the_least_often_right_then_the_most_answered(content):
    card_facts = pd.DataFrame([
        ("c", "yugioh-ocg", "decisive", 4, 2, 0.5),
        ("c", "yugioh-ocg", "intentional", 2, 1, 0.5),  # as weak, fewer findings
        ("d", "yugioh-ocg", "pattern", 2, 2, 1.0),
        ("e", "gone-game", "zzz", 3, 0, 0.0),
    ], columns=["card_id", "ruleset", "fact", "answered", "correct", "accuracy"])
    assert weakest_findings(card_facts, content, "en") == {
        "c": f"{named(content, 'yugioh-ocg', 'decisive', 'en')} (50%)", "e": "zzz (0%)"}
