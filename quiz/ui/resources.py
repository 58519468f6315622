"""Process-wide resources: the loaded content and the store, built once per server.

The content of the folders is loaded once; the packs stored in the database are added to it
by ``quiz.db.packs.ServedContent``, again whenever the packs' version moves (an import or a
removal on any server), without a restart.

Memoised with ``functools.lru_cache`` behind a lock rather than ``st.cache_resource``:
every page run asks for both, and Streamlit's cache hashes its arguments on each call,
which cost more than the rest of the sidebar. The lock makes the first sessions of a
fresh server wait for one load instead of each loading the content.
"""

from __future__ import annotations

import gc
import os
import threading
from functools import lru_cache
from pathlib import Path

from quiz.content.loader import Content
from quiz.content.snapshot import load_content_snapshotted, served_paths
from quiz.db.packs import ServedContent
from quiz.db.store import Store

_CONTENT_LOCK = threading.Lock()
_STORE_LOCK = threading.Lock()
_SERVED = ServedContent()


@lru_cache(maxsize=4)
def _content(rulesets: str, cards: tuple[str, ...]) -> Content:
    loaded = load_content_snapshotted(Path(rulesets), [Path(p) for p in cards])
    _keep_out_of_collections()
    return loaded


def _keep_out_of_collections() -> None:
    """Move every object alive now (the imported libraries and the content) out of the
    garbage collector's generations (``gc.freeze``): they live as long as the server, and
    each full collection would otherwise walk them all again. What is already garbage is
    collected first, so none of it is kept."""
    gc.collect()
    gc.freeze()


def content() -> Content:
    """The content the app serves: the folders' (``quiz.content.snapshot.served_paths``:
    rulesets, shipped cards and the local content folder, each settable by the environment),
    loaded once per set of folders, with every pack stored in the database. Each store's
    trainees are shown ``quiz.content.stored.store_view`` of it."""
    with _CONTENT_LOCK:
        rulesets, cards = served_paths()
        folders = _content(str(rulesets), tuple(map(str, cards)))
    return _SERVED.get(store(), folders)


def reload_content() -> None:
    """Forget the folders' loaded content: the next run of any page loads it afresh (a changed
    content folder; stored packs need no reload)."""
    with _CONTENT_LOCK:
        _content.cache_clear()
        gc.unfreeze()  # so the next load's collection can free what of the old content is in cycles


@lru_cache(maxsize=8)
def _store(url: str | None) -> Store:
    return Store(url)


def store() -> Store:
    """The store for QUIZ_DATABASE_URL (default: the SQLite file under data/)."""
    with _STORE_LOCK:
        return _store(os.environ.get("QUIZ_DATABASE_URL"))
