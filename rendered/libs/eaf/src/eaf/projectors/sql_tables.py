"""The bookkeeping tables of the SQL projection store: checkpoints, remembered event
ids, dead letters and the remembered shape of each read model."""

from __future__ import annotations

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

from eaf.eventsourcing.sql.database import Database

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
    query = select(checkpoints.c.position).where(checkpoints.c.projection == name)
    if database.postgres:
        query = query.with_for_update()
    position = await connection.scalar(query)
    return None if position is None else int(position)


async def save_checkpoint(
    connection: AsyncConnection, name: str, position: int
) -> None:
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
