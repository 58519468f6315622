"""Team → One trainee lists every trainee, answers or not, so a new one's PIN can be reset."""

from __future__ import annotations

import pytest

from tests.ui import supervisor
from tests.ui.test_team import PASSWORD, unlock


@pytest.fixture(autouse=True)
def fresh_throttle(monkeypatch):
    yield from supervisor.fresh_gate(monkeypatch)


def test_a_trainee_without_answers_can_be_picked_and_given_a_new_pin(open_app, store):
    store.trainee("Daichi")  # signed up, never answered
    supervisor.make_account(PASSWORD)
    at = unlock(open_app(trainee=None, page="quiz/ui/pages/team.py"), PASSWORD)
    picker = at.selectbox(key="team-trainee")
    assert "Daichi" in picker.options
    picker.select("Daichi").run()
    assert not at.exception
    assert at.subheader[0].value == "Progress of Daichi"
    assert any(e.label == "New PIN" for e in at.expander)
