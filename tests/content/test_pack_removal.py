"""Removing an imported pack: only a pack folder directly in the content folder, all of its cards
at once, under the folder's lock; nothing else is touched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from quiz.content.loader import card_files
from quiz.content.packs import STAGING_PREFIX, PackRemovalError, import_pack, imported_packs, remove_pack
from tests.pack_files import scenario


def test_an_imported_pack_is_removed_whole(tmp_path: Path):
    folder = tmp_path / "content"
    first = import_pack("first.yaml", scenario("pack-first").encode("utf-8"), folder).imported_to
    second = import_pack("second.yaml", scenario("pack-second").encode("utf-8"), folder).imported_to
    assert first is not None and second is not None
    assert remove_pack(folder, first.name) == first
    assert not first.exists() and second.is_dir()
    assert list(imported_packs(folder)["pack"]) == [second.name]
    assert not [p for p in folder.iterdir() if p.name.startswith(STAGING_PREFIX)]  # nothing left behind
    assert [p.name for p in card_files([folder])] == ["second.yaml"]


@pytest.mark.parametrize("name", ["", ".", "..", "../content", "a/b", ".staging-x", "missing", "a\\b", "x\x00"])
def test_only_a_pack_of_the_folder_can_be_removed(tmp_path: Path, name: str):
    folder = tmp_path / "content"
    (folder / "pack").mkdir(parents=True)
    (folder / ".staging-x").mkdir()
    (tmp_path / "outside").mkdir()
    with pytest.raises(PackRemovalError):
        remove_pack(folder, name)
    assert (folder / "pack").is_dir() and (tmp_path / "outside").is_dir()


def test_a_link_in_the_folder_is_not_followed(tmp_path: Path):
    folder = tmp_path / "content"
    folder.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.yaml").write_text("cards: []\n", encoding="utf-8")
    os.symlink(outside, folder / "linked")
    with pytest.raises(PackRemovalError):
        remove_pack(folder, "linked")
    assert (outside / "keep.yaml").is_file()


def test_no_content_folder(tmp_path: Path):
    with pytest.raises(PackRemovalError):
        remove_pack(tmp_path / "none", "pack")
