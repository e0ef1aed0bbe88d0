"""The engine behind the SQL adapters: SQLite (aiosqlite) or PostgreSQL (asyncpg).

Every transaction is opened for one scope: a tenant, or the platform. On PostgreSQL
the scope is also handed to row-level security via transaction-local settings
(``eaf.tenant_id``, ``eaf.platform``), so a query that forgot its tenant filter
still sees only that tenant's rows.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from sqlalchemy import Table, event, text
from sqlalchemy.dialects import postgresql as pg
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from eaf.eventsourcing.sql import postgres, sqlite_schema
from eaf.eventsourcing.sql.schema import Tables, build_tables

_T = TypeVar("_T")

__all__ = ["Database", "run_on_driver"]

_SET_SCOPE = text(
    "SELECT set_config('eaf.tenant_id', :tenant, true), set_config('eaf.platform', :platform, true)"
)
_SQLITE_BEGIN = "eaf_sqlite_begin"


class Database:
    """An async engine plus the tables, opened for SQLite or PostgreSQL by URL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        if not self.postgres and engine.dialect.name != "sqlite":
            raise ValueError(f"unsupported database {engine.dialect.name!r}")
        self.tables: Tables = build_tables(postgres=self.postgres)
        # SQLite has one writer at a time: queue this process's writers here rather than
        # in SQLite's busy handler, which polls. Other processes still wait on busy_timeout.
        self._sqlite_writer = asyncio.Lock()
        # Set by open() for a SQLite file: where and how a writer opens its own connection.
        self.sqlite_file: str | None = None
        self._sqlite_pragmas: list[str] = []
        self._busy_timeout = 30.0

    @classmethod
    def open(
        cls,
        url: str,
        *,
        busy_timeout: float = 30.0,
        sqlite_synchronous: str = "FULL",
        **engine_options: Any,
    ) -> Database:
        """Open ``sqlite+aiosqlite:///path.db`` or ``postgresql+asyncpg://...``."""
        backend = make_url(url).get_backend_name()
        if backend == "sqlite":
            engine = create_async_engine(
                url, connect_args={"timeout": busy_timeout}, **engine_options
            )
            pragmas = _sqlite_pragmas(busy_timeout, sqlite_synchronous)
            _configure_sqlite(engine, pragmas)
        elif backend == "postgresql":
            engine_options.setdefault("pool_size", 10)
            engine_options.setdefault("max_overflow", 10)
            engine = create_async_engine(url, **engine_options)
        else:
            raise ValueError(
                f"unsupported database URL {url!r}: use sqlite+aiosqlite or postgresql+asyncpg"
            )
        database = cls(engine)
        if backend == "sqlite":
            database._sqlite_pragmas = pragmas
            database._busy_timeout = busy_timeout
            database.sqlite_file = _sqlite_file(engine)
        return database

    @asynccontextmanager
    async def transaction(
        self, *, tenant: str | None = None, platform: bool = False, write: bool = False
    ) -> AsyncIterator[AsyncConnection]:
        """A transaction scoped to ``tenant`` (or to the platform); ``write`` takes
        SQLite's write lock up front so a read-then-write transaction cannot deadlock."""
        if write and not self.postgres:
            async with self.sqlite_writer(), self.engine.connect() as connection:
                await connection.execution_options(**{_SQLITE_BEGIN: "IMMEDIATE"})
                async with connection.begin():
                    yield connection
            return
        async with self.engine.connect() as connection, connection.begin():
            if self.postgres:
                await connection.execute(
                    _SET_SCOPE,
                    {"tenant": tenant or "", "platform": "on" if platform else "off"},
                )
            yield connection

    async def sqlite_call(self, function: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``function`` with a pooled SQLite connection on that connection's thread:
        one thread hand-off for all it does (SQLAlchemy's adapter takes one per cursor
        call, each about as long as a simple query). For reads: ``function`` runs no
        BEGIN, so each statement reads one consistent snapshot of its own."""
        async with self.engine.connect() as connection:
            return await run_on_driver(connection, function)

    def connect_sqlite(self) -> sqlite3.Connection:
        """A new driver connection to the SQLite file, set up as the pool's are (the
        caller runs its own transactions on it: no implicit BEGIN)."""
        if self.sqlite_file is None:
            raise ValueError("not a SQLite database file")
        connection = sqlite3.connect(
            self.sqlite_file,
            timeout=self._busy_timeout,
            isolation_level=None,
            check_same_thread=False,
        )
        for pragma in self._sqlite_pragmas:
            connection.execute(pragma)
        return connection

    def sqlite_writer(self) -> asyncio.Lock:
        """Held by this process's SQLite writers, one at a time."""
        return self._sqlite_writer

    def upsert(self, table: Table) -> pg.Insert | sqlite.Insert:
        """An INSERT that can take ``on_conflict_do_update`` on either dialect."""
        return pg.insert(table) if self.postgres else sqlite.insert(table)

    async def create_schema(self) -> None:
        """Create the tables (and on PostgreSQL the functions and policies) if missing;
        on SQLite, bring a file of an earlier layout to the current one."""
        if not self.postgres:
            async with self.transaction(platform=True, write=True) as connection:
                await connection.run_sync(sqlite_schema.install, self.tables)
            return
        async with self.engine.begin() as connection:
            await connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"),
                {"key": postgres.SCHEMA_LOCK},
            )
            await connection.run_sync(self.tables.metadata.create_all)
            await postgres.install(connection)

    async def close(self) -> None:
        await self.engine.dispose()


async def run_on_driver(
    connection: AsyncConnection, function: Callable[[sqlite3.Connection], _T]
) -> _T:
    """Run ``function`` with the SQLite driver connection under ``connection`` on that
    connection's thread, in one hand-off, within whatever transaction ``connection``
    has begun."""
    raw = await connection.get_raw_connection()
    # aiosqlite's (private) _execute takes the function to run on its thread.
    driver: Any = raw.driver_connection
    result: _T = await driver._execute(function, driver._conn)
    return result


def _sqlite_pragmas(busy_timeout: float, synchronous: str) -> list[str]:
    if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"invalid SQLite synchronous setting {synchronous!r}")
    return [
        "PRAGMA journal_mode=WAL",
        f"PRAGMA busy_timeout={int(busy_timeout * 1000)}",
        f"PRAGMA synchronous={synchronous.upper()}",
    ]


def _sqlite_file(engine: AsyncEngine) -> str | None:
    """The database file, or None for an in-memory or URI-named database."""
    url = engine.url
    name = url.database
    if not name or name == ":memory:" or "uri" in url.query or name.startswith("file:"):
        return None
    return name


def _casefold(text: Any) -> Any:
    return text.casefold() if isinstance(text, str) else text


def _configure_sqlite(engine: AsyncEngine, pragmas: list[str]) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        # SQLAlchemy emits BEGIN itself (below); the driver must not.
        dbapi_connection.isolation_level = None
        # Text in one case, as Python folds it (read-model filters that ignore case).
        dbapi_connection.create_function(
            "eaf_casefold", 1, _casefold, deterministic=True
        )
        cursor = dbapi_connection.cursor()
        for pragma in pragmas:
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(_SQLITE_BEGIN, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")
