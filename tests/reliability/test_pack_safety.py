"""Uploaded packs, fuzzed: nothing lands on disk, nothing partial is imported.

tests/test_pack_upload.py and tests/test_content_pack.py check each rule with a chosen
example (size limits, one ``..`` entry, one absolute entry, a symlink, a broken file).
Here hypothesis builds zips from hostile entry names (``..`` and absolute paths in POSIX,
Windows and UNC spellings), hostile upload names and a mix of valid and broken card files,
and checks the whole contract on each: the tree around the content folder is untouched (a
pack goes to the database, quiz.db.packs), a pack is imported whole (every file, as one pack)
exactly when every entry is safe and every card valid, and otherwise nothing is stored.
Concurrent imports of the same card id import it once.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete

from quiz.db.packs import import_pack, list_packs, stored_packs
from quiz.db.store import Store
from quiz.db.tables import content_pack_cards, content_pack_files, content_packs
from tests.databases import sqlite_url
from tests.pack_files import knowledge, scenario, zip_of

pytestmark = pytest.mark.reliability

SEGMENTS = ["..", ".", "cards", "yugioh-ocg", "a b", "ü", "...", "..x", "x..", "~", "%2e%2e", "con"]
SEPARATORS = ["/", "\\"]
PREFIXES = ["", "", "", "/", "\\", "\\\\server\\share\\", "C:", "C:\\", "c:/", "//", "./"]
SUFFIXES = [".yaml", ".yaml", ".yml", ".YAML", ".txt", ""]
UPLOADS = ["pack.zip", "../../escape.zip", "/etc/cron.d/pack.zip", "..\\..\\pack.zip", "C:\\pack.zip", "ü p.zip",
           "....zip", ".zip", "a/../../b.zip"]
BROKEN = "cards:\n  - id: [unclosed\n"


def independent_unsafe(name: str) -> bool:
    """The rule, written out again: an absolute path (any spelling) or a '..' part."""
    unified = name.replace("\\", "/")
    return unified.startswith("/") or bool(re.match(r"^[A-Za-z]:", unified)) or ".." in unified.split("/")


@st.composite
def entry_names(draw) -> str:
    parts = draw(st.lists(st.sampled_from(SEGMENTS), min_size=0, max_size=4))
    separator = draw(st.sampled_from(SEPARATORS))
    stem = draw(st.sampled_from(["cards", "late", "..", "x"]))
    return draw(st.sampled_from(PREFIXES)) + separator.join([*parts, stem]) + draw(st.sampled_from(SUFFIXES))


CONTENTS = {
    "scenario": lambda n: scenario(f"fuzz-card-{n}"),
    "knowledge": lambda n: knowledge(f"fuzz-knowledge-{n}"),
    "broken": lambda n: BROKEN,
    "shipped-id": lambda n: scenario("ygo-tardiness-1min-store"),
}


@st.composite
def hostile_packs(draw) -> dict[str, str]:
    """Any names, any contents: mostly refused."""
    names = draw(st.lists(entry_names(), min_size=1, max_size=5, unique_by=lambda n: n.replace("\\", "/").lower()))
    return {name: CONTENTS[draw(st.sampled_from(list(CONTENTS)))](n) for n, name in enumerate(names)}


@st.composite
def good_packs_with_one_bad_apple(draw) -> dict[str, str]:
    """Valid files under plain names, and perhaps one hostile entry (name or content) among them."""
    count = draw(st.integers(1, 4))
    entries = {f"pack/{'yugioh-ocg' if n % 2 else 'cards'}/card-{n}.yaml": CONTENTS[draw(
        st.sampled_from(["scenario", "knowledge"]))](n) for n in range(count)}
    if draw(st.booleans()):
        bad = draw(st.sampled_from(["name", "broken", "shipped-id", "suffix"]))
        name, text = f"pack/extra-{count}.yaml", CONTENTS["scenario"](count)
        if bad == "name":
            name = draw(entry_names().filter(independent_unsafe))
        elif bad == "suffix":
            name = f"pack/extra-{count}.txt"
        else:
            text = CONTENTS[bad](count)
        entries[name] = text
    return entries


@st.composite
def packs(draw) -> tuple[str, dict[str, str]]:
    return draw(st.sampled_from(UPLOADS)), draw(st.one_of(hostile_packs(), good_packs_with_one_bad_apple()))


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (None for folders)."""
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None) for p in root.rglob("*")}


# Each spelling of "outside" is tried every run, next to a valid card, whatever hypothesis draws.
ALWAYS = ["../escape.yaml", "cards/../../escape.yaml", "..\\escape.yaml", "/tmp/escape.yaml", "C:\\escape.yaml",
          "c:escape.yaml", "\\\\server\\share\\escape.yaml", "//server/escape.yaml"]


_STORES: list[Store] = []


def _store(tmp_path_factory) -> Store:
    """One SQLite database for every example (a new one each costs its migrations)."""
    if not _STORES:
        _STORES.append(Store(sqlite_url(tmp_path_factory.mktemp("db"))))
    return _STORES[0]


def with_examples(test):
    for name in ALWAYS:
        test = example(pack=("pack.zip", {"pack/good.yaml": scenario("fuzz-good"), name: scenario("fuzz-out")}))(test)
    return test


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@with_examples
@given(pack=packs())
def test_a_fuzzed_pack_is_imported_whole_or_not_at_all_and_only_inside(tmp_path_factory, pack):
    upload, entries = pack
    sandbox = tmp_path_factory.mktemp("sandbox")
    folder = sandbox / "site" / "content"
    (sandbox / "site" / "app.db").parent.mkdir(parents=True)
    (sandbox / "site" / "app.db").write_bytes(b"not to be touched")
    (sandbox / "escape.yaml").write_text("# a file a '..' entry might overwrite\n", encoding="utf-8")
    before = tree(sandbox)

    store = _store(tmp_path_factory)
    report = import_pack(store, None, upload, zip_of(entries), store_id=None, local=folder)
    stored = stored_packs(store)
    with store.engine.begin() as conn:  # the next example starts from no pack
        for table in (content_pack_cards, content_pack_files, content_packs):
            conn.execute(delete(table))

    assert tree(sandbox) == before  # nothing written, changed or removed on disk
    assert not folder.exists()

    # ".zip" alone is a hidden file without a suffix: refused as "not a card file or a zip"
    a_zip = PurePosixPath(upload.replace("\\", "/")).suffix.lower() == ".zip"
    unsafe = [name for name in entries if independent_unsafe(name)]
    for name in unsafe if a_zip else ():
        assert any(p.path == name and p.message.startswith("refused:") for p in report.problems), (name, report.problems)
    valid = a_zip and not unsafe and all(
        name.lower().endswith((".yaml", ".yml")) and text != BROKEN and "ygo-tardiness-1min-store" not in text
        for name, text in entries.items()
    )
    event("imported" if valid else "refused")
    assert report.ok == valid, report.problems
    if valid:
        [pack] = stored
        assert pack.name == report.imported and len(pack.files) == len(entries)
        assert sorted(text for _, text in pack.files) == sorted(entries.values())
    else:
        assert report.imported is None and stored == []  # not one file of a refused pack


def test_concurrent_imports_of_the_same_card_import_it_once(tmp_path):
    folder = tmp_path / "content"
    data = zip_of({"late.yaml": scenario("race-card"), "piles.yaml": knowledge("race-knowledge")})
    reports, start = [], threading.Barrier(6)
    store = Store(sqlite_url(tmp_path))

    def upload(number: int) -> None:
        start.wait(timeout=30)
        reports.append(import_pack(store, None, f"race-{number}.zip", data, store_id=None, local=folder))

    try:
        threads = [threading.Thread(target=upload, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads)
        imported = [r for r in reports if r.imported is not None]
        assert len(reports) == 6 and len(imported) == 1
        for refused in (r for r in reports if r.imported is None):
            assert {p.field for p in refused.problems} == {"cards[0].id"}
            assert all("already" in p.message for p in refused.problems)
        assert [p.name for p in list_packs(store, None, every_store=True)] == [imported[0].imported]
        assert not folder.exists()
    finally:
        store.dispose()
