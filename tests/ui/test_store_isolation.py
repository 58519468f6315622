"""Isolation on the pages: signed in as store A's supervisor, the Team and Card
review pages draw nothing of store B, even when the browser sends a widget value naming B's
trainee or card (a websocket message no page would send: AppTest sends it here); an admin sees
every store, and with the sidebar's pick one. The tables drawn are the CSVs' rows (each
download is its table as shown)."""

from __future__ import annotations

import pytest

from quiz.ui.supervisor_gate import PICK_KEY
from tests.two_stores import ONLY_B_CARD, PASSWORD, TwoStores, b_leaks, seed_two_stores
from tests.ui import supervisor

TEAM = "quiz/ui/pages/team.py"
ITEMS = "quiz/ui/pages/items.py"


@pytest.fixture(autouse=True)
def gate(monkeypatch):
    yield from supervisor.fresh_gate(monkeypatch)


@pytest.fixture
def two(store) -> TwoStores:
    return seed_two_stores(store)


def drawn(at) -> str:
    """Everything the page drew (main area and sidebar, widgets, messages), and each table's rows."""
    nodes = [*at.main, *at.sidebar]
    return "\n".join([str(node.proto) for node in nodes if getattr(node, "proto", None) is not None]
                     + [frame.value.to_csv() for frame in at.dataframe])


def signed_in(open_app, page: str, account: str):
    at = supervisor.unlock(open_app(trainee=None, page=page), PASSWORD, name=account)
    assert not at.exception
    return at


def forge(at, key: str, value: str):
    """Send ``value`` as the select box's choice, as a forged websocket message would: the page
    never offered it. (Streamlit drops a choice that is not an option before the script reads
    it; were it to pass, ``Store.seen_trainee`` refuses it: tests/db/test_isolation.py.)"""
    box = at.selectbox(key=key)
    assert value not in box.options
    box.options.append(value)
    box.set_value(value).run()
    assert at.session_state[key] in (None, value)
    return at


def test_store_as_supervisor_sees_only_their_trainees_on_the_team_page(open_app, two):
    at = signed_in(open_app, TEAM, "Sato")
    assert list(at.dataframe[0].value["Trainee"]) == ["Aiko"]
    assert at.selectbox(key="team-trainee").options == ["Aiko"]
    assert b_leaks(drawn(at)) == []
    b = signed_in(open_app, TEAM, "Kobayashi")
    assert list(b.dataframe[0].value["Trainee"]) == ["Ben-of-Umeda"]


def test_a_forged_pick_of_another_stores_trainee_draws_nothing_of_them(open_app, two):
    at = forge(signed_in(open_app, TEAM, "Sato"), "team-trainee", two.ben.name)
    assert not at.exception
    assert b_leaks(drawn(at)) == []
    assert not [s for s in at.subheader if s.value.startswith("Progress of")]
    assert not at.expander or all("New PIN" not in e.label for e in at.expander)
    at.selectbox(key="team-trainee").set_value("Aiko").run()  # the page's own choice still works
    assert "Progress of Aiko" in [s.value for s in at.subheader]


def test_a_forged_self_study_player_is_not_shown_to_a_store_supervisor(open_app, two):
    at = forge(signed_in(open_app, TEAM, "Sato"), "team-trainee", two.solo.name)
    assert "Solo" not in drawn(at).replace("team-trainee", "")
    assert not [s for s in at.subheader if s.value.startswith("Progress of")]


def test_an_admin_sees_every_store_and_with_a_pick_one(open_app, two):
    at = signed_in(open_app, TEAM, "Admin")
    assert sorted(at.dataframe[0].value["Trainee"]) == ["Aiko", "Ben-of-Umeda", "Solo"]
    at.sidebar.selectbox(key=PICK_KEY).set_value(two.b).run()
    assert list(at.dataframe[0].value["Trainee"]) == ["Ben-of-Umeda"]
    at.sidebar.selectbox(key=PICK_KEY).set_value(two.a).run()
    assert list(at.dataframe[0].value["Trainee"]) == ["Aiko"]


def test_card_review_of_a_store_holds_nothing_of_another_even_for_a_forged_card(open_app, two):
    at = signed_in(open_app, ITEMS, "Sato")
    assert b_leaks(drawn(at)) == []
    at = forge(at, "items-card", ONLY_B_CARD)  # a card only store B answered and reported
    assert not at.exception
    leaks = b_leaks(drawn(at).replace(ONLY_B_CARD, ""))  # its id is in the forged value itself
    assert leaks == []
