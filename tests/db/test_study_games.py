"""The games a trainee studies, kept per trainee on both databases (a reload or
another device started again with every game; a shared computer passed one trainee's filter
to the next)."""

from __future__ import annotations

import pytest

from quiz.db.study_games import keep_studied_games, studied_games
from quiz.model.errors import UnknownIdError

GAMES = ("yugioh-ocg", "pokemon-card-ja")


def test_a_trainee_never_asked_has_no_games(store) -> None:
    assert studied_games(store, store.trainee("Kenta").id, GAMES) is None


def test_the_choice_is_kept_per_trainee_in_its_order(store) -> None:
    kenta, mio = store.trainee("Kenta"), store.trainee("Mio")
    assert keep_studied_games(store, kenta.id, ["yugioh-ocg"], GAMES) == ("yugioh-ocg",)
    keep_studied_games(store, mio.id, ["pokemon-card-ja", "yugioh-ocg", "yugioh-ocg"], GAMES)
    assert studied_games(store, kenta.id, GAMES) == ("yugioh-ocg",)
    assert studied_games(store, mio.id, GAMES) == ("pokemon-card-ja", "yugioh-ocg")
    keep_studied_games(store, kenta.id, ["pokemon-card-ja"], GAMES)  # changed: the row is replaced
    assert studied_games(store, kenta.id, GAMES) == ("pokemon-card-ja",)


def test_a_game_no_longer_offered_is_left_out_and_none_left_means_ask_again(store) -> None:
    kenta = store.trainee("Kenta")
    keep_studied_games(store, kenta.id, list(GAMES), GAMES)
    assert studied_games(store, kenta.id, ["pokemon-card-ja"]) == ("pokemon-card-ja",)
    assert studied_games(store, kenta.id, ["a-third-game"]) is None


@pytest.mark.parametrize("chosen", [[], ["not-a-game"], ["yugioh-ocg", "<script>"]])
def test_a_choice_a_browser_could_forge_is_refused_and_nothing_kept(store, chosen) -> None:
    kenta = store.trainee("Kenta")
    with pytest.raises(UnknownIdError):
        keep_studied_games(store, kenta.id, chosen, GAMES)
    assert studied_games(store, kenta.id, GAMES) is None
