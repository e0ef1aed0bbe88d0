"""Storage faults: what the database answers when it cannot write (a read-only file or
file system, a full disk, an I/O error, a lost connection), told apart from what a request
itself got wrong (a conflict, a duplicate), which no retry of the same request cures."""

from __future__ import annotations

import sqlite3

from sqlalchemy import exc as sa

# SQLSTATE classes and codes of a PostgreSQL that cannot serve now: connection exceptions,
# insufficient resources (disk full, out of memory), operator intervention (shutdown,
# cannot connect now), system errors (I/O), and a read-only transaction (a standby).
_PG_CLASSES = ("08", "53", "57P", "58")
_PG_CODES = frozenset({"25006"})


def is_storage_fault(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot work now, rather than that the request
    was wrong."""
    if isinstance(error, sqlite3.IntegrityError):
        return False
    if isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError | OSError):
        return True
    if isinstance(error, sa.OperationalError | sa.InterfaceError):
        return True
    if isinstance(error, sa.DBAPIError) and error.orig is not None:
        return is_storage_fault(error.orig)
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str):
        return state in _PG_CODES or state.startswith(_PG_CLASSES)
    return type(error).__name__ in ("ConnectionDoesNotExistError", "InterfaceError")
