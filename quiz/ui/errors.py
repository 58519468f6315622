"""The one place where a failure below the pages becomes words for the visitor.

A database that cannot be opened, reached or written (a corrupt SQLite file, a PostgreSQL
server that is down, a read-only or full disk) gets a page that says what is wrong and what
to do, in both languages; the detail (the exception, its traceback, the URL) goes only to the
server's log. An answer whose saving failed is said to be unsaved, its feedback is never
drawn, and a "Try again" button sends the same answer again. Anything else is a bug and is
left to Streamlit (which shows no detail either, ``client.showErrorDetails = "none"``).

``app.py`` runs the sidebar and the page inside ``database_guard``. An answer unsaved is an
``AnswerLostError`` (raised by ``quiz.db.submissions.submit_answer``, the one path from an
answer to the database, from the failure of the database).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

from quiz.db.storage_errors import storage_problem
from quiz.model.errors import AnswerLostError
from quiz.model.text import LANGUAGES
from quiz.model.words import pick_language, t

log = logging.getLogger(__name__)

def _languages() -> tuple[str, ...]:
    """The visitor's language first, then the other: the sidebar may not have run."""
    chosen = st.session_state.get("language")
    if chosen not in LANGUAGES:
        chosen = pick_language(st.query_params.get("lang"), st.context.locale)
    return (chosen, *(other for other in LANGUAGES if other != chosen))


def database_failure_words(error: BaseException) -> str | None:
    """For a widget's callback, which runs before the page and outside ``database_guard``: log
    a failure of the database and give the key of the words that explain it (the form shows
    them), or None for anything else (a bug, which the caller raises again)."""
    kind = storage_problem(error)
    if kind is None:
        return None
    log.error("database failure (%s) in a form's callback", kind, exc_info=error)
    return f"errors.database_{kind}"


def show_database_error(error: BaseException, retry: Callable[[], None] | None = None) -> None:
    """Log ``error`` with its traceback and draw the page that explains it; for an answer
    not saved, a "Try again" button whose callback ``retry`` gives the same answer again."""
    kind = storage_problem(error) or "unreachable"
    lost = isinstance(error, AnswerLostError)
    log.error("database failure (%s)%s", kind, "; an answer was not saved" if lost else "", exc_info=error)
    languages = _languages()
    for language in languages:
        lines = []
        if lost:
            lines.append(f"**{t('errors.answer_not_saved', language)}** {t('errors.answer_not_saved_help', language)}")
        lines.append(f"**{t('errors.database_title', language)}**")
        lines.append(t(f"errors.database_{kind}", language))
        lines.append(t("errors.what_to_do", language))
        st.error("\n\n".join(lines), icon=":material/database:")
    if lost and retry is not None:  # the same answer sent again, once the database works: nothing to choose again
        st.button(t("errors.try_again", languages[0]), icon=":material/refresh:", key="try-again-unsaved",
                  on_click=retry)


@contextmanager
def database_guard(retry: Callable[[], None] | None = None) -> Iterator[None]:
    """Run the sidebar and the page; a database failure shows its page (``retry``: see
    ``show_database_error``) and ends the run.

    Streamlit's own control flow (``st.stop``, ``st.rerun``, page switches) passes through:
    it is not an ``Exception`` failure of the database.
    """
    try:
        yield
    except Exception as error:
        if storage_problem(error) is None:
            raise
        show_database_error(error, retry)
        st.stop()
