"""Every projection store passes the same contract: in memory, SQLite, PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from eaf.eventsourcing import (
    EventStore,
    InMemoryEventStore,
    NewEvent,
    SqlEventStore,
    StoredEvent,
)
from eaf.projectors import (
    InMemoryProjectionStore,
    ProjectionStore,
    Projector,
    ReadModelWriter,
    SqlProjectionStore,
    StoreFollower,
)
from eaf.projectors.testing import (
    FAST_RETRY,
    ProjectionStoreContract,
    account_projection,
    as_tenant,
)


class TestInMemoryProjectionStore(ProjectionStoreContract):
    @pytest.fixture
    def event_store(self) -> EventStore:
        return InMemoryEventStore()

    @pytest.fixture
    def projection_store(self) -> ProjectionStore:
        return InMemoryProjectionStore()


class TestSqliteProjectionStore(ProjectionStoreContract):
    @pytest.fixture
    def event_store(self, sqlite_store: SqlEventStore) -> EventStore:
        return sqlite_store

    @pytest.fixture
    def projection_store(self, sqlite_store: SqlEventStore) -> ProjectionStore:
        return SqlProjectionStore(sqlite_store.database)


class TestPostgresProjectionStore(ProjectionStoreContract):
    @pytest.fixture
    def event_store(self, postgres_store: SqlEventStore) -> EventStore:
        return postgres_store

    @pytest.fixture
    def projection_store(self, postgres_store: SqlEventStore) -> ProjectionStore:
        return SqlProjectionStore(postgres_store.database)


async def test_custom_sql_handlers_share_the_batch_transaction(
    sql_events: SqlEventStore,
) -> None:
    """A custom handler's own SQL commits with the batch, sees the rows buffered
    before it; bad SQL and refused rows are the handler's fault: dead-lettered, not
    retried for ever."""
    events = sql_events
    projection = account_projection()
    table = projection.table

    @projection.handles("Doubled")
    async def doubled(writer: ReadModelWriter, event: StoredEvent) -> None:
        await writer.connection.execute(
            table.update()
            .where(
                table.c.tenant_id == writer.tenant_id,
                table.c.account_id == event.stream_id,
            )
            .values(balance=table.c.balance * 2)
        )
        writer.invalidate({"account_id": event.stream_id})

    @projection.handles("Broken")
    async def broken(writer: ReadModelWriter, event: StoredEvent) -> None:
        await writer.connection.execute(text("SELECT no_such_column FROM eaf_events"))

    store = SqlProjectionStore(events.database)
    projector = Projector(projection, store, retry=FAST_RETRY)
    await projector.start()
    with as_tenant("acme"):
        await events.append(
            "Account",
            "a-1",
            [
                NewEvent("Opened", {"owner": "ann"}),
                NewEvent("Deposited", {"amount": 4}),
                NewEvent("Doubled", {}),
                NewEvent("Broken", {}),
                NewEvent("Deposited", {"amount": 1}),
            ],
            expected_version=0,
        )
        for account, owner in (("a-2", None), ("a-3", "al")):  # NOT NULL owner
            opened = NewEvent("Opened", {"owner": owner})
            await events.append("Account", account, [opened], expected_version=0)
    await StoreFollower(projector, events).run_until_idle()
    rows = await store.find(projection, "acme", {})
    assert [(r["account_id"], r["balance"], r["deposits"]) for r in rows] == [
        ("a-1", 9, 2),
        ("a-3", 0, 0),
    ]
    letters = await store.dead_letters("accounts")
    assert [letter.event_type for letter in letters] == ["Broken", "Opened"]
    assert "IntegrityError" in letters[1].reason
