"""The games a trainee studies: the sidebar's game filter, kept per trainee (``trainee_games``).

Kept in the database rather than the browser session, so that a reload, another device or
the next day starts with the trainee's own games, and so that a shared store computer does
not hand one trainee's filter to the next. No row means the trainee was never asked: the
first visit asks which game they study (``quiz.ui.first_visit``).
"""

from __future__ import annotations

from typing import Iterable

from quiz.db.store import Store
from quiz.db.tables import trainee_games
from quiz.db.trainee_settings import TraineeSetting
from quiz.model.errors import UnknownIdError

MAX_GAMES = 32  # more ruleset ids than any deployment ships: a longer list is not a choice
GAMES = TraineeSetting(trainee_games.c.rulesets)  # a JSON list of ruleset ids; no row: never asked


def studied_games(store: Store, trainee_id: int, known: Iterable[str]) -> tuple[str, ...] | None:
    """The trainee's games that are still among ``known`` (in their order); None when they
    never chose, or when none of their games is offered any more."""
    kept = GAMES.read(store, trainee_id)
    offered = set(known)
    games = tuple(game for game in kept if isinstance(game, str) and game in offered) if isinstance(kept, list) else ()
    return games or None


def keep_studied_games(store: Store, trainee_id: int, games: Iterable[str], known: Iterable[str]) -> tuple[str, ...]:
    """Keep ``games`` (ruleset ids among ``known``, at least one) as the trainee's; what was kept.

    ``UnknownIdError`` for an id that is not offered or an empty choice: a value a browser
    sends is never stored unchecked.
    """
    offered = set(known)
    chosen = tuple(dict.fromkeys(games))
    unknown = [game for game in chosen if game not in offered]
    if not chosen or unknown or len(chosen) > MAX_GAMES:
        raise UnknownIdError(f"not a choice of games: {list(chosen)[:MAX_GAMES]!r}")
    GAMES.write(store, trainee_id, list(chosen))
    return chosen
