"""Operating the projections stored in a SQL database: where each stands against the
event store, and rebuilding one by name while (or before) its service runs."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, delete, func, inspect, select, table, text
from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.eventsourcing.sql import postgres
from eaf.eventsourcing.sql.database import Database
from eaf.projectors.projection import Projection
from eaf.projectors.schema import ProjectionSchema
from eaf.projectors.sql_tables import (
    checkpoints,
    dead_letters,
    locked_checkpoint,
    reset_bookkeeping,
    schemas,
)


class UnknownProjection(LookupError):
    """No projection of that name is stored in the database."""


@dataclass(frozen=True)
class ProjectionStatus:
    """Where a stored projection stands. ``head`` is the last position of its event
    types in this database's event store (None without one, or with its event types
    unknown); ``lag`` is how far the checkpoint is behind it. ``fingerprint_ok``
    tells whether the remembered fingerprint is the given projection's (None when
    no projection was given to compare with)."""

    name: str
    checkpoint: int
    head: int | None
    lag: int | None
    dead_letters: int
    fingerprint_ok: bool | None

    @property
    def caught_up(self) -> bool:
        return self.lag == 0

    @property
    def percent(self) -> int | None:
        """How far the checkpoint is towards the head, rounded down (100 at it)."""
        if self.head is None:
            return None
        if self.head == 0 or self.checkpoint >= self.head:
            return 100
        return math.floor(self.checkpoint * 100 / self.head)

    @property
    def progress(self) -> str:
        """``checkpoint/head (percent%)``, or the checkpoint alone without a head."""
        if self.head is None:
            return f"{self.checkpoint}/?"
        return f"{self.checkpoint}/{self.head} ({self.percent}%)"


class NotCaughtUp(TimeoutError):
    """The projection did not catch up in time; ``status`` is the last one seen."""

    def __init__(self, status: ProjectionStatus, timeout: float) -> None:
        super().__init__(
            f"{status.name}: not caught up after {timeout:g}s at {status.progress}"
        )
        self.status = status


async def projection_status(
    database: Database,
    projections: Iterable[Projection] = (),
    *,
    name: str | None = None,
) -> list[ProjectionStatus]:
    """The status of every projection stored in ``database`` (only ``name`` if
    given), by name; ``projections`` are compared by fingerprint, and included with
    checkpoint 0 when not stored yet."""
    given = {projection.name: projection for projection in projections}
    async with database.transaction(platform=True) as connection:
        present = await _tables(connection)
        stored = await _stored(connection, present)
        letters = await _dead_letter_counts(connection, present)
        for projection_name, projection in given.items():
            stored.setdefault(projection_name, (0, None, None))
            if stored[projection_name][2] is None:  # no schema remembered yet
                position, fingerprint, _ = stored[projection_name]
                stored[projection_name] = (position, fingerprint, projection.schema)
        statuses: list[ProjectionStatus] = []
        for projection_name in sorted(stored):
            if name is not None and projection_name != name:
                continue
            position, fingerprint, schema = stored[projection_name]
            head = None
            if schema is not None and "eaf_events" in present:
                head = await _head(database, connection, schema.event_types)
            compared = given.get(projection_name)
            statuses.append(
                ProjectionStatus(
                    name=projection_name,
                    checkpoint=position,
                    head=head,
                    lag=None if head is None else max(head - position, 0),
                    dead_letters=letters.get(projection_name, 0),
                    fingerprint_ok=None
                    if compared is None
                    else fingerprint == compared.fingerprint,
                )
            )
    return statuses


async def rebuild_projection(database: Database, name: str) -> int:
    """Reset projection ``name``: its rows, checkpoint, remembered event ids and dead
    letters go, so its projector (running, or the next one started) replays it from
    position 0. Returns the checkpoint it had. Raises :class:`UnknownProjection`."""
    async with database.transaction(platform=True, write=True) as connection:
        present = await _tables(connection)
        position = None
        if checkpoints.name in present:
            position = await locked_checkpoint(database, connection, name)
        if position is None:
            raise UnknownProjection(f"no projection {name!r} in this database")
        schema = (await _stored(connection, present))[name][2]
        if schema is None:
            raise UnknownProjection(
                f"{name}: its table is not recorded yet; start its service once "
                "with this version of eaf, then rebuild"
            )
        if schema.table in present:
            await connection.execute(delete(table(schema.table)))
        await reset_bookkeeping(connection, name)
    return position


async def wait_until_caught_up(
    database: Database,
    name: str,
    *,
    timeout: float,
    interval: float = 0.5,
    progress: Callable[[ProjectionStatus], object] = lambda status: None,
) -> ProjectionStatus:
    """Poll the status of ``name`` every ``interval`` seconds (each one passed to
    ``progress``) until its lag is 0; raises :class:`NotCaughtUp` after ``timeout``
    and ValueError when it has no head to catch up with."""
    last: ProjectionStatus | None = None

    async def poll() -> ProjectionStatus:
        nonlocal last
        while True:
            found = await projection_status(database, name=name)
            if not found:
                raise UnknownProjection(f"no projection {name!r} in this database")
            last = found[0]
            if last.head is None:
                raise ValueError(f"{name}: no event store in this database to follow")
            progress(last)
            if last.caught_up:
                return last
            await asyncio.sleep(interval)

    try:
        return await asyncio.wait_for(poll(), timeout)
    except TimeoutError:
        if last is None:
            raise
        raise NotCaughtUp(last, timeout) from None


Stored = tuple[int, str | None, ProjectionSchema | None]
"""A stored projection's checkpoint, remembered fingerprint and shape."""


async def _tables(connection: AsyncConnection) -> set[str]:
    """The tables present, and the views (on SQLite ``eaf_events`` is one)."""

    def names(sync: Connection) -> set[str]:
        inspector = inspect(sync)
        return {*inspector.get_table_names(), *inspector.get_view_names()}

    return await connection.run_sync(names)


async def _stored(connection: AsyncConnection, present: set[str]) -> dict[str, Stored]:
    if checkpoints.name not in present:
        return {}
    if schemas.name not in present:
        rows = await connection.execute(
            select(checkpoints.c.projection, checkpoints.c.position)
        )
        return {row.projection: (int(row.position), None, None) for row in rows}
    rows = await connection.execute(
        select(
            checkpoints.c.projection,
            checkpoints.c.position,
            schemas.c.fingerprint,
            schemas.c.schema,
        ).outerjoin(schemas, schemas.c.projection == checkpoints.c.projection)
    )
    return {
        row.projection: (
            int(row.position),
            row.fingerprint,
            None if row.schema is None else ProjectionSchema.from_json(row.schema),
        )
        for row in rows
    }


async def _dead_letter_counts(
    connection: AsyncConnection, present: set[str]
) -> dict[str, int]:
    if dead_letters.name not in present:
        return {}
    rows = await connection.execute(
        select(dead_letters.c.projection, func.count()).group_by(
            dead_letters.c.projection
        )
    )
    return {projection: int(count) for projection, count in rows}


async def _head(
    database: Database, connection: AsyncConnection, event_types: Sequence[str]
) -> int:
    events = database.tables.events
    query = select(func.max(events.c.position)).where(
        events.c.event_type.in_(list(event_types))
    )
    if database.postgres:  # what a follower can read already (see read_all)
        query = query.where(text(postgres.VISIBLE_HORIZON))
    return int(await connection.scalar(query) or 0)
