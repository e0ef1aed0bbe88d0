"""The SQL snapshot store: one row per stream, replaced by newer snapshots."""

from __future__ import annotations

from sqlalchemy import select

from eaf.eventsourcing.ports import Snapshot
from eaf.eventsourcing.records import utc_now
from eaf.eventsourcing.scope import write_tenant
from eaf.eventsourcing.sql.database import Database

__all__ = ["SqlSnapshotStore"]


class SqlSnapshotStore:
    """Implements :class:`eaf.eventsourcing.ports.SnapshotStore`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def save(self, snapshot: Snapshot) -> None:
        tenant = write_tenant()
        table = self._database.tables.snapshots
        statement = self._database.upsert(table).values(
            tenant_id=tenant,
            stream_type=snapshot.stream_type,
            stream_id=snapshot.stream_id,
            version=snapshot.version,
            state_version=snapshot.state_version,
            state=snapshot.state,
            recorded_at=utc_now(),
        )
        statement = statement.on_conflict_do_update(
            index_elements=[table.c.tenant_id, table.c.stream_type, table.c.stream_id],
            set_={
                "version": statement.excluded.version,
                "state_version": statement.excluded.state_version,
                "state": statement.excluded.state,
                "recorded_at": statement.excluded.recorded_at,
            },
            where=table.c.version < statement.excluded.version,
        )
        async with self._database.transaction(tenant=tenant, write=True) as connection:
            await connection.execute(statement)

    async def latest(self, stream_type: str, stream_id: str) -> Snapshot | None:
        tenant = write_tenant()
        table = self._database.tables.snapshots
        query = select(table.c.version, table.c.state_version, table.c.state).where(
            table.c.tenant_id == tenant,
            table.c.stream_type == stream_type,
            table.c.stream_id == stream_id,
        )
        async with self._database.transaction(tenant=tenant) as connection:
            row = (await connection.execute(query)).one_or_none()
        if row is None:
            return None
        return Snapshot(
            stream_type, stream_id, row.version, row.state, row.state_version
        )
