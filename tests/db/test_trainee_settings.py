"""A per-trainee setting on both databases: the default until kept, one row per trainee
replaced at each change and stamped, another trainee's left alone."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from quiz.db.tables import trainee_games, trainee_goals
from quiz.db.trainee_settings import TraineeSetting

GOAL = TraineeSetting(trainee_goals.c.cards_per_day, default=7)
GAMES = TraineeSetting(trainee_games.c.rulesets)


def test_a_setting_reads_its_default_until_kept_then_the_kept_value(store) -> None:
    kenta, mio = store.trainee("Kenta"), store.trainee("Mio")
    assert GOAL.read(store, kenta.id) == 7 and GAMES.read(store, kenta.id) is None
    GOAL.write(store, kenta.id, 12)
    GAMES.write(store, kenta.id, ["yugioh-ocg", "pokemon-card-ja"])
    assert GOAL.read(store, kenta.id) == 12 and GAMES.read(store, kenta.id) == ["yugioh-ocg", "pokemon-card-ja"]
    assert GOAL.read(store, mio.id) == 7 and GAMES.read(store, mio.id) is None


def test_a_change_replaces_the_one_row_and_stamps_it(store) -> None:
    kenta, mio = store.trainee("Kenta"), store.trainee("Mio")
    before = datetime.now(UTC)
    GOAL.write(store, kenta.id, 12)
    GOAL.write(store, mio.id, 3)
    GOAL.write(store, kenta.id, 20)
    with store.engine.connect() as conn:
        rows = conn.execute(select(trainee_goals).order_by(trainee_goals.c.trainee_id)).all()
    assert [(row.trainee_id, row.cards_per_day) for row in rows] == [(kenta.id, 20), (mio.id, 3)]
    assert all(row.updated_at >= before for row in rows)
    assert GOAL.read(store, kenta.id) == 20
