"""The SQL outbox: the event table itself, read from a relay's cursor.

An append writes only its events; the outbox is the events above the position the relay
has published up to (its cursor, one row per relay in ``eaf_outbox_cursors``). The
events and the "outbox" are one write, so the transactional guarantee is the append's
own. The relay reads in the global (commit) order - on PostgreSQL below the horizon of
finished transactions, as tracking readers do, so no late commit is skipped - and the
cursor moves over the longest prefix it has published; messages published beyond that
prefix are remembered in memory until it catches up. After a restart the relay resumes
at the stored cursor: messages published since are published again, at least once, and
absorbed by the broker's duplicate window (``Nats-Msg-Id`` is the event id).

The outbox is platform-level (it spans tenants) and belongs only to the relay: give
tenant-scoped code the event store, not this.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from sqlalchemy import Text, cast, func, select, text

from eaf.eventsourcing.outbox import OutboxMessage
from eaf.eventsourcing.sql import postgres
from eaf.eventsourcing.sql.database import Database
from eaf.eventsourcing.sql.schema import row_to_event, select_events

__all__ = ["SqlOutbox"]


class SqlOutbox:
    """Implements :class:`eaf.eventsourcing.outbox.Outbox` on the event store's database,
    with a cursor named ``relay`` (one relay per name at a time; a second one only
    publishes duplicates)."""

    def __init__(self, database: Database, *, relay: str = "default") -> None:
        self._database = database
        self._relay = relay
        self._cursor: int | None = None  # loaded at the first read
        # Positions handed out above the cursor, in order (a prefix of the events after
        # it), and those of them marked published.
        self._handed_out: deque[int] = deque()
        self._published: set[int] = set()

    async def cursor(self) -> int:
        """The stored position up to which every event was published."""
        cursors = self._database.tables.outbox_cursors
        async with self._database.transaction(platform=True) as connection:
            found = await connection.scalar(
                select(cursors.c.position).where(cursors.c.relay == self._relay)
            )
        return int(found or 0)

    async def pending(self, limit: int) -> list[OutboxMessage]:
        """Unpublished events in global order (on PostgreSQL: only those no earlier
        transaction can still precede, so messages go out in position order)."""
        if limit <= 0:
            return []
        if self._cursor is None:
            self._cursor = await self.cursor()
        events = self._database.tables.events
        # The payload also as the text the database holds (SQLite: the JSON written;
        # PostgreSQL: jsonb's rendering), published as it is, not re-encoded.
        query = (
            select_events(self._database.tables)
            .add_columns(cast(events.c.payload, Text).label("body"))
            .where(events.c.position > self._cursor)
            .order_by(events.c.position)
            .limit(limit + len(self._published))
        )
        if self._database.postgres:
            query = query.where(text(postgres.VISIBLE_HORIZON))
        async with self._database.transaction(platform=True) as connection:
            rows = (await connection.execute(query)).all()
        # The cursor may have moved while this read was under way.
        last = self._handed_out[-1] if self._handed_out else self._cursor
        messages: list[OutboxMessage] = []
        for row in rows:
            position: int = row.position
            if position > last:
                self._handed_out.append(position)
                last = position
            if position <= self._cursor or position in self._published:
                continue
            messages.append(row_to_event(row).to_outbox_message(row.body.encode()))
            if len(messages) == limit:
                break
        return messages

    async def backlog(self) -> int:
        """Events above the stored cursor, less those published beyond it."""
        cursor = await self.cursor()
        events = self._database.tables.events
        query = select(func.count()).where(events.c.position > cursor)
        async with self._database.transaction(platform=True) as connection:
            above = int(await connection.scalar(query) or 0)
        return max(0, above - len(self._published))

    async def mark_published(self, positions: Sequence[int]) -> None:
        if self._cursor is None:
            self._cursor = await self.cursor()
        self._published.update(p for p in positions if p > self._cursor)
        moved = False
        while self._handed_out and self._handed_out[0] in self._published:
            self._cursor = self._handed_out.popleft()
            self._published.discard(self._cursor)
            moved = True
        if moved:
            await self._store_cursor(self._cursor)

    async def _store_cursor(self, position: int) -> None:
        cursors = self._database.tables.outbox_cursors
        statement = self._database.upsert(cursors).values(
            relay=self._relay, position=position
        )
        statement = statement.on_conflict_do_update(
            index_elements=[cursors.c.relay],
            set_={"position": func.greatest(cursors.c.position, position)}
            if self._database.postgres
            else {"position": func.max(cursors.c.position, position)},
        )
        async with self._database.transaction(platform=True, write=True) as connection:
            await connection.execute(statement)
