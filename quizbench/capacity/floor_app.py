"""The floor: what Streamlit itself costs for the practice loop the load tool drives.

The same shape as the app's practice page, with constant content and no database: a
sidebar with the language radio, the sign-in form (any name and PIN sign in), the New
trainee form and the game filters; a router with the app's pages (``quiz.ui.page_table``);
a card (title, caption, situation in a box) and its answer form (Infraction selectbox,
Penalty radio, Fix multiselect, Check); one card in eight a floor call (the round clock, the
conversation, the steps as buttons and Rule, which opens the same form), the share of the
app's shipped cards; after Check the right/wrong banner and a feedback of about the app's
length, then Next card. Each click costs one script run: the buttons act in their
callbacks, so nothing needs ``st.rerun``; and as in the app, the card is a fragment that
draws the sidebar's due count, so Check and Next card run only it. The load tool cannot
tell it from the app.

Its Mock exam page is the app's exam loop on the same terms: start a 20-question,
30-minute custom exam, the exam's name and clock drawn with the page, then a question at
a time with its head (question number, progress bar, the navigator of every question), its
answer form, the flag, Save, Next, hand in, the results, Back; as in the app, the question
is a fragment (Save and Next run only it, and the due count), and handing in runs the whole
page. The clock is the app's own (``quiz.ui.exam_clock``: counted
down in the browser, one run at the deadline), so the human-pace turn compares like for like.

Run it with ``python -m quizbench.capacity floor --port 8580`` (``streamlit run`` of this
file, on 127.0.0.1).
"""

from __future__ import annotations

import random
import time
from datetime import timedelta

import streamlit as st

from quiz.model.words import t
from quiz.training.exams import clock_text
from quiz.ui.exam_clock import exam_clock
from quiz.ui.folds import fold
from quiz.ui.page_table import PAGE_TABLE

SITUATION = (
    "Store tournament, round 4. Ando won duel 1. In duel 2, after drawing for the turn, Ando "
    "noticed that an extra card had been drawn and called a judge. The opponent agrees that "
    "nothing else happened. The deck was shuffled before the duel as usual. "
) * 2
INFRACTIONS = [f"Category {n // 6 + 1} › Infraction {n + 1}" for n in range(18)]
PENALTIES = ["Caution", "Warning", "Duel Loss", "Match Loss", "Disqualification", "Game Loss"]
FIXES = [f"Fix {n + 1}" for n in range(9)]
EXAM_QUESTIONS, EXAM_MINUTES = 20, 30  # the app's custom exam as the load tool starts it
# one card in eight is a floor call: the shipped floor calls' share of the cards Practice deals
# (54 of 441, 12 %), dealt at random as the app deals from its pool (not every eighth card: a
# session at human pace answers four or five cards in a run, and would never reach the eighth)
FLOOR_CALL_EVERY = 8
PEOPLE = ("Kimura (the opponent)", "Sato", "Takada (spectator)")
STEPS = [(PEOPLE[n % 3], f"A constant question, number {n + 1}?") for n in range(9)]  # the shipped calls: 7-10
REPLY = "“I drew one, and there were two. I haven't put them in my hand, and I called you at once.”"


def _sign_in() -> None:
    state = st.session_state
    if state.get("sign-in-name", "").strip() and state.get("sign-in-pin", ""):
        state["floor-trainee"] = state["sign-in-name"].strip()
    state["sign-in-pin"] = ""


def _check(form_key: str) -> None:
    state = st.session_state
    infraction, penalty = state.get(f"{form_key}-infraction"), state.get(f"{form_key}-penalty")
    if infraction is None or penalty is None:
        state["floor-incomplete"] = True
        return
    card = state["floor-card"]
    card["answer"] = (infraction, penalty, tuple(state.get(f"{form_key}-fixes") or ()))
    card["correct"] = random.random() < 0.5


def _dealt(n: int) -> dict:
    """Card number ``n``, a floor call one time in ``FLOOR_CALL_EVERY``."""
    return {"n": n, "answer": None, "correct": None, "taken": [], "ruled": False,
            "floor_call": random.random() < 1 / FLOOR_CALL_EVERY}


def _next() -> None:
    card = st.session_state["floor-card"]
    card.update(_dealt(card["n"] + 1))


def _take_step(card: dict, number: int) -> None:
    card["taken"].append(number)


def _rule(card: dict, on: bool) -> None:
    card["ruled"] = on


def sidebar() -> None:
    with st.sidebar:
        st.markdown("### :material/gavel: Judge Trainer")
        st.radio("言語 / Language", ["日本語", "English"], index=1, horizontal=True, key="language")
        st.subheader("Trainee", anchor=False)
        trainee = st.session_state.get("floor-trainee")
        if trainee:
            st.markdown(f":material/person: **{trainee}**")
            if st.button("Sign out", icon=":material/logout:", key="sign-out"):
                st.session_state.pop("floor-trainee", None)
            with st.expander("Change my PIN", icon=":material/key:"):
                with st.form("change-pin", border=False):
                    for label in ("Current PIN", "New PIN", "Same PIN again"):
                        st.text_input(label, type="password")
                    st.form_submit_button("Change my PIN")
        else:
            with st.form("sign-in", border=False):
                st.text_input("Name", max_chars=60, key="sign-in-name")
                st.text_input("PIN", type="password", max_chars=64, key="sign-in-pin")
                st.form_submit_button("Sign in", type="primary", icon=":material/login:", key="sign-in-submit",
                                      on_click=_sign_in)
            with st.expander("New trainee", icon=":material/person_add:"):
                with st.form("new-trainee", border=False):
                    st.text_input("Name", max_chars=60)
                    st.text_input("PIN", type="password", max_chars=64)
                    st.text_input("Same PIN again", type="password", max_chars=64)
                    st.form_submit_button("Add me", icon=":material/person_add:")
        st.session_state["floor-due"] = st.empty()  # drawn by the card's fragment, as the app's is
        st.subheader("Games", anchor=False)
        st.multiselect("Games", ["Pokémon TCG", "Yu-Gi-Oh! OCG"], default=["Pokémon TCG", "Yu-Gi-Oh! OCG"],
                       key="games")
        st.multiselect("Categories", [f"Category {n}" for n in range(15)], key="categories")


def practice() -> None:
    st.title("Practice", anchor=False)
    if not st.session_state.get("floor-trainee"):
        st.info("Sign in, or add yourself, in the sidebar to start.")
        return
    card_area()


@st.fragment
def card_area() -> None:
    """The card, its form, its feedback: Check and Next card run only this (and the due count)."""
    _draw_due()
    card = st.session_state.setdefault("floor-card", _dealt(1))
    answered = card["answer"] is not None
    st.subheader(f"A constant card, showing {card['n']}", anchor=False)
    st.caption("Yu-Gi-Oh! OCG · ★★☆" + (" `procedure` `draw`" if answered else ""))
    with st.container(border=True):
        st.markdown(SITUATION)
    form_key = f"answer-{card['n']}"
    if not answered and card["floor_call"] and not investigation(card, form_key):
        return
    if not answered:
        with st.form(form_key):
            st.selectbox("Infraction", INFRACTIONS, index=None, placeholder="Choose an infraction",
                         key=f"{form_key}-infraction")
            st.radio("Penalty", PENALTIES, index=None, horizontal=True, key=f"{form_key}-penalty")
            st.multiselect("Fix", FIXES, placeholder="No fix", help="Every fix the situation needs.",
                           key=f"{form_key}-fixes")
            st.form_submit_button("Check", type="primary", on_click=_check, args=(form_key,))
        if st.session_state.pop("floor-incomplete", False):
            st.warning("Choose an infraction and a penalty.")
        return
    feedback(card)
    st.button("Next card", type="primary", key=f"next-{card['n']}", on_click=_next)


def investigation(card: dict, form_key: str) -> bool:
    """A floor call (``card``: the steps taken, whether Rule was pressed), as the app draws
    one: the round clock, the conversation so far, then the open steps as buttons and Rule;
    or, once Rule is pressed, Back (and the answer form below: True). A step's button adds a
    reply in its callback, as the app's keeps the step."""
    taken = card["taken"]
    with st.container(key="round-clock"):
        used = len(taken) * 20
        st.markdown(f":blue-badge[:material/timer: Round time {used // 60}:{used % 60:02d} of 3:00]")
    if not taken:
        st.caption("Nothing asked or checked yet. Choose whom to ask and what to look at below.")
    for number in taken:
        person, question = STEPS[number]
        with st.chat_message("user", avatar=":material/gavel:"):
            st.markdown(f"To {person}: {question}")
        with st.chat_message("assistant", avatar=":material/person:"):
            st.markdown(f"**{person}**  \n{REPLY}")
    if card["ruled"]:
        st.button("Back to the table", key=f"{form_key}-back", type="tertiary", icon=":material/arrow_back:",
                  on_click=_rule, args=(card, False))
        return True
    with st.container(border=True):
        for number, (person, question) in enumerate(STEPS):
            if number in taken:
                continue
            if number % 3 == 0:
                st.markdown(f"**Ask {person}**")
            st.button(question, key=f"{form_key}-step-{number}", icon=":material/record_voice_over:",
                      on_click=_take_step, args=(card, number), width="stretch")
    st.button("Rule", key=f"{form_key}-rule", type="primary", icon=":material/gavel:",
              help="Stop investigating and give your ruling.", on_click=_rule, args=(card, True))
    st.button("I don't know — show the answer", key=f"{form_key}-dont-know", type="tertiary", icon=":material/help:")
    return False


def _draw_due() -> None:
    """The sidebar's due count, drawn from a fragment as the app's ``answer_flow.card_fragment`` does."""
    st.session_state["floor-due"].caption(":material/event_repeat: Due for review: 0")


def feedback(card: dict) -> None:
    """About as many elements as the app's feedback, in its shape: the verdict and one line of
    why, then the marks, the standard answer, why and the lines folded in one expander, drawn
    once opened (``quiz.ui.folds``, as the app's)."""
    infraction, penalty, fixes = card["answer"]
    if card["correct"]:
        st.success("Right: infraction, penalty and fixes.")
    else:
        st.error("Not quite: see the standard answer below.")
    st.markdown(f":material/lightbulb: “{INFRACTIONS[3]}”: {PENALTIES[1]}, under Document › Section 4.")
    details = fold("The details, and the lines of the document", f"details-{card['n']}", icon=":material/menu_book:")
    if details is None:
        return
    with details:
        st.markdown("#### In the document")
        for number in (12, 48):
            st.markdown(f"> 原文の行 {number}。ここに文書の一節が入る。\n\n*Document, line {number}*")
            st.caption("The line of the document, in English.")
        for column, (label, chosen) in zip(st.columns(3), (("Infraction", infraction), ("Penalty", penalty),
                                                           ("Fix", ", ".join(fixes) or "No fix"))):
            with column:
                st.markdown(f":green[:material/check_circle:] **{label}** · right")
                st.caption(f"Your answer: {chosen}")
        st.markdown("#### Standard answer")
        st.markdown("\n".join(f"- **{k}**: {v}" for k, v in (
            ("Infraction", INFRACTIONS[3]), ("Penalty", PENALTIES[1]), ("Required fixes", FIXES[0]),
            ("Applies to", "the match"))))
        st.markdown("#### Why")
        st.markdown("- The player drew one card more than the rules allow.\n- Nobody else gained from it.")
        with st.expander("More lines of the document"):
            st.markdown("> もう一つの行。\n\n*Document, line 60*")
        st.caption("Card drawn from: Document, line 12")


def _start_exam() -> None:
    # the app's custom exam draws from every kind of card: its floor calls as often as Practice deals them
    floor_calls = {index: {"taken": [], "ruled": False} for index in range(EXAM_QUESTIONS)
                   if random.random() < 1 / FLOOR_CALL_EVERY}
    st.session_state["floor-exam"] = {"deadline": time.time() + EXAM_MINUTES * 60, "index": 0, "answers": {},
                                      "saves": 0, "done": False, "floor_calls": floor_calls}


def _save_exam_answer(form_key: str) -> None:
    state = st.session_state
    exam = state["floor-exam"]
    infraction, penalty = state.get(f"{form_key}-infraction"), state.get(f"{form_key}-penalty")
    if infraction is None or penalty is None:
        state["floor-incomplete"] = True
        return
    if time.time() < exam["deadline"]:  # the app's late answers are not stored either
        exam["answers"][exam["index"]] = (infraction, penalty)
        exam["saves"] += 1  # a new form, filled with the answer just stored


def _move(step: int) -> None:
    exam = st.session_state["floor-exam"]
    exam["index"] = min(max(exam["index"] + step, 0), EXAM_QUESTIONS - 1)


def _pick(key: str) -> None:
    number = st.session_state.get(key)
    if isinstance(number, int):
        st.session_state["floor-exam"]["index"] = number


def _hand_in() -> None:
    st.session_state["floor-exam"]["done"] = True


def _leave_results() -> None:
    st.session_state.pop("floor-exam", None)


def exam_page() -> None:
    st.title("Mock exam", anchor=False)
    if not st.session_state.get("floor-trainee"):
        st.info("Sign in, or add yourself, in the sidebar to start.")
        return
    exam = st.session_state.get("floor-exam")
    if exam is not None and time.time() >= exam["deadline"]:
        exam["done"] = True  # closed at its deadline, as the app closes an expired exam
    if exam is None:
        st.caption("Choose a preset, or set up your own exam.")
        st.button("Start this exam", key="exam-start-custom", type="primary", on_click=_start_exam)
    elif exam["done"]:
        right = len(exam["answers"]) // 2
        st.error(f"Not passed — {right} of {EXAM_QUESTIONS} right")
        cols = st.columns(4)
        for column, (label, value) in zip(cols, (("Score", f"{right} / {EXAM_QUESTIONS}"), ("Percent", "50%"),
                                                 ("Pass mark", "80%"), ("Unanswered", "0"))):
            column.metric(label, value)
        st.button("Back to the exams", key="exam-back", on_click=_leave_results)
    else:
        exam_banner(exam)
        exam_area()


def exam_banner(exam: dict) -> None:
    """The exam's name and its clock, drawn with the page above the question's fragment, as
    in the app: a Save or a Next draws neither again."""
    name, clock = st.columns([4, 1], vertical_alignment="bottom")
    with name:
        st.caption("Custom exam")
    with clock:
        left = timedelta(seconds=max(exam["deadline"] - time.time(), 0))
        exam_clock("Time left", clock_text(left), left)


@st.fragment
def exam_area() -> None:
    """The exam's question, a fragment as in the app: Save, Next and Previous run only this
    (and the due count); handed in or over, the whole page runs and shows the results."""
    _draw_due()
    exam = st.session_state["floor-exam"]
    if exam["done"] or time.time() >= exam["deadline"]:
        st.rerun(scope="app")
    exam_question(exam)


def exam_question(exam: dict) -> None:
    """The exam's head (number, progress, the navigator), the question, its form, the flag,
    the moves."""
    index, answered = exam["index"], len(exam["answers"])
    st.markdown(f"**Question {index + 1} of {EXAM_QUESTIONS}**")
    st.progress(answered / EXAM_QUESTIONS, text=f"{answered} of {EXAM_QUESTIONS} answered")
    st.pills("Questions", list(range(EXAM_QUESTIONS)), default=index, key=f"exam-nav-{index}",
             format_func=lambda n: f"{n + 1} {'✓' if n in exam['answers'] else ''}".strip(),
             help="✓ answered, ⚑ flagged for later", on_change=_pick, args=(f"exam-nav-{index}",))
    st.subheader(f"A constant card, question {index + 1}", anchor=False)
    st.caption("Yu-Gi-Oh! OCG · ★★☆")
    with st.container(border=True):
        st.markdown(SITUATION)
    saved = exam["answers"].get(index)
    if saved is not None:
        st.info(f"Saved: {saved[0]}, {saved[1]}. You can change it until you hand in; it is marked then.")
    form_key = f"exam-{index}-{exam['saves']}"
    floor_call = exam["floor_calls"].get(index)
    if saved is None and floor_call is not None and not investigation(floor_call, form_key):
        exam_moves(index, answered)
        return
    with st.form(form_key):
        st.selectbox("Infraction", INFRACTIONS, index=None, placeholder="Choose an infraction",
                     key=f"{form_key}-infraction")
        st.radio("Penalty", PENALTIES, index=None, horizontal=True, key=f"{form_key}-penalty")
        st.multiselect("Fix", FIXES, placeholder="No fix", key=f"{form_key}-fixes")
        st.form_submit_button("Change my answer" if saved else "Save answer", type="primary",
                              on_click=_save_exam_answer, args=(form_key,))
    if st.session_state.pop("floor-incomplete", False):
        st.warning("Choose an infraction and a penalty.")
    exam_moves(index, answered)


def exam_moves(index: int, answered: int) -> None:
    """The flag, Previous, Next and Hand in, below the question."""
    st.button("Flag for later", key=f"exam-flag-{index}", icon=":material/flag:", type="tertiary")
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button("Previous", key="exam-previous", disabled=index == 0, on_click=_move, args=(-1,))
        st.button("Next", key="exam-next", disabled=index == EXAM_QUESTIONS - 1, on_click=_move, args=(1,))
        st.space("stretch")
        st.caption(f"{EXAM_QUESTIONS - answered} questions not answered yet", width="content")
        st.button("Hand in", key="exam-hand-in", type="primary", on_click=_hand_in)


def other_page(title: str):
    def page() -> None:
        st.title(title, anchor=False)
        st.info("Sign in, or add yourself, in the sidebar to start.")
    page.__name__ = f"floor_{title.lower().replace(' ', '_')}"
    return page


st.set_page_config(page_title="Judge Trainer floor", layout="wide")
sidebar()
OWN_PAGES = {"practice.py": practice, "exam.py": exam_page}  # the others only ask to sign in
pages = [st.Page(OWN_PAGES.get(entry.file) or other_page(t(entry.title, "en")), title=t(entry.title, "en"),
                 icon=entry.icon, default=entry.url_path is None, url_path=entry.url_path)
         for entry in PAGE_TABLE]
st.navigation(pages, position="top").run()
