"""The contract every projection store passes: projecting exactly once, retries and
dead letters, resets, tenant isolation, the cache; with the query and schema
contracts it inherits."""

from __future__ import annotations

import asyncio

import pytest

from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.records import NewEvent, StoredEvent
from eaf.projectors.cache import ReadModelCache
from eaf.projectors.follow import StoreFollower
from eaf.projectors.ports import ProjectionStore, ReadModelWriter
from eaf.projectors.projection import Projection, upsert
from eaf.projectors.projector import Projector
from eaf.projectors.query import ReadModel
from eaf.projectors.tables import read_model_table
from eaf.projectors.testing.helpers import (
    FAST_RETRY,
    account_projection,
    all_rows,
    as_tenant,
    deposit,
    open_account,
    stored,
    then,
)
from eaf.projectors.testing.queries import QueryContract
from eaf.projectors.testing.schemas import SchemaContract


@pytest.mark.asyncio
class ProjectionStoreContract(QueryContract, SchemaContract):
    @pytest.fixture
    async def projector(self, projection_store: ProjectionStore) -> Projector:
        projector = Projector(account_projection(), projection_store, retry=FAST_RETRY)
        await projector.start()
        return projector

    async def test_projects_every_tenants_events_exactly_once(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        await open_account(event_store, "acme", "a-1", "ann")
        await open_account(event_store, "globex", "a-1", "bob")
        await then(event_store, "acme", "a-1", deposit(5), deposit(7))
        await then(event_store, "globex", "a-1", deposit(1))
        follower = StoreFollower(projector, event_store, batch_size=2)
        assert await follower.run_until_idle() == 5
        assert await follower.run_until_idle() == 0
        rows = await all_rows(projector.store, projector.projection, ["acme", "globex"])
        assert rows == [
            {
                "tenant_id": "acme",
                "account_id": "a-1",
                "owner": "ann",
                "balance": 12,
                "deposits": 2,
            },
            {
                "tenant_id": "globex",
                "account_id": "a-1",
                "owner": "bob",
                "balance": 1,
                "deposits": 1,
            },
        ]
        assert await projector.store.checkpoint("accounts") > 0

    async def test_a_batch_applied_again_changes_nothing(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        await open_account(event_store, "acme", "a-1", "ann")
        await then(event_store, "acme", "a-1", deposit(5))
        with as_tenant("acme"):
            events = await event_store.read_all()
        for dedup in ("position", "event_id", "position", "event_id"):
            await projector.project(events, dedup=dedup)
        with as_tenant("acme"):
            row = await ReadModel(projector.store, projector.projection).get(
                account_id="a-1"
            )
        assert row is not None
        assert (row["balance"], row["deposits"]) == (5, 1)

    async def test_update_and_delete(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        await open_account(event_store, "acme", "a-1", "ann")
        await open_account(event_store, "acme", "a-2", "al")
        await then(event_store, "acme", "a-1", NewEvent("Renamed", {"owner": "anna"}))
        await then(event_store, "acme", "a-2", NewEvent("Closed", {}))
        await StoreFollower(projector, event_store).run_until_idle()
        with as_tenant("acme"):
            rows = await ReadModel(projector.store, projector.projection).find()
        assert [(row["account_id"], row["owner"]) for row in rows] == [("a-1", "anna")]

    async def test_rebuild_from_zero_equals_the_incremental_model(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        follower = StoreFollower(projector, event_store, batch_size=3)
        tenants = ["acme", "globex", "initech"]
        for round_ in range(4):
            for index, tenant in enumerate(tenants):
                account = f"a-{round_ % 2}"
                with as_tenant(tenant):
                    version = await event_store.stream_version("Account", account)
                if version == 0:
                    await open_account(
                        event_store, tenant, account, f"{tenant}-{index}"
                    )
                await then(
                    event_store, tenant, account, deposit(round_ + index), deposit(1)
                )
                if round_ == 2 and index == 1:
                    await then(event_store, tenant, account, NewEvent("Closed", {}))
            await follower.run_until_idle()
        incremental = await all_rows(projector.store, projector.projection, tenants)
        checkpoint = await projector.store.checkpoint("accounts")
        assert await follower.rebuild() > 0
        assert (
            await all_rows(projector.store, projector.projection, tenants)
            == incremental
        )
        assert await projector.store.checkpoint("accounts") == checkpoint

    async def test_poison_event_is_retried_then_dead_lettered_and_skipped(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        await open_account(event_store, "acme", "a-1", "ann")
        await then(event_store, "acme", "a-1", deposit(5), deposit("boom"), deposit(7))
        follower = StoreFollower(projector, event_store)
        await follower.run_until_idle()
        with as_tenant("acme"):
            row = await ReadModel(projector.store, projector.projection).get(
                account_id="a-1"
            )
            poison = (await event_store.read_stream("Account", "a-1"))[2]
        assert row is not None
        assert (row["balance"], row["deposits"]) == (12, 2)
        [letter] = await projector.store.dead_letters("accounts")
        assert (letter.position, letter.event_id) == (
            poison.position,
            str(poison.event_id),
        )
        assert (letter.tenant_id, letter.event_type, letter.attempts) == (
            "acme",
            "Deposited",
            3,
        )
        assert "not an amount" in letter.reason
        assert follower.dead_letters == [letter]
        assert await projector.store.checkpoint("accounts") > poison.position
        assert await follower.run_until_idle() == 0

    async def test_a_failure_that_passes_is_retried_not_dead_lettered(
        self, event_store: EventStore, projection_store: ProjectionStore
    ) -> None:
        projection = account_projection("flaky")
        failures = [RuntimeError("down"), RuntimeError("still down")]
        inner = projection.handlers["Opened"]

        async def flaky(writer: ReadModelWriter, event: StoredEvent) -> None:
            await inner(writer, event)
            if failures:
                raise failures.pop()

        projection.handlers["Opened"] = flaky
        projector = Projector(projection, projection_store, retry=FAST_RETRY)
        await projector.start()
        await open_account(event_store, "acme", "a-1", "ann")
        await then(event_store, "acme", "a-1", deposit(2))
        await StoreFollower(projector, event_store).run_until_idle()
        assert await projection_store.dead_letters("flaky") == []
        assert [
            row["balance"]
            for row in await projection_store.find(projection, "acme", {})
        ] == [2]

    async def test_queries_see_only_the_current_tenant(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        await open_account(event_store, "acme", "a-1", "ann")
        await open_account(event_store, "acme", "a-2", "al")
        await open_account(event_store, "globex", "a-1", "bob")
        await open_account(event_store, "globex", "g-9", "gus")
        await StoreFollower(projector, event_store).run_until_idle()
        model = ReadModel(projector.store, projector.projection, cache=ReadModelCache())
        with as_tenant("acme"):
            assert {row["owner"] for row in await model.find()} == {"ann", "al"}
            assert (await model.get(account_id="a-1") or {})["owner"] == "ann"
            assert await model.get(account_id="g-9") is None
            assert await model.find(owner="bob") == []
        with as_tenant("globex"):
            assert (await model.get(account_id="a-1") or {})["owner"] == "bob"
            assert {row["tenant_id"] for row in await model.find()} == {"globex"}
        with pytest.raises(TypeError):
            await model.find(tenant_id="globex")

    async def test_projector_invalidates_the_cache_for_what_it_writes(
        self, event_store: EventStore, projection_store: ProjectionStore
    ) -> None:
        cache = ReadModelCache(max_entries=8)
        projection = account_projection()
        projector = Projector(projection, projection_store, cache=cache)
        await projector.start()
        model = ReadModel(projection_store, projection, cache=cache)
        follower = StoreFollower(projector, event_store)
        await open_account(event_store, "acme", "a-1", "ann")
        await open_account(event_store, "globex", "a-1", "bob")
        await follower.run_until_idle()
        with as_tenant("acme"):
            assert (await model.get(account_id="a-1") or {})["owner"] == "ann"
            assert (await model.get(account_id="a-1") or {})["owner"] == "ann"
        with as_tenant("globex"):
            assert (await model.get(account_id="a-1") or {})["owner"] == "bob"
        assert (cache.hits, len(cache)) == (1, 2)
        await then(event_store, "acme", "a-1", NewEvent("Renamed", {"owner": "anna"}))
        await follower.run_until_idle()
        assert ("acme", ("a-1",)) not in cache
        assert ("globex", ("a-1",)) in cache
        with as_tenant("acme"):
            assert (await model.get(account_id="a-1") or {})["owner"] == "anna"
        await then(event_store, "acme", "a-1", NewEvent("Closed", {}))
        await follower.run_until_idle()
        with as_tenant("acme"):
            assert await model.get(account_id="a-1") is None

    async def test_concurrent_projectors_apply_each_event_once(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        await open_account(event_store, "acme", "a-1", "ann")
        await then(event_store, "acme", "a-1", *[deposit(1) for _ in range(40)])
        followers = [
            StoreFollower(projector, event_store, batch_size=4) for _ in range(3)
        ]
        await asyncio.gather(*(follower.run_until_idle() for follower in followers))
        [row] = await projector.store.find(projector.projection, "acme", {})
        assert (row["balance"], row["deposits"]) == (40, 40)

    async def test_reset_forgets_rows_checkpoint_ids_and_dead_letters(
        self, event_store: EventStore, projector: Projector
    ) -> None:
        await open_account(event_store, "acme", "a-1", "ann")
        await then(event_store, "acme", "a-1", deposit("boom"))
        with as_tenant("acme"):
            events = await event_store.read_all()
        await projector.project(events, dedup="event_id")
        assert await projector.store.dead_letters("accounts")
        await projector.reset()
        assert await projector.store.checkpoint("accounts") == 0
        assert await projector.store.dead_letters("accounts") == []
        assert await projector.store.find(projector.projection, "acme", {}) == []
        await projector.project(events[:1], dedup="event_id")
        assert len(await projector.store.find(projector.projection, "acme", {})) == 1

    async def test_rows_of_another_tenant_cannot_be_written(
        self, projector: Projector
    ) -> None:
        projection = projector.projection

        @projection.handles("Hijack")
        async def hijack(writer: ReadModelWriter, event: StoredEvent) -> None:
            await writer.upsert(
                {
                    "tenant_id": "globex",
                    "account_id": "x",
                    "owner": "eve",
                    "balance": 0,
                    "deposits": 0,
                }
            )

        event = stored("Hijack", "acme", 1)
        await projector.project([event], dedup="position")
        [letter] = await projector.store.dead_letters("accounts")
        assert "cannot write a row of 'globex'" in letter.reason
        assert await projector.store.find(projection, "globex", {}) == []

    async def test_every_column_type_reads_back_as_written(
        self, projection_store: ProjectionStore
    ) -> None:
        """Text, integers, floats, booleans and JSON (null, nesting, lists) come back
        as the handler wrote them, however the store sends its rows."""
        table = read_model_table(
            "kinds_read_model",
            {
                "id": "str",
                "name": "str",
                "count": "int",
                "ratio": "float",
                "flag": "bool",
                "doc": "json",
            },
        )
        projection = Projection("kinds", table)
        projection.on("Put", upsert(lambda event: dict(event.payload)))
        rows: list[dict[str, object]] = [
            {
                "id": "a",
                "name": "ann",
                "count": 3,
                "ratio": 0.25,
                "flag": True,
                "doc": {"tags": ["x", "y"], "nested": {"deep": None}},
            },
            {
                "id": "b",
                "name": None,
                "count": None,
                "ratio": None,
                "flag": False,
                "doc": None,
            },
            {
                "id": "c",
                "name": "\u00e9 \u2713 ' \"",
                "count": -(2**40),
                "ratio": 1e300,
                "flag": None,
                "doc": [1, "two", 3.5, True],
            },
        ]
        projector = Projector(projection, projection_store, retry=FAST_RETRY)
        await projector.start()
        events = [
            stored("Put", "acme", index, row) for index, row in enumerate(rows, 1)
        ]
        await projector.project(events, dedup="position")
        assert await projection_store.dead_letters("kinds") == []
        found = await projection_store.find(projection, "acme", {})
        assert (
            sorted(
                ({k: v for k, v in row.items() if k != "tenant_id"} for row in found),
                key=lambda row: str(row["id"]),
            )
            == rows
        )
