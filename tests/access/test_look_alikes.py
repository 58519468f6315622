"""Names that look alike: trainees made before the name rules keep working and are flagged,
whole words of Cyrillic look-alikes are flagged with the Latin name, and what the eye cannot
see is spelt out."""

from __future__ import annotations

import pytest
from sqlalchemy import insert

from quiz.access.accounts import add_trainee, name_throttles, set_pin, sign_in
from quiz.access.look_alikes import look_alike_groups, look_alike_groups_of, visible_name
from quiz.access.throttles import LoginThrottle
from quiz.db.store import Trainee
from quiz.db.tables import trainees
from quiz.model.attempt import utc_now
from quiz.model.errors import NameTakenError
from tests.scopes import EVERY_STORE

PIN = "2468"


def test_old_look_alike_trainees_keep_working_and_are_flagged(store):
    """Trainees made before these rules (written straight into the table) all still sign in by
    their exact names; look_alike_groups lists them for the supervisor."""
    names = ["Alice", "alice", "Alic\u0435", "Alice\u200b", "Ben"]
    with store.engine.begin() as conn:
        for name in names:
            conn.execute(insert(trainees).values(name=name, created_at=utc_now()))
    for trainee in store.trainees(EVERY_STORE):
        set_pin(store, trainee.id, f"{trainee.id}864", None)
    for trainee in store.trainees(EVERY_STORE):
        found = sign_in(store, trainee.name, f"{trainee.id}864", name_throttles(), LoginThrottle())
        assert found.trainee == trainee, trainee.name
    groups = look_alike_groups(store, EVERY_STORE)
    assert [sorted(t.name for t in group) for group in groups] == [sorted(names[:4])]
    with pytest.raises(NameTakenError):  # and no new one joins them
        add_trainee(store, "ALICE", PIN)


def test_visible_name_spells_out_what_the_eye_cannot_see():
    assert visible_name("Alice\u200b") == "Alice<U+200B>"
    assert visible_name("\u202eecilA") == "<U+202E>ecilA"
    assert visible_name("Alic\u0435") == "Alic\u0435 [Cyrillic+Latin]"
    assert visible_name("Tシャツ太郎") == "Tシャツ太郎" and visible_name("Alice") == "Alice"


def test_a_whole_word_of_cyrillic_look_alikes_is_flagged_with_the_latin_name(store):
    add_trainee(store, "Maxim", PIN)
    add_trainee(store, "\u041c\u0430\u0445\u0456\u043c", PIN)  # Махім, all Cyrillic: allowed, but flagged
    assert [sorted(t.name for t in group) for group in look_alike_groups(store, EVERY_STORE)] == [["Maxim", "Махім"]]


def test_groups_of_a_list_read_already_are_ordered_by_id_whatever_order_it_came_in():
    """The Team page reads its trainees once, by name, and groups that list."""
    made = utc_now()
    by_name = [Trainee(4, "ALICE\u200b", made), Trainee(2, "Alice", made), Trainee(9, "Ben", made),
               Trainee(3, "alic\u0435", made), Trainee(7, "Bob", made)]
    assert [[t.id for t in group] for group in look_alike_groups_of(by_name)] == [[2, 3, 4]]
    assert look_alike_groups_of([]) == [] and look_alike_groups_of(by_name[2:3]) == []
