# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The SQLite file the repositories share: WAL mode, one connection per thread."""

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS sample_user_profile (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sample_user_profile_events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    aggregate_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (aggregate_id, version)
);
"""


class Database:
    """A SQLite database file; ``:memory:`` keeps one private database per instance."""

    def __init__(self, path: Path | str) -> None:
        self._path = str(path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._shared: sqlite3.Connection | None = None
        if self._path != ":memory:":
            Path(self._path).parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            self._connect().executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        if self._path == ":memory:":
            if self._shared is None:
                self._shared = sqlite3.connect(
                    ":memory:", check_same_thread=False, isolation_level=None
                )
            return self._shared
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self._path, timeout=30, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.connection = connection
        return connection

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE): committed on success, rolled back on error."""
        with self._lock if self._path == ":memory:" else _no_lock():
            connection = self._connect()
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def read(self, sql: str, parameters: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        """Rows of a read-only query."""
        with self._lock if self._path == ":memory:" else _no_lock():
            connection = self._connect()
            connection.row_factory = sqlite3.Row
            rows: list[sqlite3.Row] = connection.execute(sql, parameters).fetchall()
            return rows

    def ping(self) -> bool:
        """True when the database answers a query."""
        try:
            self.read("SELECT 1")
        except sqlite3.Error:
            return False
        return True


@contextmanager
def _no_lock() -> Iterator[None]:
    yield
