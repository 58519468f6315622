"""A separate process that answers cards into a database (used by the reliability tests).

Usage: python -m tests.reliability.writer URL TRAINEE COUNT
Prints ``ack <attempt id>`` after each answer is committed.
"""

from __future__ import annotations

import sys

from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord


def save(store: Store):
    """The app's own answer writer: the attempt and the card's review schedule."""
    from quiz.db.answers import save_answer

    return lambda record: save_answer(store, record).attempt_id


def main(url: str, trainee: str, count: int) -> None:
    store = Store(url)
    writer = save(store)
    trainee_id = store.trainee(trainee).id
    for number in range(count):
        attempt_id = writer(
            AttemptRecord(
                trainee_id=trainee_id, card_id=f"card-{number % 40}", ruleset="yugioh-ocg",
                category="tardiness", card_kind="scenario", correct=number % 3 != 0, seconds=1.5,
            )
        )
        print(f"ack {attempt_id}", flush=True)
    store.dispose()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
