"""Staging folders: a killed import's leftovers are cleaned, a live import is never half visible (16.7).

A pack is staged in ``<content>/.staging-*`` and renamed into place once checked. An import
killed mid-way used to leave its staging folder in the content folder for good.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import quiz.content.packs as content_pack
from quiz.content.loader import RULESETS_DIR, card_files, load_content
from quiz.content.packs import (
    STAGING_GRACE_S,
    STAGING_PREFIX,
    check_pack,
    clean_staging,
    existing_card_ids,
    import_pack,
    imported_packs,
)
from tests.pack_files import knowledge, scenario, zip_of

ROOT = Path(__file__).resolve().parents[2]


def _age(path: Path, seconds: float) -> None:
    """Make ``path`` look ``seconds`` old (its modification time)."""
    then = time.time() - seconds
    os.utime(path, (then, then))


def _staging(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{STAGING_PREFIX}*"))


def _pack(n: int) -> bytes:
    return zip_of({f"late-{n}.yaml": scenario(f"pack-late-{n}"), f"more/late-{n}-b.yaml": scenario(f"pack-late-{n}-b"),
                   f"k-{n}.yaml": knowledge(f"pack-k-{n}")})


def test_a_leftover_staging_folder_disappears_and_nothing_else(tmp_path: Path):
    folder = tmp_path / "content"
    stale = folder / f"{STAGING_PREFIX}killed"
    (stale / "yugioh-ocg").mkdir(parents=True)
    (stale / "yugioh-ocg" / "late.yaml").write_text(scenario(), encoding="utf-8")
    _age(stale, STAGING_GRACE_S + 5)
    young = folder / f"{STAGING_PREFIX}starting"  # an import that has just created it
    young.mkdir()
    pack = folder / "my-pack-20240101-000000-abcdef" / "yugioh-ocg"
    pack.mkdir(parents=True)
    _age(pack.parent, 10 * STAGING_GRACE_S)
    other = folder / ".git"
    other.mkdir()
    _age(other, 10 * STAGING_GRACE_S)

    assert clean_staging(folder) == [stale]
    assert sorted(p.name for p in folder.iterdir()) == sorted([young.name, pack.parent.name, ".git"])
    assert clean_staging(tmp_path / "missing") == []


def test_a_killed_import_leaves_a_folder_that_the_next_import_removes(tmp_path: Path):
    folder = tmp_path / "content"
    child = subprocess.Popen(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from pathlib import Path
            import quiz.content.packs as content_pack
            from tests.pack_files import scenario

            def stalled(*args, **kwargs):  # killed while the staged pack is being checked
                print("staged", flush=True)
                time.sleep(600)  # intended: the child is killed here, not a wait on state

            content_pack.load_content = stalled
            content_pack.import_pack("p.yaml", scenario().encode(), Path({str(folder)!r}))
        """)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout.readline().strip() == "staged"
        [staging] = _staging(folder)
        _age(staging, 10 * STAGING_GRACE_S)  # however old: a live import holds it
        assert clean_staging(folder) == [] and staging.is_dir()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        child.stdout.close()
    assert _staging(folder) == [staging]  # the leftover of issue 16.7
    _age(staging, STAGING_GRACE_S + 5)
    report = check_pack("next.yaml", knowledge().encode("utf-8"), folder)  # an import starts: cleans first
    assert report.ok
    assert _staging(folder) == []


def test_a_live_import_is_invisible_until_it_is_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "content"
    staged, release = threading.Event(), threading.Event()
    load = content_pack.load_content

    def paused(*args, **kwargs):
        staged.set()
        assert release.wait(30)
        return load(*args, **kwargs)

    monkeypatch.setattr(content_pack, "load_content", paused)
    result = {}
    importer = threading.Thread(target=lambda: result.update(report=import_pack("pack.zip", _pack(1), folder)))
    importer.start()
    try:
        assert staged.wait(30)
        [staging] = _staging(folder)
        assert len(card_files([staging])) == 3  # staged in full, and yet:
        assert card_files([folder]) == []
        assert load_content(RULESETS_DIR, [folder], tmp_path).cards == {}
        assert imported_packs(folder).empty and existing_card_ids([folder]) == {}
        _age(staging, 10 * STAGING_GRACE_S)
        assert clean_staging(folder) == [] and staging.is_dir()  # held by the live import
    finally:
        release.set()
        importer.join(30)
    report = result["report"]
    assert report.ok and report.imported_to is not None
    assert len(card_files([folder])) == 3 and _staging(folder) == []
    assert sorted(load_content(RULESETS_DIR, [folder], tmp_path).cards) == ["pack-k-1", "pack-late-1", "pack-late-1-b"]


def test_an_observer_sees_every_pack_whole_or_not_at_all(tmp_path: Path):
    folder = tmp_path / "content"
    folder.mkdir()
    seen: dict[str, set[int]] = {}
    vanished: list[str] = []
    done = threading.Event()

    def observe() -> None:
        while not done.is_set():
            try:
                for path in card_files([folder]):
                    pack = path.relative_to(folder).parts[0]
                    seen.setdefault(pack, set()).add(len(card_files([folder / pack])))
            except FileNotFoundError as error:  # the walk entered a staging folder as it was renamed
                vanished.append(str(error))

    observer = threading.Thread(target=observe)
    observer.start()
    try:
        for n in range(8):
            assert import_pack(f"pack-{n}.zip", _pack(n), folder).ok
    finally:
        done.set()
        observer.join(30)
    assert len(card_files([folder])) == 8 * 3
    assert seen and all(counts == {3} for counts in seen.values()), seen
    assert all(STAGING_PREFIX in error for error in vanished), vanished
