"""A new trainee's welcome: a Yu-Gi-Oh! candidate's first card was a Pokémon one,
and the daily goal began at one card. The welcome asks both; the games are kept per trainee,
so a later session (a reload, another device) starts with them, and the next trainee on a
shared computer does not inherit them."""

from __future__ import annotations

import pytest

from quiz.access.accounts import add_trainee
from quiz.db.goals import daily_goal
from quiz.db.study_games import studied_games
from tests.ui.test_sign_in import PIN, add_me, sign_in, welcome

GAMES = ("yugioh-ocg", "pokemon-card-ja")


@pytest.fixture
def aiko(store):
    return add_trainee(store, "Aiko", PIN)


def test_a_new_trainee_is_asked_their_games_and_goal_before_any_card(store, open_app) -> None:
    at = add_me(open_app(trainee=None), "Chie", "9753")
    assert at.pills(key="first-visit-games").value in ([], None)
    assert "practice" not in at.session_state  # no card dealt before the welcome is answered
    assert at.segmented_control(key="first-visit-goal").value == 10  # a goal a day of study, not one card
    welcome(at, ["yugioh-ocg"], goal=20)
    chie = store.find_trainee("Chie")
    assert chie is not None
    assert studied_games(store, chie.id, GAMES) == ("yugioh-ocg",)
    assert daily_goal(store, chie.id) == 20
    assert at.multiselect(key="games").value == ["yugioh-ocg"]
    for _ in range(5):  # every card dealt is of the game chosen
        card = at.session_state["practice"].card
        assert card is not None and card.startswith("ygo-"), card
        at.session_state["practice"].card = None
        at.run()


def test_a_skipped_welcome_leaves_the_suggested_goal_not_one_card(store, open_app) -> None:
    """Going to another page (or closing the tab) before Start: the goal is the suggested one,
    and Progress counts today's cards against it."""
    at = add_me(open_app(trainee=None), "Chie", "9753")
    at.switch_page("quiz/ui/pages/progress.py").run()
    assert not at.exception, at.exception
    chie = store.find_trainee("Chie")
    assert chie is not None
    assert daily_goal(store, chie.id) == 10
    assert at.number_input(key="progress-goal").value == 10


def test_the_welcome_refuses_no_game_and_keeps_nothing(store, open_app) -> None:
    at = add_me(open_app(trainee=None), "Chie", "9753")
    welcome(at, [])
    assert [w.value for w in at.warning] == ["Choose at least one game to study."]
    assert studied_games(store, store.find_trainee("Chie").id, GAMES) is None
    assert "practice" not in at.session_state


def test_a_later_session_starts_with_the_trainees_own_games(aiko, store, open_app) -> None:
    from quiz.db.study_games import keep_studied_games

    keep_studied_games(store, aiko.id, ["pokemon-card-ja"], GAMES)
    at = sign_in(open_app(trainee=None), "Aiko", PIN)
    assert at.multiselect(key="games").value == ["pokemon-card-ja"]
    assert not [b for b in at.button if b.label == "Start"]  # an existing trainee is not welcomed again


def test_changing_the_filter_keeps_it_for_the_next_session(aiko, store, open_app) -> None:
    at = sign_in(open_app(trainee=None), "Aiko", PIN)
    at.multiselect(key="games").set_value(["yugioh-ocg"]).run()
    assert studied_games(store, aiko.id, GAMES) == ("yugioh-ocg",)
    assert sign_in(open_app(trainee=None), "Aiko", PIN).multiselect(key="games").value == ["yugioh-ocg"]
