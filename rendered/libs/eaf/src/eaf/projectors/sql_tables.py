"""The bookkeeping tables of the SQL projection store: checkpoints, remembered event
ids, dead letters and the remembered shape of each read model."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import partial

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Integer,
    MetaData,
    Table,
    Text,
    delete,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.eventsourcing.sql.database import Database, run_on_driver

metadata = MetaData()
checkpoints = Table(
    "eaf_projection_checkpoints",
    metadata,
    Column("projection", Text(), primary_key=True),
    Column("position", BigInteger(), nullable=False),
)
processed = Table(
    "eaf_projection_processed",
    metadata,
    Column("projection", Text(), primary_key=True),
    Column("event_id", Text(), primary_key=True),
)
dead_letters = Table(
    "eaf_projection_dead_letters",
    metadata,
    Column("projection", Text(), primary_key=True),
    Column("event_id", Text(), primary_key=True),
    Column("position", BigInteger(), nullable=False),
    Column("event_type", Text(), nullable=False),
    Column("tenant_id", Text(), nullable=False),
    Column("reason", Text(), nullable=False),
    Column("attempts", Integer(), nullable=False),
    Column("failed_at", DateTime(timezone=True), nullable=False),
)
# Its own table rather than columns of the checkpoints: databases from before it
# existed gain it by create_all, with no ALTER TABLE.
schemas = Table(
    "eaf_projection_schemas",
    metadata,
    Column("projection", Text(), primary_key=True),
    Column("fingerprint", Text(), nullable=False),
    Column("schema", Text(), nullable=False),
)


async def locked_checkpoint(
    database: Database, connection: AsyncConnection, name: str
) -> int | None:
    """The projection's checkpoint, its row locked for this write transaction (``FOR
    UPDATE`` on PostgreSQL; SQLite's write lock is held already); None if missing."""
    if not database.postgres:
        return await run_on_driver(connection, partial(sqlite_checkpoint, name=name))
    position = await connection.scalar(
        select(checkpoints.c.position)
        .where(checkpoints.c.projection == name)
        .with_for_update()
    )
    return None if position is None else int(position)


async def save_checkpoint(
    connection: AsyncConnection, name: str, position: int
) -> None:
    if connection.dialect.name == "sqlite":
        await run_on_driver(connection, sqlite_checkpoint_saver(name, position))
        return
    await connection.execute(
        update(checkpoints)
        .where(checkpoints.c.projection == name)
        .values(position=position)
    )


async def reset_bookkeeping(connection: AsyncConnection, name: str) -> None:
    """Checkpoint back to 0, remembered event ids and dead letters gone."""
    await connection.execute(delete(processed).where(processed.c.projection == name))
    await connection.execute(
        delete(dead_letters).where(dead_letters.c.projection == name)
    )
    await save_checkpoint(connection, name, 0)


# On SQLite, each statement in one thread hand-off of its own (through SQLAlchemy's
# adapter a statement takes four: cursor, execute, fetch, close).
_SQLITE_CHECKPOINT = f"SELECT position FROM {checkpoints.name} WHERE projection = ?"  # noqa: S608
_SQLITE_SAVE_CHECKPOINT = (
    f"UPDATE {checkpoints.name} SET position = ? WHERE projection = ?"  # noqa: S608
)


def sqlite_checkpoint(raw: sqlite3.Connection, name: str) -> int | None:
    """The projection's checkpoint read on a SQLite driver connection; None if missing."""
    row = raw.execute(_SQLITE_CHECKPOINT, (name,)).fetchone()
    return None if row is None else int(row[0])


def sqlite_checkpoint_saver(
    name: str, position: int
) -> Callable[[sqlite3.Connection], None]:
    """What saves the checkpoint on a SQLite driver connection (to run after a batch's
    last rows, in the same hand-off)."""

    def save(raw: sqlite3.Connection) -> None:
        raw.execute(_SQLITE_SAVE_CHECKPOINT, (position, name))

    return save
