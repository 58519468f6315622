"""Reading uploads without trusting them: limits, zip entry names, symlinks, encodings."""

from __future__ import annotations

import io
import zipfile

import pytest

from quiz.content.uploads import UploadLimits, read_upload, unsafe_entry
from tests.pack_files import scenario, zip_of


def test_a_yaml_upload_is_one_file():
    read = read_upload("late.yaml", scenario().encode("utf-8"))
    assert read.problems == []
    assert [(f.name, f.text) for f in read.files] == [("late.yaml", scenario())]


def test_a_byte_order_mark_is_dropped():
    read = read_upload("late.yml", b"\xef\xbb\xbf" + scenario().encode("utf-8"))
    assert read.files[0].text == scenario()


def test_other_file_types_are_refused():
    read = read_upload("cards.json", b"{}")
    assert read.files == [] and "upload a YAML card file" in read.problems[0].message


def test_an_upload_over_the_limit_is_not_read():
    read = read_upload("big.yaml", b"a" * 1025, UploadLimits(upload_bytes=1024))
    assert read.files == []
    assert [(p.path, p.line, p.field) for p in read.problems] == [("big.yaml", 1, "file")]
    assert "the limit is 1 KB" in read.problems[0].message


def test_text_that_is_not_utf8_is_refused():
    read = read_upload("sjis.yaml", "cards: []  # 遅刻".encode("shift_jis"))
    assert read.files == [] and "not UTF-8" in read.problems[0].message


def test_a_zip_gives_its_yaml_files_and_skips_folders_and_mac_metadata():
    data = zip_of({"pack/": b"", "pack/yugioh-ocg/late.yaml": scenario(), "__MACOSX/pack/._late.yaml": b"\x00\x05",
                   "pack/.DS_Store": b"\x00"})
    read = read_upload("pack.zip", data)
    assert read.problems == []
    assert [f.name for f in read.files] == ["pack/yugioh-ocg/late.yaml"]


@pytest.mark.parametrize("entry, reason", [
    ("../evil.yaml", "'..' in the path"),
    ("cards/../../evil.yaml", "'..' in the path"),
    ("..\\evil.yaml", "'..' in the path"),
    ("/etc/evil.yaml", "an absolute path"),
    ("\\\\server\\evil.yaml", "an absolute path"),
    ("C:/evil.yaml", "an absolute path"),
])
def test_zip_entries_outside_the_pack_are_refused(entry, reason):
    assert unsafe_entry(entry).english == reason
    read = read_upload("pack.zip", zip_of({entry: scenario(), "good.yaml": scenario("pack-other")}))
    assert [(p.path, p.message) for p in read.problems] == [(entry, f"refused: {reason}")]
    assert [f.name for f in read.files] == ["good.yaml"]  # read, so every problem can be listed


def test_plain_relative_names_are_safe():
    assert unsafe_entry("pack/yugioh-ocg/late.yaml") is None
    assert unsafe_entry("my..cards.yaml") is None  # dots inside a name are not a parent folder


def test_a_symlink_entry_is_refused():
    read = read_upload("pack.zip", zip_of({}, symlinks={"link.yaml": "/etc/passwd"}))
    assert read.files == [] and read.problems[0].message == "refused: a symbolic link"


def test_non_yaml_entries_are_refused():
    read = read_upload("pack.zip", zip_of({"notes.txt": "hello", "run.py": "print(1)"}))
    assert [p.path for p in read.problems] == ["notes.txt", "run.py"]
    assert all("only YAML card files" in p.message for p in read.problems)


def test_an_oversize_file_in_a_zip_is_refused():
    read = read_upload("pack.zip", zip_of({"big.yaml": "#" * 5000, "ok.yaml": scenario()}),
                       UploadLimits(file_bytes=4096))
    assert [(p.path, p.field) for p in read.problems] == [("big.yaml", "file")]
    assert [f.name for f in read.files] == ["ok.yaml"]


def test_a_zip_that_unpacks_too_large_is_refused_before_reading():
    # 3 files of 400 KB of one repeated byte: a tiny zip that unpacks to 1.2 MB.
    data = zip_of({f"f{i}.yaml": "#" * 400_000 for i in range(3)})
    assert len(data) < 10_000
    read = read_upload("bomb.zip", data, UploadLimits(total_bytes=1_000_000))
    assert read.files == [] and "unpacks to more than" in read.problems[0].message


def test_a_zip_lying_about_sizes_is_refused():
    data = bytearray(zip_of({"liar.yaml": "#" * 10_000}))
    # Both headers claim 10 bytes: the 10 000 that unpack must not get through.
    local = data.find(b"PK\x03\x04")
    central = data.find(b"PK\x01\x02")
    data[local + 22:local + 26] = (10).to_bytes(4, "little")
    data[central + 24:central + 28] = (10).to_bytes(4, "little")
    read = read_upload("liar.zip", bytes(data), UploadLimits(file_bytes=1000))
    assert read.files == []
    assert read.problems[0].path == "liar.yaml" and "cannot be unpacked" in read.problems[0].message


def test_too_many_files_are_refused():
    read = read_upload("many.zip", zip_of({f"c{i}.yaml": "cards: []" for i in range(4)}), UploadLimits(files=3))
    assert read.files == [] and "more than 3 files" in read.problems[0].message


def test_a_broken_zip_is_refused():
    read = read_upload("broken.zip", b"PK\x03\x04 this is not really a zip")
    assert read.files == [] and read.problems[0].message == "not a readable zip file"


def test_a_name_twice_in_a_zip_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.yaml", "cards: []")
        with pytest.warns(UserWarning):
            archive.writestr("a.yaml", "cards: []")
    read = read_upload("dup.zip", buffer.getvalue())
    assert [f.name for f in read.files] == ["a.yaml"]
    assert read.problems[0].message == "refused: the zip holds this name twice"
