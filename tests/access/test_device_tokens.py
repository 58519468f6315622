"""Staying signed in on a device: a reload signs back in with the device's token
until it expires, the trainee signs out there, or their PIN changes on any device; the
database keeps only a digest of the token. On both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from quiz.access.accounts import add_trainee, credential_version, set_pin
from quiz.access.device_tokens import DEVICE_DAYS, TOKEN_MAX, issue, resume, revoke
from quiz.db.exams import start_exam
from quiz.db.tables import trainee_devices
from tests.db.test_exam_store import CARDS, SEEDS, SPEC

NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
PIN = "2468-aiko"


@pytest.fixture
def aiko(store):
    return add_trainee(store, "Aiko", PIN)


def test_a_token_signs_its_trainee_back_in_with_their_pin_s_version(store, aiko) -> None:
    token = issue(store, aiko.id, NOW)
    resumed = resume(store, token, NOW + timedelta(days=DEVICE_DAYS - 1))
    assert resumed.trainee == aiko and resumed.credential == credential_version(store, aiko.id)
    assert not resumed.exam_running


def test_the_database_keeps_a_digest_never_the_secret_or_the_pin(store, aiko) -> None:
    token = issue(store, aiko.id, NOW)
    secret = token.partition(".")[2]
    with store.engine.connect() as conn:
        row = conn.execute(select(trainee_devices)).one()
    assert secret not in str(tuple(row)) and PIN not in str(tuple(row))
    assert len(row.secret_digest) == 64


@pytest.mark.parametrize("forge", [
    lambda token: token.partition(".")[0] + ".not-the-secret",  # the right row, a guessed secret
    lambda token: str(int(token.partition(".")[0]) + 1) + "." + token.partition(".")[2],  # another row
    lambda token: token + "x" * TOKEN_MAX,  # too long: refused unread
    lambda token: "", lambda token: "abc", lambda token: "١." + token.partition(".")[2],  # not ASCII digits
])
def test_a_forged_token_signs_nobody_in(store, aiko, forge) -> None:
    token = issue(store, aiko.id, NOW)
    assert resume(store, forge(token), NOW) .trainee is None
    assert resume(store, token, NOW).trainee == aiko  # the real one still does


def test_a_token_expires(store, aiko) -> None:
    token = issue(store, aiko.id, NOW)
    assert resume(store, token, NOW + timedelta(days=DEVICE_DAYS, seconds=1)).trainee is None


def test_signing_out_on_the_device_ends_its_token_only(store, aiko) -> None:
    phone, laptop = issue(store, aiko.id, NOW), issue(store, aiko.id, NOW)
    revoke(store, phone, NOW)
    assert resume(store, phone, NOW).trainee is None
    assert resume(store, laptop, NOW).trainee == aiko


def test_a_new_pin_on_any_device_ends_every_token(store, aiko) -> None:
    phone = issue(store, aiko.id, NOW)
    set_pin(store, aiko.id, "1357-new-pin", None)
    assert resume(store, phone, NOW).trainee is None
    assert resume(store, issue(store, aiko.id, NOW), NOW).trainee == aiko  # signing in again issues a new one


def test_an_ended_token_says_an_exam_is_running_to_its_device_only(store, aiko) -> None:
    token = issue(store, aiko.id, NOW)
    later = NOW + timedelta(days=DEVICE_DAYS, minutes=1)
    start_exam(store, aiko.id, "custom", SPEC, CARDS, SEEDS, later)
    ended = resume(store, token, later + timedelta(minutes=1))
    assert ended.trainee is None and ended.exam_running
    assert not resume(store, "1.forged", later).exam_running  # a forged token learns nothing
    revoke(store, token, later)
    assert not resume(store, token, later).exam_running  # signed out there: nothing to tell
