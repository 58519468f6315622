"""The uploads the server keeps (quiz.access.upload_quota): only for an armed session, only to
an issued file id, within a bound per session and per server, forgotten on release."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from quiz.access.upload_quota import PACK_BYTES, Admission, Refusal, UploadLedger, UploadQuota
from quiz.content.uploads import MIB

SMALL = UploadQuota(session_files=2, session_bytes=4 * MIB, server_files=5, server_bytes=8 * MIB,
                    issued_per_session=3)


def armed(ledger: UploadLedger, session: str, *file_ids: str) -> None:
    ledger.arm(session)
    ledger.issue(session, file_ids)


def test_the_default_quota_holds_two_packs_a_session() -> None:
    quota = UploadQuota()
    assert quota.session_files == 2 and quota.session_bytes == 2 * PACK_BYTES
    assert quota.server_bytes >= quota.session_bytes and quota.server_files >= quota.session_files


def test_a_session_no_page_armed_is_refused_and_nothing_is_kept() -> None:
    ledger = UploadLedger(SMALL)
    ledger.issue("anonymous", ["a"])  # issued, but no uploader drawn: not even noted
    for file_id in ("a", "b", "c"):
        assert ledger.admit("anonymous", file_id, 2 * MIB).refusal is Refusal.NOT_ARMED
    assert ledger.held() == (0, 0)
    assert not ledger.armed("anonymous")


def test_only_issued_file_ids_are_taken() -> None:
    ledger = UploadLedger(SMALL)
    armed(ledger, "s", "issued")
    assert ledger.admit("s", "made-up", 10).refusal is Refusal.UNKNOWN_FILE
    assert ledger.admit("other", "issued", 10).refusal is Refusal.NOT_ARMED  # another session's id
    assert ledger.admit("s", "issued", 10).kept
    assert ledger.held("s") == (1, 10)


def test_only_the_latest_issued_ids_are_kept() -> None:
    ledger = UploadLedger(SMALL)
    armed(ledger, "s", *(f"id-{i}" for i in range(10)))
    assert ledger.admit("s", "id-0", 1).refusal is Refusal.UNKNOWN_FILE  # pushed out by later ones
    assert ledger.admit("s", "id-9", 1).kept


def test_a_session_holds_its_files_and_bytes_and_no_more() -> None:
    ledger = UploadLedger(SMALL)
    armed(ledger, "s", "a", "b", "c")
    assert ledger.admit("s", "a", 2 * MIB).kept
    assert ledger.admit("s", "b", 2 * MIB).kept
    assert ledger.admit("s", "c", 1).refusal is Refusal.SESSION_FULL  # a third file
    ledger.remove("s", "a")  # the uploader replaced its file
    ledger.issue("s", ["d"])
    assert ledger.admit("s", "d", 2 * MIB + 1).refusal is Refusal.SESSION_FULL  # over 4 MiB together
    assert ledger.admit("s", "d", 2 * MIB).kept
    assert ledger.held("s") == (2, 4 * MIB)


def test_an_upload_again_to_a_held_id_replaces_the_file() -> None:
    ledger = UploadLedger(SMALL)
    armed(ledger, "s", "a")
    assert ledger.admit("s", "a", 3 * MIB).kept
    assert ledger.admit("s", "a", 4 * MIB).kept  # replaces: 4 MiB held, not 7
    assert ledger.held() == (1, 4 * MIB)
    assert ledger.admit("s", "a", 4 * MIB + 1).refusal is Refusal.SESSION_FULL
    assert ledger.held() == (1, 4 * MIB)


def test_the_server_holds_its_files_and_bytes_across_sessions() -> None:
    ledger = UploadLedger(SMALL)
    for n in range(4):
        armed(ledger, f"s{n}", "a")
    assert ledger.admit("s0", "a", 4 * MIB).kept
    assert ledger.admit("s1", "a", 4 * MIB).kept
    refused = ledger.admit("s2", "a", 1)
    assert refused == Admission(Refusal.SERVER_FULL, first_refusal=True)
    ledger.release("s0")  # its tab went elsewhere: room again
    assert ledger.admit("s2", "a", 1).kept
    assert ledger.held() == (2, 4 * MIB + 1)


def test_the_server_holds_its_number_of_files() -> None:
    ledger = UploadLedger(SMALL)
    for n in range(6):
        armed(ledger, f"s{n}", "a")
    assert all(ledger.admit(f"s{n}", "a", 1).kept for n in range(5))
    assert ledger.admit("s5", "a", 1).refusal is Refusal.SERVER_FULL


def test_a_release_forgets_the_session_its_ids_and_its_refusals() -> None:
    ledger = UploadLedger(SMALL)
    armed(ledger, "s", "a", "b", "c")
    ledger.admit("s", "a", 10)
    ledger.admit("s", "b", 10)
    assert ledger.admit("s", "c", 10).first_refusal
    assert not ledger.admit("s", "c", 10).first_refusal  # logged once per session
    ledger.release("s")
    assert ledger.held() == (0, 0) and ledger.held("s") == (0, 0)
    assert not ledger.armed("s")
    assert ledger.take_refusal("s") is None
    ledger.arm("s")  # the uploader drawn again: the old ids are no longer good
    assert ledger.admit("s", "c", 10) == Admission(Refusal.UNKNOWN_FILE, first_refusal=True)


def test_removing_what_is_not_held_changes_nothing() -> None:
    ledger = UploadLedger(SMALL)
    armed(ledger, "s", "a")
    ledger.remove("s", "a")
    ledger.remove("nobody", "a")
    ledger.release("nobody")
    assert ledger.held() == (0, 0)
    assert ledger.admit("s", "a", 1).kept  # an issued id not yet used is not a held file


def test_the_latest_refusal_is_told_once() -> None:
    ledger = UploadLedger(SMALL)
    armed(ledger, "s", "a", "b")
    assert ledger.take_refusal("s") is None
    ledger.admit("s", "a", 5 * MIB)
    assert ledger.take_refusal("s") is Refusal.SESSION_FULL
    assert ledger.take_refusal("s") is None
    assert Refusal.SESSION_FULL.over_quota and Refusal.SERVER_FULL.over_quota
    assert not Refusal.NOT_ARMED.over_quota and not Refusal.UNKNOWN_FILE.over_quota


def test_refusals_are_kept_for_a_bounded_number_of_sessions() -> None:
    ledger = UploadLedger(UploadQuota(refusals_kept=3))
    for n in range(10):
        ledger.admit(f"anonymous-{n}", "x", 1)
    assert sum(ledger.take_refusal(f"anonymous-{n}") is not None for n in range(10)) == 3


def test_a_quota_needs_positive_bounds() -> None:
    with pytest.raises(ValueError, match="positive"):
        UploadQuota(server_files=0)


def test_concurrent_uploads_never_pass_the_server_bound() -> None:
    ledger = UploadLedger(UploadQuota(session_files=2, session_bytes=2 * MIB, server_files=10, server_bytes=10 * MIB))
    sessions = [f"s{n}" for n in range(40)]
    for session in sessions:
        armed(ledger, session, "a", "b")

    def offer(session: str) -> int:
        return sum(ledger.admit(session, file_id, MIB).kept for file_id in ("a", "b"))

    with ThreadPoolExecutor(max_workers=8) as pool:
        kept = sum(pool.map(offer, sessions))
    assert kept == 10
    assert ledger.held() == (10, 10 * MIB)
