"""Which uploads the server keeps: only for a session whose page drew an uploader, only to a
file id issued to that session, and only within a bound per session and per server.

A browser tab's uploads are kept in the server's memory until the tab's session ends, and
the upload endpoint takes any file id of any open session: bounding the size of one file
bounds nothing else. ``UploadLedger`` is the app's account of what is held:

- a session is *armed* by the page that draws an uploader (after its sign-in); any other
  session's upload is refused, as is one to a file id the session was never issued;
- an armed session holds at most ``UploadQuota.session_files`` files and
  ``session_bytes`` bytes, and the server as a whole ``server_files`` and ``server_bytes``;
- a session *released* (its page no longer draws the uploader, or the session ends)
  is forgotten: its ids, its files and its arming.

Each refusal carries its ``Refusal`` reason; the latest of an armed session is kept for its
page to tell. Nothing here knows about Streamlit: ``quiz.ui.streamlit_internals.upload_limit`` calls in from
Streamlit's upload manager (any thread), so every method takes the ledger's lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from quiz.content.uploads import UploadLimits

PACK_BYTES = UploadLimits().upload_bytes


class Refusal(Enum):
    """Why an upload was not kept."""

    NOT_ARMED = "not_armed"  # no page of this session draws an uploader
    UNKNOWN_FILE = "unknown_file"  # a file id the server never issued to this session
    SESSION_FULL = "session_full"  # the session holds its files or bytes already
    SERVER_FULL = "server_full"  # the server holds its files or bytes already

    @property
    def over_quota(self) -> bool:
        """A refusal a person with an uploader can meet (the others take a hand-made request)."""
        return self in (Refusal.SESSION_FULL, Refusal.SERVER_FULL)


@dataclass(frozen=True, slots=True)
class UploadQuota:
    """How many uploads, and how many bytes of them, the server keeps in memory."""

    session_files: int = 2  # the uploader's file, and the next one while the first is being replaced
    session_bytes: int = 2 * PACK_BYTES
    server_files: int = 32
    server_bytes: int = 32 * PACK_BYTES
    issued_per_session: int = 8  # file ids issued and not yet uploaded to, the latest kept
    refusals_kept: int = 1_024  # sessions whose latest refusal is kept for their page

    def __post_init__(self) -> None:
        if min(self.session_files, self.session_bytes, self.server_files, self.server_bytes,
               self.issued_per_session, self.refusals_kept) < 1:
            raise ValueError(f"every bound of an upload quota must be positive, not {self}")


@dataclass(slots=True)
class _Session:
    issued: OrderedDict[str, None] = field(default_factory=OrderedDict)  # oldest first
    held: dict[str, int] = field(default_factory=dict)  # file id -> bytes

    @property
    def held_bytes(self) -> int:
        return sum(self.held.values())


@dataclass(frozen=True, slots=True)
class Admission:
    """An upload offered to the ledger: kept (``refusal`` None) or refused, and whether this
    is the session's first refusal since it was last released (for a log that says it once)."""

    refusal: Refusal | None
    first_refusal: bool = False

    @property
    def kept(self) -> bool:
        return self.refusal is None


class UploadLedger:
    """The uploads kept, per session and for the server (see the module's text). Thread-safe."""

    def __init__(self, quota: UploadQuota = UploadQuota()) -> None:
        self.quota = quota
        self._lock = threading.Lock()
        self._sessions: dict[str, _Session] = {}
        # sessions refused since their last release, with their latest refusal not yet taken (None: taken)
        self._refused: OrderedDict[str, Refusal | None] = OrderedDict()
        self._files = 0
        self._bytes = 0

    def arm(self, session_id: str) -> None:
        """Let ``session_id`` upload: its page draws an uploader. Arming again changes nothing."""
        with self._lock:
            self._sessions.setdefault(session_id, _Session())

    def armed(self, session_id: str) -> bool:
        with self._lock:
            return session_id in self._sessions

    def issue(self, session_id: str, file_ids: Iterable[str]) -> None:
        """Note the file ids the server gave ``session_id`` to upload to; nothing for a session
        not armed (its uploads are refused anyway). Only the latest few are kept."""
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                return
            for file_id in file_ids:
                session.issued[file_id] = None
            while len(session.issued) > self.quota.issued_per_session:
                session.issued.popitem(last=False)

    def admit(self, session_id: str, file_id: str, size: int) -> Admission:
        """Keep an upload of ``size`` bytes to ``file_id``, or say why not. An upload to a file
        id the session holds already replaces that file."""
        with self._lock:
            refusal = self._refusal(session_id, file_id, size)
            if refusal is not None:
                first = session_id not in self._refused
                self._note_refusal(session_id, refusal)
                return Admission(refusal, first)
            session = self._sessions[session_id]
            session.issued.pop(file_id, None)
            previous = session.held.get(file_id)
            self._files += previous is None
            self._bytes += size - (previous or 0)
            session.held[file_id] = size
            return Admission(None)

    def remove(self, session_id: str, file_id: str) -> None:
        """Forget one held file (the uploader removed it)."""
        with self._lock:
            session = self._sessions.get(session_id)
            size = session.held.pop(file_id, None) if session is not None else None
            if size is not None:
                self._files -= 1
                self._bytes -= size

    def release(self, session_id: str) -> None:
        """Forget ``session_id``: its files, its ids, its arming and its refusals."""
        with self._lock:
            session = self._sessions.pop(session_id, None)
            self._refused.pop(session_id, None)
            if session is not None:
                self._files -= len(session.held)
                self._bytes -= session.held_bytes

    def take_refusal(self, session_id: str) -> Refusal | None:
        """The latest refusal of ``session_id`` not yet taken, once."""
        with self._lock:
            refusal = self._refused.get(session_id)
            if refusal is not None:
                self._refused[session_id] = None
            return refusal

    def held(self, session_id: str | None = None) -> tuple[int, int]:
        """Files and bytes held by ``session_id``, or by the server when None."""
        with self._lock:
            if session_id is None:
                return self._files, self._bytes
            session = self._sessions.get(session_id)
            return (0, 0) if session is None else (len(session.held), session.held_bytes)

    def _refusal(self, session_id: str, file_id: str, size: int) -> Refusal | None:
        session = self._sessions.get(session_id)
        if session is None:
            return Refusal.NOT_ARMED
        previous = session.held.get(file_id)
        if previous is None and file_id not in session.issued:
            return Refusal.UNKNOWN_FILE
        new_file = previous is None
        growth = size - (previous or 0)
        quota = self.quota
        if len(session.held) + new_file > quota.session_files or session.held_bytes + growth > quota.session_bytes:
            return Refusal.SESSION_FULL
        if self._files + new_file > quota.server_files or self._bytes + growth > quota.server_bytes:
            return Refusal.SERVER_FULL
        return None

    def _note_refusal(self, session_id: str, refusal: Refusal) -> None:
        self._refused[session_id] = refusal
        self._refused.move_to_end(session_id)
        while len(self._refused) > self.quota.refusals_kept:
            self._refused.popitem(last=False)
