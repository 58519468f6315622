"""A floor call's investigation on the practice page, for its floor (``floor_call.py``): the
same widgets, filled with constant data. A module, not a script: the benchmark imports its
keys (``STEPS_KEY``, ``TAKEN_KEY``, ``STEP_KEY_PREFIX``) without drawing anything.

A step is kept the moment it is taken, so the floor's step pays what any way of keeping it
must: one row inserted and committed in the app's database (``QUIZ_DATABASE_URL``, an engine
made as the app makes its own, ``quiz.db.engine.make_engine``), in a table of the floor's own.
On SQLite that commit is a write of the journal to the disk, most of a step's time on a slow
disk; without it the floor would compare the app's durable step with one that keeps nothing.
On SQLite the table is in a file beside the app's (``floor_database_url``): the same write,
but not a commit to the app's file, which the app, measured in the same process, would take
for another server's and read its kept values again (its own sessions' steps do not)."""

from functools import cache
from pathlib import Path

import streamlit as st
from sqlalchemy import Column, DateTime, Engine, Integer, MetaData, Table, func, insert
from sqlalchemy.engine import make_url

from quiz.db.engine import database_url, make_engine, sqlite_file
from quiz.ui.round_clock import ROUND_CLOCK_KEY

STEPS_KEY = "floor-call-steps"  # how many steps the call has (set by the benchmark)
TAKEN_KEY = "floor-call-taken"  # how many are taken
STEP_KEY_PREFIX = "floor-step-"
PEOPLE = ("Kimura (the opponent)", "Sato", "Takada (spectator)")
CALL = ("Store tournament, round 3, duel 1. Kimura has raised his hand: “Judge, please.” Across from him, "
        "Sato is in his draw phase and has stopped with two face-down cards in his right hand. ") * 2
REPLY = "“I drew one, and there were two. I haven't put them in my hand, and I called you at once.”"


FLOOR_WRITES = Table("bench_floor_writes", MetaData(), Column("id", Integer, primary_key=True),
                     Column("taken_at", DateTime, nullable=False))


def floor_database_url(url: str) -> str:
    """Where the floor keeps its steps: beside a SQLite file (``quiz.db`` → ``quiz.floor.db``),
    else the app's database itself."""
    parsed = make_url(url)
    file = sqlite_file(parsed.database)
    if parsed.get_backend_name() != "sqlite" or file is None:
        return url
    return parsed.set(database=str(Path(file).with_suffix(".floor.db"))).render_as_string(hide_password=False)


@cache
def _floor_database(url: str) -> Engine:
    engine = make_engine(make_url(url))
    FLOOR_WRITES.create(engine, checkfirst=True)
    return engine


def _take() -> None:
    with _floor_database(floor_database_url(database_url())).begin() as conn:  # the step kept, as the app keeps its own
        conn.execute(insert(FLOOR_WRITES).values(taken_at=func.now()))
    st.session_state[TAKEN_KEY] = st.session_state.get(TAKEN_KEY, 0) + 1


def floor_call() -> None:
    steps = st.session_state.get(STEPS_KEY, 10)
    taken = st.session_state.setdefault(TAKEN_KEY, 0)
    st.title("Practice", anchor=False)
    st.segmented_control("Cards", ["all", "floor_calls"], key="floor-pool", default="floor_calls",
                         label_visibility="collapsed")
    st.subheader("A call to a table: investigate, then rule", anchor=False)
    st.caption("Game · ★★☆")
    with st.container(border=True):
        st.markdown(CALL)
    with st.container():
        with st.container(key=ROUND_CLOCK_KEY):
            st.markdown(f":blue-badge[:material/timer: Round time {taken // 2}:{taken % 6}0 of 3:00]")
        if not taken:
            st.caption("Nothing asked or checked yet.")
        for n in range(taken):
            with st.chat_message("user", avatar=":material/gavel:"):
                st.markdown(f"To {PEOPLE[n % 3]}: a constant question, number {n + 1}?")
            with st.chat_message("assistant", avatar=":material/person:"):
                st.markdown(f"**{PEOPLE[n % 3]}**  \n{REPLY}")
        with st.container(border=True):
            for n in range(taken, steps):
                if n % 3 == 0 or n == taken:
                    st.markdown(f"**Ask {PEOPLE[n % 3]}**")
                st.button(f"A constant question, number {n + 1}?", key=f"{STEP_KEY_PREFIX}{n}",
                          icon=":material/record_voice_over:", on_click=_take, width="stretch")
        st.button("Rule", key="floor-rule", type="primary", icon=":material/gavel:",
                  help="Stop investigating and give your ruling.")
        st.button("I don't know — show the answer", key="floor-dont-know", type="tertiary",
                  icon=":material/help:", help="Counts as a wrong answer.")
