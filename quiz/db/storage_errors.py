"""Which failure of the database an error is, so that a page can explain it (``storage_problem``)."""

from __future__ import annotations

import errno

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from quiz.model.errors import SchemaVersionError

# What a failing database says, by the kind of failure a page explains.
_SQLITE_KINDS = {
    "SQLITE_NOTADB": "corrupt", "SQLITE_CORRUPT": "corrupt",
    "SQLITE_READONLY": "read_only", "SQLITE_FULL": "read_only", "SQLITE_IOERR": "read_only",
    "SQLITE_CANTOPEN": "unreachable", "SQLITE_PERM": "read_only", "SQLITE_BUSY": "unreachable",
}
_OS_READ_ONLY = {"ENOSPC", "EROFS", "EACCES", "EPERM", "EDQUOT"}


def storage_problem(error: BaseException) -> str | None:
    """Which failure of the database ``error`` (or an error it was raised from) is, for the
    page that explains it: ``unreachable`` (a server down or a wrong address; a file that
    cannot be opened), ``corrupt`` (a file that is not a database), ``read_only`` (a database
    that cannot be written: a read-only or full disk), ``newer`` (a schema of a newer app),
    or None when it is no failure of the database (a bug, which the page does not hide)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, SchemaVersionError):
            return "newer"
        if isinstance(current, DBAPIError):
            name = getattr(current.orig, "sqlite_errorname", None)
            if isinstance(name, str):
                base = "_".join(name.split("_")[:2])  # SQLITE_IOERR_WRITE is an SQLITE_IOERR
                return _SQLITE_KINDS.get(base, "unreachable")
            return "unreachable"
        if isinstance(current, SQLAlchemyError):  # a pool timeout, a dropped connection
            return "unreachable"
        if isinstance(current, OSError) and errno.errorcode.get(current.errno or -1) in _OS_READ_ONLY:
            return "read_only"
        current = current.__cause__  # only what it was raised from: never a failure it merely followed
    return None
