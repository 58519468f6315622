"""Uploads the server keeps: only for a page's uploader, bounded per session and per server.

**The Streamlit internals this patches.** Streamlit 1.67 (``version.STREAMLIT_VERSIONS``).
Its upload endpoint (``streamlit/web/server/starlette/
starlette_routes.py``, ``create_upload_routes``, ``_upload_put``) takes ``PUT
/_stcore/upload_file/<session>/<file id>`` for any open session and any file id, once the
XSRF cookie (which any visitor gets) matches, reads the body (at most
``server.maxUploadSize``) and hands it to ``upload_mgr.add_file``: the runtime's
``MemoryUploadedFileManager``, which keeps every file in memory until the session ends
(``AppSession.shutdown`` calls ``remove_session_files``; a closed tab's session lingers for
``server.disconnectedSessionTTL``). File ids come from ``get_upload_urls``, which
``AppSession`` calls for any tab's ``file_urls_request``. So anyone, signed in or not, could
fill the server's memory with 2 MB files (figures in docs/RELIABILITY.md).

**What this does.** ``install`` wraps four methods of ``MemoryUploadedFileManager`` with a
``quiz.access.upload_quota.UploadLedger``: ``get_upload_urls`` notes the ids it issues,
``add_file`` offers each upload to the ledger first and, refused, raises Starlette's
``HTTPException`` (403 for a session no uploader armed or an id never issued to it, 413
when the session holds its quota, 429 when the server does), which the route answers with
its status and detail; ``remove_file`` and ``remove_session_files`` keep the ledger's count.
The pages' side, from the script thread: ``arm_uploads`` (the page draws an uploader, after
its sign-in), ``release_uploads`` (it no longer does: the session's files are dropped, and
``app.py`` calls it on every page whose ``page_table`` row draws no uploader) and
``upload_refusal`` (the session's latest refusal over its quota, for the page to say).
A session that disconnects keeps its files until Streamlit ends it, so a tab that
reconnects keeps its upload; what it holds is within its quota and the server's.

Installed by ``app.py``'s first run in the process, once; refused, with an error in the log,
when the installed Streamlit is not the version this was written for, the runtime's upload
manager is not a ``MemoryUploadedFileManager``, a wrapped method's signature differs, or the
upload route and ``AppSession`` no longer call these methods as they did;
``tests/ui/streamlit_internals/test_upload_limit.py`` fails on any of them, so an upgrade has
to look here again.
"""

from __future__ import annotations

import functools
import inspect
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from starlette.exceptions import HTTPException
from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.web.server.starlette import starlette_routes

from quiz.access.upload_quota import Refusal, UploadLedger, UploadQuota
from quiz.ui.streamlit_internals.version import fits

QUOTA = UploadQuota()
STATUS = {Refusal.NOT_ARMED: 403, Refusal.UNKNOWN_FILE: 403, Refusal.SESSION_FULL: 413, Refusal.SERVER_FULL: 429}
DETAIL = {  # what the route answers (the page says it in the visitor's language)
    Refusal.NOT_ARMED: "Upload refused: this session has no file uploader.",
    Refusal.UNKNOWN_FILE: "Upload refused: this file id was not issued to this session.",
    Refusal.SESSION_FULL: (f"Upload refused: a tab keeps at most {QUOTA.session_files} uploaded files "
                           f"({QUOTA.session_bytes // 2**20} MB); remove one, or reload the page."),
    Refusal.SERVER_FULL: "Upload refused: the server holds as many uploads as it may; try again in a few minutes.",
}
PARAMETERS = {  # MemoryUploadedFileManager's, in 1.67
    "get_upload_urls": ("self", "session_id", "file_names"),
    "add_file": ("self", "session_id", "file"),
    "remove_file": ("self", "session_id", "file_id"),
    "remove_session_files": ("self", "session_id"),
}
HANDOFFS = (  # where Streamlit calls them: (the function, the call in its source)
    (starlette_routes.create_upload_routes, "upload_mgr.add_file("),
    (starlette_routes.create_upload_routes, "upload_mgr.remove_file(session_id=session_id, file_id=file_id)"),
    (AppSession._handle_file_urls_request, "self._uploaded_file_mgr.get_upload_urls("),
    (AppSession.shutdown, "self._uploaded_file_mgr.remove_session_files(self.id)"),
)
MARK = "__quiz_upload_limit__"  # set on the wrapped add_file: installed already

log = logging.getLogger(__name__)
Method = Callable[..., Any]


def wrapped(ledger: UploadLedger) -> dict[str, Method]:
    """The four methods of ``MemoryUploadedFileManager`` behind ``ledger``, by name."""
    lock = threading.Lock()  # the ledger's decision and the manager's change, as one
    original = {name: _original(name) for name in PARAMETERS}

    def get_upload_urls(self: Any, session_id: str, file_names: Sequence[str]) -> Any:
        infos = original["get_upload_urls"](self, session_id, file_names)
        ledger.issue(session_id, [info.file_id for info in infos])
        return infos

    def add_file(self: Any, session_id: str, file: Any) -> None:
        with lock:
            admission = ledger.admit(session_id, file.file_id, len(file.data))
            if admission.kept:
                original["add_file"](self, session_id, file)
                return
        assert admission.refusal is not None
        if admission.first_refusal:
            files, size = ledger.held()
            log.warning("upload to session %s refused (%s): the server holds %d uploads, %d bytes",
                        session_id, admission.refusal.value, files, size)
        raise HTTPException(status_code=STATUS[admission.refusal], detail=DETAIL[admission.refusal])

    def remove_file(self: Any, session_id: str, file_id: str) -> None:
        with lock:
            original["remove_file"](self, session_id, file_id)
            ledger.remove(session_id, file_id)

    def remove_session_files(self: Any, session_id: str) -> None:
        with lock:
            original["remove_session_files"](self, session_id)
            ledger.release(session_id)

    methods: dict[str, Method] = {"get_upload_urls": get_upload_urls, "add_file": add_file,
                                  "remove_file": remove_file, "remove_session_files": remove_session_files}
    for name, method in methods.items():
        method.__wrapped__ = original[name]  # type: ignore[attr-defined]
        method.__doc__ = f"{original[name].__doc__ or ''}\n\nWrapped by {__name__} (upload quota)."
    setattr(add_file, MARK, ledger)
    return methods


def check_internals() -> list[str]:
    """What differs in Streamlit's internals from what this module was written for (empty
    when nothing; the version is ``version.supported``'s)."""
    problems = []
    for name, parameters in PARAMETERS.items():
        signature = inspect.signature(_original(name))
        if tuple(signature.parameters) != parameters:
            problems.append(f"MemoryUploadedFileManager.{name}{signature}, written for ({', '.join(parameters)})")
    problems.extend(_handoff_problems())
    if Runtime.exists() and type(Runtime.instance().uploaded_file_mgr) is not MemoryUploadedFileManager:
        problems.append(f"the runtime keeps uploads in {type(Runtime.instance().uploaded_file_mgr).__name__}, "
                        "written for MemoryUploadedFileManager")
    return problems


@functools.cache
def _handoff_problems() -> tuple[str, ...]:
    """The ``HANDOFFS`` no longer in Streamlit's source, read once per process: the source does
    not change while it runs, and reading it is 10 ms, which every run would pay where the
    quota cannot be installed (``install`` checks again until it is: AppTest's runtime)."""
    return tuple(f"{function.__qualname__} no longer calls {call.rstrip('(')}"
                 for function, call in HANDOFFS if call not in inspect.getsource(function))


def installed_ledger() -> UploadLedger | None:
    """The ledger behind Streamlit's upload manager, None when not installed."""
    return getattr(MemoryUploadedFileManager.add_file, MARK, None)


def install() -> bool:
    """Put the upload quota in front of Streamlit's upload manager (once per process; later
    calls do nothing). False, with an error in the log, when Streamlit's internals are not
    the ones this was written for."""
    if installed_ledger() is not None:
        return True
    if not fits(check_internals, "upload quota not installed", log):
        return False
    for name, method in wrapped(UploadLedger(QUOTA)).items():
        setattr(MemoryUploadedFileManager, name, method)
    return True


def arm_uploads() -> None:
    """Let this run's session upload: its page draws a file uploader (after its sign-in)."""
    ledger, context = installed_ledger(), get_script_run_ctx()
    if ledger is not None and context is not None:
        ledger.arm(context.session_id)


def release_uploads() -> None:
    """This run's session draws no uploader (any more): drop its files and its arming."""
    ledger, context = installed_ledger(), get_script_run_ctx()
    if ledger is not None and context is not None and ledger.armed(context.session_id):
        context.uploaded_file_mgr.remove_session_files(context.session_id)


def upload_refusal() -> Refusal | None:
    """The latest upload of this run's session refused over a quota, told once."""
    ledger, context = installed_ledger(), get_script_run_ctx()
    if ledger is None or context is None:
        return None
    refusal = ledger.take_refusal(context.session_id)
    return refusal if refusal is not None and refusal.over_quota else None


def _original(name: str) -> Method:
    method = getattr(MemoryUploadedFileManager, name)
    return getattr(method, "__wrapped__", method)
