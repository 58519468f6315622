"""Buttons that act on the row a person picked, and on no other (``quiz.db.seen``).

A picker's value comes back from the browser as the label the person saw; in the next run
Streamlit matches it against that run's options, and a label gone from them (the row was
disabled, revoked or renamed meanwhile, in another tab) falls back to the first option:
another row. So an act never reads the picker in the run after the press. The button's
callback runs first, with the rows this session last drew (bound when it drew them) and the
picker's value read against those same options: the act gets the ``Seen`` row the person
picked, as they saw it, and the core refuses it if it changed since. The outcome is left for
the run to show (``show_notice``), which draws every row as it is now.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import streamlit as st

from quiz.db.seen import Seen
from quiz.model.errors import AccountError, ChangedMeanwhileError, JoinCodeError, NameRuleError, NameTakenError
from quiz.ui.markdown import escape_markdown
from quiz.ui.shell import Shell

NOTICE_KEY = "row_action_notice"  # (slot, "success" or "error", text) left by the last act

Act = Callable[[Seen], str]  # does the act on the row; what to say when it is done


def act_button(shell: Shell, button: Callable[..., Any], label: str, *, key: str, icon: str, pick_key: str,
               shown: Mapping[Any, Seen], act: Act, slot: str) -> None:
    """Draw ``button`` (``st.button``, a column's, or ``st.form_submit_button`` in a form)
    that does ``act`` on the row picked in ``pick_key`` among ``shown`` (what this run draws
    of each row the picker offers); its outcome is shown by ``show_notice(slot)``."""
    button(label, icon=icon, key=key, on_click=_press, args=(shell, pick_key, dict(shown), act, slot))


def show_notice(slot: str) -> None:
    """The outcome of the act last pressed in ``slot``, once."""
    notice = st.session_state.get(NOTICE_KEY)
    if notice is None or notice[0] != slot:
        return
    del st.session_state[NOTICE_KEY]
    (st.success if notice[1] == "success" else st.error)(notice[2])


def leave_notice(slot: str, kind: str, text: str) -> None:
    """Leave an outcome (``kind`` "success" or "error") for ``show_notice(slot)`` to show."""
    st.session_state[NOTICE_KEY] = (slot, kind, text)


def _press(shell: Shell, pick_key: str, shown: dict[Any, Seen], act: Act, slot: str) -> None:
    """The button's callback: ``act`` on the picked row as shown; the outcome kept for the run."""
    row = shown.get(st.session_state.get(pick_key))
    try:
        if row is None:  # nothing offered under that value when the page was drawn
            raise ChangedMeanwhileError(f"no row shown as {st.session_state.get(pick_key)!r}")
        done = ("success", act(row))
    except ChangedMeanwhileError:
        done = ("error", shell.t("stores.changed_meanwhile"))
    except NameTakenError:
        done = ("error", shell.t("stores.name_taken"))
    except AccountError as error:
        done = ("error", shell.t("stores.last_admin") if error.rule == "last_admin"
                else shell.t("stores.refused", reason=escape_markdown(str(error))))
    except (NameRuleError, JoinCodeError) as error:
        done = ("error", shell.t("stores.refused", reason=escape_markdown(str(error))))
    leave_notice(slot, *done)
