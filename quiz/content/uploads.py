"""Reading an uploaded card pack (one YAML file, or a zip of them) without trusting it.

Nothing here touches the disk: the result is the text of each card file and every problem
found. Sizes are capped (the upload, each file, the number of files and their total
uncompressed size, measured while reading, not taken from the zip's own claims); zip
entries with absolute paths, ``..``, symlinks or encryption are refused. The names of the
entries are only used to report problems: where files are saved is decided elsewhere.
"""

from __future__ import annotations

import io
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from quiz.content.yaml_source import MAX_FILE_BYTES
from quiz.model.errors import Problem
from quiz.model.words import Wording

MIB = 1024 * 1024
YAML_SUFFIXES = (".yaml", ".yml")
ZIP_SUFFIX = ".zip"
IGNORED_FOLDERS = ("__MACOSX",)  # metadata a macOS archive adds; never card files
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True, slots=True)
class UploadLimits:
    """How much an upload may hold."""

    upload_bytes: int = 2 * MIB
    file_bytes: int = MAX_FILE_BYTES
    files: int = 100
    total_bytes: int = 8 * MIB
    cards: int = 500  # checking a card costs CPU time the server shares with every trainee
    nodes: int = 60_000  # YAML values and keys in all files: about 1 s of parsing (500 cards of 120)


@dataclass(frozen=True, slots=True)
class PackFile:
    """One card file of an upload: its name as uploaded and its text."""

    name: str
    text: str


@dataclass
class UploadRead:
    """The card files read, and every problem with the upload itself."""

    files: list[PackFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def read_upload(name: str, data: bytes, limits: UploadLimits = UploadLimits()) -> UploadRead:
    """The card files of an upload named ``name``: a ``.yaml``/``.yml`` file or a ``.zip``."""
    read = UploadRead()
    if len(data) > limits.upload_bytes:
        read.problems.append(_problem(name, Wording("problem.upload.too_large", size=_size(len(data)),
                                                    limit=_size(limits.upload_bytes))))
        return read
    suffix = PurePosixPath(name.lower()).suffix
    if suffix in YAML_SUFFIXES:
        _add_file(read, name, data, limits)
    elif suffix == ZIP_SUFFIX:
        _read_zip(read, name, data, limits)
    else:
        read.problems.append(_problem(name, Wording("problem.upload.wrong_type")))
    return read


def unsafe_entry(entry: str) -> Wording | None:
    """Why a zip entry name may not be used, or None when it is a plain relative path."""
    if "\x00" in entry:
        return Wording("problem.upload.nul_in_name")
    unified = entry.replace("\\", "/")
    if unified.startswith("/") or _DRIVE.match(unified):
        return Wording("problem.upload.absolute_path")
    if ".." in unified.split("/"):
        return Wording("problem.upload.parent_in_path")
    return None


def _read_zip(read: UploadRead, name: str, data: bytes, limits: UploadLimits) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        read.problems.append(_problem(name, Wording("problem.upload.bad_zip")))
        return
    with archive:
        entries = [info for info in archive.infolist() if not _ignored(info)]
        if len([i for i in entries if not i.is_dir()]) > limits.files:
            read.problems.append(_problem(name, Wording("problem.upload.too_many_files", files=limits.files)))
            return
        if sum(info.file_size for info in entries) > limits.total_bytes:
            read.problems.append(_problem(name, Wording("problem.upload.unpacks_too_large",
                                                        limit=_size(limits.total_bytes))))
            return
        seen: set[str] = set()
        total = 0
        for info in entries:
            reason = _refused(info, seen)
            if reason is not None:
                read.problems.append(_problem(info.filename, reason))
                continue
            if info.is_dir():
                continue
            if PurePosixPath(info.filename.lower()).suffix not in YAML_SUFFIXES:
                read.problems.append(_problem(info.filename, Wording("problem.upload.not_yaml")))
                continue
            raw = _read_entry(read, archive, info, limits.file_bytes)
            if raw is None:
                continue
            total += len(raw)
            if total > limits.total_bytes:
                read.problems.append(_problem(name, Wording("problem.upload.unpacks_too_large",
                                                            limit=_size(limits.total_bytes))))
                return
            _add_file(read, info.filename, raw, limits)


def _ignored(info: zipfile.ZipInfo) -> bool:
    parts = PurePosixPath(info.filename.replace("\\", "/")).parts
    return bool(parts) and (parts[0] in IGNORED_FOLDERS or parts[-1] == ".DS_Store")


def _refused(info: zipfile.ZipInfo, seen: set[str]) -> Wording | None:
    reason = unsafe_entry(info.filename)
    if reason is None and stat.S_ISLNK(info.external_attr >> 16):
        reason = Wording("problem.upload.symlink")
    if reason is None and info.flag_bits & 0x1:
        reason = Wording("problem.upload.encrypted")
    name = info.filename.replace("\\", "/").lower()
    if reason is None and name in seen:
        reason = Wording("problem.upload.name_twice")
    if reason is not None:
        return Wording("problem.upload.refused", reason=reason)
    seen.add(name)
    return None


def _read_entry(read: UploadRead, archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    if info.file_size > limit:
        read.problems.append(_problem(info.filename, Wording("problem.upload.file_too_large",
                                                             size=_size(info.file_size), limit=_size(limit))))
        return None
    try:
        with archive.open(info) as stream:
            raw = stream.read(limit + 1)  # the size in the zip may lie: never read past the limit
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, OSError, EOFError) as error:
        read.problems.append(_problem(info.filename, Wording("problem.upload.cannot_unpack",
                                                             error=Wording.untranslated(str(error)))))
        return None
    if len(raw) > limit:
        read.problems.append(_problem(info.filename, Wording("problem.upload.file_larger_than", limit=_size(limit))))
        return None
    return raw


def _add_file(read: UploadRead, name: str, raw: bytes, limits: UploadLimits) -> None:
    if len(raw) > limits.file_bytes:
        read.problems.append(_problem(name, Wording("problem.upload.file_too_large", size=_size(len(raw)),
                                                    limit=_size(limits.file_bytes))))
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        read.problems.append(_problem(name, Wording("problem.upload.not_utf8", byte=error.start)))
        return
    read.files.append(PackFile(name, text))


def _problem(name: str, wording: Wording) -> Problem:
    return Problem(name, 1, "file", wording)


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MB" if n >= MIB else f"{n / 1024:.0f} KB"
