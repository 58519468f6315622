"""The frame of every page: the sidebar (trainee, language, games, categories).

The language lives in the URL query string (``lang``) so a refresh or a shared link keeps
it; the trainee signs in with a PIN (``quiz.ui.sign_in``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

import streamlit as st

from quiz.content.categories import category_labels, split_key
from quiz.content.loader import Content
from quiz.content.stored import store_view
from quiz.db.reviews import due_times
from quiz.db.store import Store, Trainee
from quiz.db.study_games import keep_studied_games, studied_games
from quiz.model.attempt import utc_now
from quiz.model.text import LANGUAGES
from quiz.model.words import pick_language, t
from quiz.report.join_qr import JOIN_PARAM
from quiz.training.due_times import DueTimes
from quiz.training.exam_dates import card_games
from quiz.training.pools import card_pool
from quiz.ui import resources
from quiz.ui.sign_in import trainee_panel
from quiz.ui.streamlit_internals.words import draw_widget_words, multiselect

DUE_KEY = "due_count"  # this session's due moments: (what they count, DueTimes)
DUE_HORIZON = timedelta(minutes=5)  # how far ahead the due moments are read: answers in other tabs show within it
GAMES_FOR_KEY = "games_for"  # the trainee whose kept games the filter holds

LANGUAGE_NAMES = {"ja": "日本語", "en": "English"}
SESSION_KEY = "shell"


@dataclass(frozen=True)
class SidebarData:
    """Where the sidebar's content and due count come from: the app's own (the default), or
    constants, as the benchmark's floors draw this same sidebar without the app's work."""

    content: Callable[[], Content] = resources.content
    due: Callable[[Store, Content, int, tuple[str, ...], tuple[str, ...]], int] | None = None  # None: count them


APP_SIDEBAR = SidebarData()


@dataclass(frozen=True)
class Shell:
    """What every page needs: the language, the trainee and the chosen pool of cards."""

    language: str
    trainee: Trainee | None
    rulesets: tuple[str, ...]
    categories: tuple[str, ...]
    content: Content  # the trainee's store's view (quiz.content.stored.store_view)
    store: Store
    # where the sidebar's due count is drawn in this run and from what, to draw it again after an answer
    due_slot: Any = field(default=None, compare=False, repr=False)
    sidebar: SidebarData = field(default=APP_SIDEBAR, compare=False, repr=False)

    def t(self, key: str, **values: object) -> str:
        return t(key, self.language, **values)


def render_sidebar(data: SidebarData = APP_SIDEBAR) -> Shell:
    """Draw the sidebar and remember the result for the page that runs next."""
    store = resources.store()
    title = st.sidebar.empty()
    language = _language()
    title.markdown(f"### :material/gavel: {t('app.name', language)}")
    draw_widget_words(language)
    with st.sidebar:
        trainee = trainee_panel(store, language)
        _keep_in_url(language, trainee)
        due_slot = st.empty()
        # Only now: on a fresh server the browser draws the sign-in form while this loads.
        # A trainee is dealt only their store's view: no card of another store's pack.
        content = store_view(data.content(), trainee.store_id if trainee is not None else None)
        rulesets = _rulesets(content, language, store, trainee)
        categories = _categories(content, rulesets, language)
        if content.problems:
            st.caption(t("shell.content_problems", language, count=len(content.problems)))
    shell = Shell(language, trainee, tuple(rulesets), tuple(categories), content, store, due_slot, data)
    draw_due(shell)
    st.session_state[SESSION_KEY] = shell
    return shell


def draw_due(shell: Shell) -> None:
    """The sidebar's count of cards due for review, drawn (again, after an answer) in its place."""
    if shell.trainee is None or shell.due_slot is None:
        return
    data = shell.sidebar
    if data.due is not None:
        due = data.due(shell.store, shell.content, shell.trainee.id, shell.rulesets, shell.categories)
    else:
        due = _due(shell)
    shell.due_slot.caption(f":material/event_repeat: {t('review.sidebar_due', shell.language, n=due)}")


def current() -> Shell:
    """The shell drawn by the entry point in this run (pages run after it)."""
    shell = st.session_state.get(SESSION_KEY)
    return shell if isinstance(shell, Shell) else render_sidebar()


def require_trainee(shell: Shell) -> Trainee:
    """The signed-in trainee; without one, the page says how to start and stops (its answers
    would be no one's)."""
    if shell.trainee is None:
        st.info(shell.t("practice.need_trainee"))
        st.stop()
    return shell.trainee


def page_language() -> str:
    """The language this run is drawn in, before anything is drawn: the sidebar's choice (a
    click on it is in the session's state when the run starts), else the URL's ``lang``,
    else the browser's."""
    if st.session_state.get("language") not in LANGUAGES:  # unset, or a value no client was offered
        st.session_state["language"] = pick_language(st.query_params.get("lang"), st.context.locale)
    return str(st.session_state["language"])


def _language() -> str:
    page_language()
    choice = st.sidebar.radio(
        "言語 / Language", LANGUAGES, key="language", format_func=LANGUAGE_NAMES.__getitem__, horizontal=True
    )
    return choice


def switch_page(page: str) -> None:
    """Go to another page of the app, keeping the URL's language and trainee (Streamlit's own
    switch starts the page without them)."""
    st.switch_page(page, query_params=st.query_params.to_dict())


def _keep_in_url(language: str, trainee: Trainee | None) -> None:
    """Keep the language and the signed-in trainee's name in the URL (refreshes and links
    keep them), all in one change: each change of ``st.query_params`` is a step in the
    browser's history, so a page change stays one Back step."""
    wanted = {"lang": language}
    if trainee is not None:
        wanted["trainee"] = trainee.name
    else:  # signed out: a name or a join code from the URL only fills in the forms
        wanted.update({name: st.query_params[name] for name in ("trainee", JOIN_PARAM) if name in st.query_params})
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def _due_key(shell: Shell) -> tuple:
    """What a due count counts: the database, content, trainee and pool."""
    assert shell.trainee is not None
    return (str(shell.store.url), shell.content.fingerprint(), shell.trainee.id, shell.rulesets, shell.categories)


def _kept_due_times(shell: Shell, now: datetime) -> DueTimes | None:
    """This session's due moments of the pool drawn now, if they still hold at ``now``."""
    kept = st.session_state.get(DUE_KEY)
    if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], DueTimes) and kept[0] == _due_key(shell):
        return kept[1] if kept[1].holds_at(now) else None
    return None


def _due(shell: Shell) -> int:
    """Cards due for review now. The moments the pool's cards fall due within ``DUE_HORIZON``
    are read once per horizon (which takes in answers given in other tabs) and kept right in
    between by this session's answers (``count_answer``): a card falling due is counted at
    its moment with no query."""
    now = utc_now()
    kept = _kept_due_times(shell, now)
    if kept is None:
        assert shell.trainee is not None
        kept = due_times(shell.store, shell.trainee.id, card_pool(shell.content, shell.rulesets, shell.categories),
                         now + DUE_HORIZON, card_games(shell.content))
        st.session_state[DUE_KEY] = (_due_key(shell), kept)
    return kept.count_at(now)


def count_answer(shell: Shell, card_id: str, next_due: datetime | None) -> None:
    """Move the kept due moments by an answer (its card due next at ``next_due``), if its card
    is in the counted pool: after an answer, the count needs no query."""
    if next_due is None:
        return
    kept = _kept_due_times(shell, utc_now())  # moments of another pool or trainee are read again when drawn
    if kept is not None and card_id in card_pool(shell.content, shell.rulesets, shell.categories):
        st.session_state[DUE_KEY] = (_due_key(shell), kept.answered(card_id, next_due))


def recount_due(shell: Shell) -> None:
    """Count the due cards again and draw the count (after many schedules moved at once: an
    exam closed)."""
    st.session_state.pop(DUE_KEY, None)
    draw_due(shell)


def _rulesets(content: Content, language: str, store: Store, trainee: Trainee | None) -> list[str]:
    ids = list(content.rulesets)
    st.subheader(t("shell.games", language))
    if trainee is not None and st.session_state.get(GAMES_FOR_KEY) != trainee.id:
        # once per session and trainee: their kept games, which a reload or another device keeps
        kept = studied_games(store, trainee.id, ids)
        if kept is not None:
            st.session_state["games"] = list(kept)
        st.session_state[GAMES_FOR_KEY] = trainee.id
    # Kept by id: the widget remembers its labels, which a language switch changes.
    chosen = st.session_state.get("games", ids)
    chosen = chosen if isinstance(chosen, list) else ids
    st.session_state["games"] = [rid for rid in chosen if rid in content.rulesets]
    return multiselect(
        language,
        t("shell.games", language),
        ids,
        key="games",
        format_func=lambda rid: content.rulesets[rid].document.short_name.get(language),
        label_visibility="collapsed",
        on_change=_keep_games,
        args=(store, trainee, tuple(ids)),
    )


def _keep_games(store: Store, trainee: Trainee | None, ids: tuple[str, ...]) -> None:
    """The game filter's callback: a signed-in trainee's choice is kept as theirs (an empty one,
    a moment's state while changing games, is not)."""
    chosen = st.session_state.get("games")
    offered = [game for game in chosen if game in ids] if isinstance(chosen, list) else []
    if trainee is not None and offered:  # a value the widget never offered (crafted) is not kept
        keep_studied_games(store, trainee.id, offered, ids)


def _categories(content: Content, rulesets: list[str], language: str) -> list[str]:
    chosen_games = set(rulesets)
    labels = {key: label for key, label in category_labels(content, language, t("shell.knowledge", language)).items()
              if split_key(key)[0] in chosen_games}
    options = list(labels)
    if "categories" in st.session_state:  # drop choices of games no longer selected (or never offered)
        chosen = st.session_state.get("categories")
        st.session_state["categories"] = [c for c in chosen if c in labels] if isinstance(chosen, list) else []
    chosen = multiselect(
        language,
        t("shell.categories", language),
        options,
        default=None,
        key="categories",
        format_func=labels.__getitem__,
        placeholder=t("shell.all_categories", language),
    )
    return chosen or options
