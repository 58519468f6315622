"""The review queue: a card with a wrong key, found by how strong trainees answer it, comes first."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from sqlalchemy import insert

from quiz.access.supervisors import create_account
from quiz.db.problem_reports import file_report, resolve_report
from quiz.db.tables import attempt_regrades
from quiz.model.attempt import AttemptRecord
from quiz.report.csv_export import csv_bytes
from quiz.report.review_queue import QUEUE_COLUMNS, queue_table, review_queue
from tests.recording import record
from tests.scopes import EVERY_STORE

START = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.UTC)
LADDER = ["caution", "warning", "duel_loss", "match_loss"]


def scenario_answer(trainee_id: int, card, right: bool, chosen: str, standard: str, n: int) -> AttemptRecord:
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card.id, ruleset=card.ruleset, category="rules", card_kind="scenario",
        chosen_infraction=card.infraction, standard_infraction=card.infraction, chosen_penalty=chosen,
        standard_penalty=standard, infraction_result="correct", penalty_result="correct" if right else "wrong",
        fixes_result="correct", correct=right, seconds=5.0 + n % 7, answered_at=START + dt.timedelta(minutes=n),
    )


@pytest.fixture
def history(store, content):
    """20 trainees of spread ability answer 12 cards three times each. On the planted card the
    key says ``warning`` but the document (as strong trainees know) says ``duel_loss``: every
    strong trainee answers ``duel_loss`` and is marked wrong, weak ones guess."""
    rng = random.Random(11)
    cards = [c for c in content.scenario_cards if c.ruleset == "yugioh-ocg" and not c.parameters][:12]
    planted, reported, regraded = cards[0], cards[1], cards[2]
    trainees = [(store.trainee(f"Trainee {i:02d}").id, 0.3 + 0.65 * i / 19) for i in range(20)]
    ids: dict[str, list[AttemptRecord]] = {}
    n = 0
    for _ in range(3):
        for trainee_id, ability in trainees:
            for card in cards:
                n += 1
                if card is planted:
                    chosen = "duel_loss" if ability >= 0.75 else rng.choice(["warning", "duel_loss", "caution"])
                    right = chosen == "warning"
                    answer = scenario_answer(trainee_id, card, right, chosen, "warning", n)
                else:
                    right = rng.random() < ability
                    chosen = "warning" if right else rng.choice(["caution", "duel_loss", "match_loss"])
                    answer = scenario_answer(trainee_id, card, right, chosen, "warning", n)
                ids.setdefault(card.id, []).append(answer)
                record(store, answer)
    file_report(store, ids[reported.id][0], "unclear", "The situation does not say when he sat down.")
    resolved = file_report(store, ids[reported.id][1], "other", "typo")
    admin = create_account(store, "Kantoku", "a long enough password", "admin", None, None)  # audited: a real account
    resolve_report(store, admin.scope(), resolved.id, "fixed the typo")
    attempt_id = int(store.attempts().query("card_id == @regraded.id")["id"].iloc[0])
    with store.engine.begin() as conn:
        conn.execute(insert(attempt_regrades).values(
            attempt_id=attempt_id, regraded_at=START, from_fingerprint="a" * 16, to_fingerprint="b" * 16,
            standard_fixes=(), correct=False))
    return planted, reported, regraded


def test_a_planted_wrong_key_comes_out_on_top(store, content, history):
    planted, reported, regraded = history
    queue = review_queue(store, content, EVERY_STORE)
    assert list(queue.columns) == QUEUE_COLUMNS
    top = queue.iloc[0]
    assert top["card_id"] == planted.id
    assert set(top["reasons"]) >= {"discrimination", "agreement"}
    assert top["discrimination"] < 0
    assert (top["strong_wrong_part"], top["strong_wrong"]) == ("penalty", "duel_loss")
    assert top["strong_agreement"] >= 0.75  # trainees strong by luck guess like the weak
    assert top["file"] == "scenarios/yugioh-ocg/" + content.card_files[planted.id].rsplit("/", 1)[1]
    assert top["line"] > 0 and len(top["document_lines"]) > 0
    cited = "\n".join(content.rulesets[planted.ruleset].source_lines[i - 1] for i in top["document_lines"])
    assert all(part.strip() in cited for part in planted.source.ja.split("\n") if part.strip())
    by_card = queue.set_index("card_id")
    assert by_card.loc[reported.id, "reasons"] == ("reports",)
    assert by_card.loc[reported.id, "open_reports"] == 1  # the resolved report no longer counts
    assert "regraded" in by_card.loc[regraded.id, "reasons"]
    assert list(queue["suspicion"]) == sorted(queue["suspicion"], reverse=True)


def test_a_well_behaved_pool_queues_nothing_but_its_reports(store, content):
    card = content.scenario_cards[0]
    trainee = store.trainee("Solo").id
    answer = scenario_answer(trainee, card, True, "warning", "warning", 1)
    record(store, answer)
    assert review_queue(store, content, EVERY_STORE).empty
    file_report(store, answer, "key_wrong", "")
    queue = review_queue(store, content, EVERY_STORE)
    assert queue["card_id"].tolist() == [card.id] and queue.loc[0, "suspicion"] == 3.0


def test_the_queue_exports_as_csv(store, content, history):
    planted, _, _ = history
    table = queue_table(review_queue(store, content, EVERY_STORE), {"agreement": "強い受講者が同じ誤答", "reports": "報告"})
    assert table.loc[0, "card_id"] == planted.id
    assert table.loc[0, "strong_wrong"] == "penalty: duel_loss"
    assert table.loc[0, "place"].startswith("scenarios/yugioh-ocg/") and ":" in table.loc[0, "place"]
    text = csv_bytes(table).decode("utf-8-sig")
    assert text.splitlines()[0].startswith("card_id,suspicion,reasons")
    assert planted.id in text.splitlines()[1] and "強い受講者が同じ誤答" in text.splitlines()[1]
