"""The upload quota in front of Streamlit's upload manager (quiz.ui.streamlit_internals.upload_limit).

The first tests fail when Streamlit changes under the patch: another signature of a wrapped method, or an upload route or ``AppSession`` that no
longer calls them (then the patch may miss uploads, or be needless). The others send PUTs
to Streamlit's own upload route, built around a real ``MemoryUploadedFileManager`` with the
wrapper installed. Against a real server: ``tests/reliability/test_upload_quota.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.web.server.starlette import starlette_routes

from quiz.access.upload_quota import Refusal, UploadLedger
from quiz.content.uploads import MIB
from quiz.ui.streamlit_internals import upload_limit
from tests.ui.streamlit_internals.conftest import NOT_WRITTEN_FOR

SESSION = "a-session"
LARGEST = 2 * MIB - 4096  # about the largest file the route takes: it counts the multipart framing too


def test_written_for_the_pinned_streamlit() -> None:
    assert upload_limit.check_internals() == []  # the version: test_version.py


def test_streamlit_keeps_every_upload_of_a_session_until_it_ends() -> None:
    """What the quota is for: the manager takes any file id and frees a session's files only
    when asked to (AppSession.shutdown)."""
    manager = MemoryUploadedFileManager("/upload")
    original = upload_limit._original("add_file")
    for n in range(3):
        original(manager, SESSION, SimpleNamespace(file_id=f"made-up-{n}", data=b"x" * 10))
    assert len(manager.file_storage[SESSION]) == 3


def test_install_wraps_the_upload_manager_once(upload_quota_undone) -> None:
    assert upload_limit.install()
    ledger = upload_limit.installed_ledger()
    assert ledger is not None
    assert upload_limit.install()
    assert upload_limit.installed_ledger() is ledger  # not wrapped twice
    for name in upload_limit.PARAMETERS:
        method = getattr(MemoryUploadedFileManager, name)
        assert method.__wrapped__ is not None and not hasattr(method.__wrapped__, "__wrapped__")


def test_install_is_refused_under_another_streamlit(monkeypatch, another_streamlit, caplog) -> None:
    monkeypatch.setattr(upload_limit, "installed_ledger", lambda: None)
    for name in upload_limit.PARAMETERS:  # whatever install would do, undone
        monkeypatch.setattr(MemoryUploadedFileManager, name, getattr(MemoryUploadedFileManager, name))
    with caplog.at_level(logging.ERROR):
        assert not upload_limit.install()
    assert f"is written for Streamlit {NOT_WRITTEN_FOR}" in caplog.text


def test_install_is_refused_with_a_log_error_on_other_internals(monkeypatch, caplog) -> None:
    monkeypatch.setattr(upload_limit, "installed_ledger", lambda: None)
    monkeypatch.setitem(upload_limit.PARAMETERS, "add_file", ("self", "session_id", "file", "more"))
    with caplog.at_level(logging.ERROR, logger=upload_limit.__name__):
        assert not upload_limit.install()
    assert "upload quota not installed: MemoryUploadedFileManager.add_file(self, session_id" in caplog.text


@pytest.fixture
def uploads(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, MemoryUploadedFileManager, UploadLedger]]:
    """Streamlit's upload route around a fresh manager, behind the wrapper with a fresh ledger."""
    ledger = UploadLedger(upload_limit.QUOTA)
    for name, method in upload_limit.wrapped(ledger).items():
        monkeypatch.setattr(MemoryUploadedFileManager, name, method)
    monkeypatch.setattr(starlette_routes, "is_xsrf_enabled", lambda: False)
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    runtime = SimpleNamespace(is_active_session=lambda session_id: True)
    app = Starlette(routes=starlette_routes.create_upload_routes(runtime, manager, None))  # type: ignore[arg-type]
    with TestClient(app) as client:
        yield client, manager, ledger


def put(client: TestClient, file_id: str, size: int = MIB, session: str = SESSION) -> tuple[int, str]:
    response = client.put(f"/_stcore/upload_file/{session}/{file_id}", files={"file": ("pack.zip", b"\0" * size)})
    return response.status_code, response.text


def test_an_upload_to_a_session_no_uploader_armed_is_refused(uploads) -> None:
    client, manager, ledger = uploads
    [info] = manager.get_upload_urls(SESSION, ["pack.zip"])
    statuses = [put(client, file_id)[0] for file_id in (info.file_id, "made-up-1", "made-up-2")]
    assert statuses == [403, 403, 403]  # before: 204 each, kept until the session ends
    assert manager.file_storage.get(SESSION, {}) == {} and ledger.held() == (0, 0)


def test_an_armed_session_uploads_to_its_issued_ids_within_its_quota(uploads, caplog) -> None:
    client, manager, ledger = uploads
    ledger.arm(SESSION)
    with caplog.at_level(logging.WARNING, logger=upload_limit.__name__):
        assert put(client, "made-up")[0] == 403
    infos = manager.get_upload_urls(SESSION, ["a.zip", "b.zip", "c.zip"])
    assert put(client, infos[0].file_id, LARGEST) == (204, "")
    assert put(client, infos[1].file_id, LARGEST)[0] == 204
    with caplog.at_level(logging.WARNING, logger=upload_limit.__name__):
        status, detail = put(client, infos[2].file_id, 10)
    assert status == 413 and "at most 2 uploaded files" in detail
    assert "refused (unknown_file)" in caplog.text and "refused (" not in caplog.text.split("unknown_file")[1]
    assert ledger.held(SESSION) == (2, 2 * LARGEST) and len(manager.file_storage[SESSION]) == 2
    assert client.delete(f"/_stcore/upload_file/{SESSION}/{infos[0].file_id}").status_code == 204
    assert ledger.held(SESSION) == (1, LARGEST)  # the uploader's ✕: room again
    assert put(client, infos[2].file_id, 10)[0] == 204
    assert ledger.take_refusal(SESSION) is Refusal.SESSION_FULL


def test_the_server_refuses_beyond_its_quota_with_429(uploads) -> None:
    client, manager, ledger = uploads
    quota = upload_limit.QUOTA
    sessions = [f"s{n}" for n in range(quota.server_files // quota.session_files + 1)]
    statuses = []
    for session in sessions:
        ledger.arm(session)
        for info in manager.get_upload_urls(session, ["a.zip", "b.zip"]):
            statuses.append(put(client, info.file_id, LARGEST, session)[0])
    assert statuses.count(204) == quota.server_files
    assert statuses[-2:] == [429, 429]
    assert ledger.held() == (quota.server_files, quota.server_files * LARGEST)


def test_a_released_session_frees_its_files(uploads) -> None:
    client, manager, ledger = uploads
    ledger.arm(SESSION)
    [info] = manager.get_upload_urls(SESSION, ["a.zip"])
    assert put(client, info.file_id)[0] == 204
    manager.remove_session_files(SESSION)  # as AppSession.shutdown, and release_uploads, call it
    assert SESSION not in manager.file_storage
    assert ledger.held() == (0, 0) and not ledger.armed(SESSION)
    assert put(client, info.file_id)[0] == 403


def test_streamlits_source_is_read_once_per_process(monkeypatch) -> None:
    """Where the quota cannot be installed (AppTest's runtime), ``install`` checks again on every
    run: the source is not read each time (10 ms a run)."""
    import inspect

    read: list[object] = []
    original = inspect.getsource

    def counted(function: object) -> str:
        read.append(function)
        return original(function)  # type: ignore[arg-type]

    upload_limit._handoff_problems.cache_clear()
    monkeypatch.setattr(inspect, "getsource", counted)
    for _ in range(3):
        assert upload_limit.check_internals() == []
    assert len(read) == len(upload_limit.HANDOFFS)
