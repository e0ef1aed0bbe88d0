"""The SQL outbox: the positions of appended events not yet relayed to the broker.

The append writes these rows in its own transaction; :meth:`SqlOutbox.pending` joins
them with the events. The outbox is platform-level (it spans tenants) and belongs only
to the relay: give tenant-scoped code the event store, not this.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, select, text

from eaf.eventsourcing.outbox import OutboxMessage
from eaf.eventsourcing.sql import postgres
from eaf.eventsourcing.sql.database import Database
from eaf.eventsourcing.sql.schema import event_columns, row_to_event

__all__ = ["SqlOutbox"]


class SqlOutbox:
    """Implements :class:`eaf.eventsourcing.outbox.Outbox` on the event store's database."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def pending(self, limit: int) -> list[OutboxMessage]:
        """Unpublished events in global order (on PostgreSQL: only those no earlier
        transaction can still precede, so messages go out in position order)."""
        events, outbox = self._database.tables.events, self._database.tables.outbox
        query = (
            select(*event_columns(events))
            .select_from(outbox.join(events, outbox.c.position == events.c.position))
            .order_by(outbox.c.position)
            .limit(limit)
        )
        if self._database.postgres:
            query = query.where(text(postgres.VISIBLE_HORIZON))
        async with self._database.transaction(platform=True) as connection:
            rows = (await connection.execute(query)).all()
        return [row_to_event(row).to_outbox_message() for row in rows]

    async def mark_published(self, positions: Sequence[int]) -> None:
        if not positions:
            return
        outbox = self._database.tables.outbox
        async with self._database.transaction(platform=True, write=True) as connection:
            await connection.execute(
                delete(outbox).where(outbox.c.position.in_(list(positions)))
            )
