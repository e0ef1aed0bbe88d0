"""The SQL saga store: saga instances per tenant, runner positions per platform."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from eaf.eventsourcing.errors import ConcurrencyError
from eaf.eventsourcing.ports import SagaState
from eaf.eventsourcing.records import utc_now
from eaf.eventsourcing.scope import write_tenant
from eaf.eventsourcing.sql.database import Database

__all__ = ["SqlSagaStore"]


class SqlSagaStore:
    """Implements :class:`eaf.eventsourcing.ports.SagaStore`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def load(self, saga_type: str, association: str) -> SagaState | None:
        tenant = write_tenant()
        table = self._database.tables.sagas
        query = select(
            table.c.state, table.c.ended, table.c.last_position, table.c.revision
        ).where(
            table.c.tenant_id == tenant,
            table.c.saga_type == saga_type,
            table.c.association == association,
        )
        async with self._database.transaction(tenant=tenant) as connection:
            row = (await connection.execute(query)).one_or_none()
        if row is None:
            return None
        return SagaState(
            saga_type,
            association,
            row.state,
            row.ended,
            row.last_position,
            row.revision,
        )

    async def save(self, saga: SagaState) -> SagaState:
        tenant = write_tenant()
        table = self._database.tables.sagas
        values = {
            "state": saga.state,
            "ended": saga.ended,
            "last_position": saga.last_position,
            "revision": saga.revision + 1,
            "updated_at": utc_now(),
        }
        key = (
            table.c.tenant_id == tenant,
            table.c.saga_type == saga.saga_type,
            table.c.association == saga.association,
        )
        try:
            async with self._database.transaction(
                tenant=tenant, write=True
            ) as connection:
                if saga.revision == 0:
                    await connection.execute(
                        insert(table).values(
                            tenant_id=tenant,
                            saga_type=saga.saga_type,
                            association=saga.association,
                            **values,
                        )
                    )
                    updated = 1
                else:
                    result = await connection.execute(
                        update(table)
                        .where(*key, table.c.revision == saga.revision)
                        .values(**values)
                    )
                    updated = result.rowcount
        except IntegrityError as error:
            raise self._conflict(
                saga, await self.load(saga.saga_type, saga.association)
            ) from error
        if updated != 1:
            raise self._conflict(
                saga, await self.load(saga.saga_type, saga.association)
            )
        return replace(saga, revision=saga.revision + 1)

    @staticmethod
    def _conflict(saga: SagaState, stored: SagaState | None) -> ConcurrencyError:
        actual = 0 if stored is None else stored.revision
        return ConcurrencyError(
            "saga:" + saga.saga_type, saga.association, saga.revision, actual
        )

    async def tracking_position(self, runner: str) -> int:
        table = self._database.tables.saga_positions
        async with self._database.transaction(platform=True) as connection:
            position = await connection.scalar(
                select(table.c.position).where(table.c.runner == runner)
            )
        return int(position or 0)

    async def save_tracking_position(self, runner: str, position: int) -> None:
        table = self._database.tables.saga_positions
        statement = self._database.upsert(table).values(
            runner=runner, position=position
        )
        statement = statement.on_conflict_do_update(
            index_elements=[table.c.runner],
            set_={"position": statement.excluded.position},
        )
        async with self._database.transaction(platform=True, write=True) as connection:
            await connection.execute(statement)
