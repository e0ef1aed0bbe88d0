"""The contract every EventStore adapter passes."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from eaf.context import MissingTenantError, SecurityContext, platform_context, use
from eaf.eventsourcing.errors import ConcurrencyError, DuplicateEventError
from eaf.eventsourcing.outbox import Outbox
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.records import NewEvent
from eaf.eventsourcing.testing.helpers import as_tenant, new_events
from eaf.eventsourcing.testing.stream_appends import StreamAppendsContract

__all__ = ["EventStoreContract"]


@pytest.mark.asyncio
class EventStoreContract(StreamAppendsContract):
    """Subclasses provide an ``event_store`` fixture; ``outbox`` defaults to its
    ``outbox`` attribute."""

    @pytest.fixture
    def outbox(self, event_store: EventStore) -> Outbox:
        found: Outbox = getattr(event_store, "outbox")  # noqa: B009 - not part of the port
        return found

    async def test_append_records_versions_positions_and_metadata(
        self, event_store: EventStore
    ) -> None:
        context = SecurityContext(tenant_id="acme", user_id="ann", causation_id="cmd-1")
        events = [
            NewEvent("Opened", {"owner": "ann"}),
            NewEvent("Deposited", {"amount": 5}),
        ]
        before = datetime.now(UTC) - timedelta(seconds=5)
        with use(context):
            stored = await event_store.append(
                "Account", "a-1", events, expected_version=0
            )
        assert [e.stream_version for e in stored] == [1, 2]
        assert stored[0].position < stored[1].position
        assert [e.event_id for e in stored] == [e.event_id for e in events]
        first = stored[0]
        assert (first.tenant_id, first.stream_type, first.stream_id) == (
            "acme",
            "Account",
            "a-1",
        )
        assert (first.event_type, first.schema_version, first.payload) == (
            "Opened",
            1,
            {"owner": "ann"},
        )
        assert first.metadata.tenant_id == "acme"
        assert first.metadata.user_id == "ann"
        assert first.metadata.correlation_id == context.correlation_id
        assert first.metadata.causation_id == "cmd-1"
        assert first.recorded_at.tzinfo is not None
        assert first.recorded_at >= before

    async def test_read_stream_returns_what_was_appended_in_order(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            appended = await event_store.append(
                "Account", "a-1", new_events(3), expected_version=0
            )
            appended += await event_store.append(
                "Account", "a-1", new_events(2, start=4), expected_version=3
            )
            await event_store.append(
                "Account", "a-2", new_events(1), expected_version=0
            )
            read = await event_store.read_stream("Account", "a-1")
            tail = await event_store.read_stream("Account", "a-1", after_version=3)
        assert read == appended
        assert [e.payload["n"] for e in read] == [1, 2, 3, 4, 5]
        assert [e.stream_version for e in tail] == [4, 5]

    async def test_payloads_round_trip_as_json(self, event_store: EventStore) -> None:
        payload = {
            "name": "Zoë ✓",
            "nested": {"list": [1, 2.5, None, True]},
            "empty": {},
        }
        with as_tenant("acme"):
            await event_store.append(
                "Doc", "d", [NewEvent("Written", payload)], expected_version=0
            )
            (read,) = await event_store.read_stream("Doc", "d")
        assert read.payload == payload

    async def test_stream_version(self, event_store: EventStore) -> None:
        with as_tenant("acme"):
            assert await event_store.stream_version("Account", "a-1") == 0
            await event_store.append(
                "Account", "a-1", new_events(4), expected_version=0
            )
            assert await event_store.stream_version("Account", "a-1") == 4
            assert await event_store.stream_version("Other", "a-1") == 0

    async def test_wrong_expected_version_raises_and_writes_nothing(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            await event_store.append(
                "Account", "a-1", new_events(2), expected_version=0
            )
            for expected in (0, 1, 3):
                with pytest.raises(ConcurrencyError) as raised:
                    await event_store.append(
                        "Account",
                        "a-1",
                        new_events(1, start=9),
                        expected_version=expected,
                    )
                assert (raised.value.expected, raised.value.actual) == (expected, 2)
                assert "Account/a-1" in str(raised.value)
            assert len(await event_store.read_stream("Account", "a-1")) == 2

    async def test_empty_append_checks_the_version_and_stores_nothing(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            assert (
                await event_store.append("Account", "a-1", [], expected_version=0) == []
            )
            with pytest.raises(ConcurrencyError):
                await event_store.append("Account", "a-1", [], expected_version=1)
            assert await event_store.stream_version("Account", "a-1") == 0

    async def test_concurrent_writers_of_one_version_have_one_winner(
        self, event_store: EventStore
    ) -> None:
        async def write(writer: int) -> bool:
            try:
                await event_store.append(
                    "Account",
                    "a-1",
                    [NewEvent("Won", {"writer": writer})],
                    expected_version=1,
                )
            except ConcurrencyError:
                return False
            return True

        with as_tenant("acme"):
            await event_store.append(
                "Account", "a-1", new_events(1), expected_version=0
            )
            results = await asyncio.gather(*(write(n) for n in range(8)))
            stream = await event_store.read_stream("Account", "a-1")
        assert results.count(True) == 1
        assert [e.stream_version for e in stream] == [1, 2]
        assert stream[1].payload == {"writer": results.index(True)}

    async def test_duplicate_event_id_is_rejected(
        self, event_store: EventStore
    ) -> None:
        event = NewEvent("Opened", {})
        with as_tenant("acme"):
            await event_store.append("Account", "a-1", [event], expected_version=0)
            with pytest.raises(DuplicateEventError):
                await event_store.append("Account", "a-2", [event], expected_version=0)
            assert await event_store.stream_version("Account", "a-2") == 0

    async def test_read_all_in_global_order_from_a_token(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            for n in range(1, 6):
                await event_store.append(
                    "Account",
                    f"a-{n % 2}",
                    new_events(1, start=n),
                    expected_version=(n - 1) // 2,
                )
            everything = await event_store.read_all()
            after_second = await event_store.read_all(after=everything[1].position)
            limited = await event_store.read_all(limit=2)
        assert [e.payload["n"] for e in everything] == [1, 2, 3, 4, 5]
        positions = [e.position for e in everything]
        assert positions == sorted(set(positions))
        assert after_second == everything[2:]
        assert limited == everything[:2]

    async def test_read_all_filters_event_types(self, event_store: EventStore) -> None:
        with as_tenant("acme"):
            await event_store.append(
                "Account",
                "a-1",
                [
                    NewEvent("Opened", {}),
                    NewEvent("Deposited", {}),
                    NewEvent("Closed", {}),
                ],
                expected_version=0,
            )
            found = await event_store.read_all(event_types=["Opened", "Closed"])
        assert [e.event_type for e in found] == ["Opened", "Closed"]

    async def test_tenants_never_see_each_other(self, event_store: EventStore) -> None:
        with as_tenant("acme"):
            await event_store.append(
                "Account", "shared-id", new_events(2), expected_version=0
            )
        with as_tenant("globex"):
            assert await event_store.read_stream("Account", "shared-id") == []
            assert await event_store.stream_version("Account", "shared-id") == 0
            assert await event_store.read_all() == []
            own = await event_store.append(
                "Account", "shared-id", new_events(1), expected_version=0
            )
            assert own[0].stream_version == 1
            assert [e.tenant_id for e in await event_store.read_all()] == ["globex"]
        with as_tenant("acme"):
            assert len(await event_store.read_stream("Account", "shared-id")) == 2
            assert {e.tenant_id for e in await event_store.read_all()} == {"acme"}

    async def test_platform_context_reads_every_tenant(
        self, event_store: EventStore
    ) -> None:
        for tenant in ("acme", "globex"):
            with as_tenant(tenant):
                await event_store.append(
                    "Account", "a", new_events(1), expected_version=0
                )
        with use(platform_context()):
            found = await event_store.read_all()
            with pytest.raises(MissingTenantError):
                await event_store.append(
                    "Account", "a", new_events(1), expected_version=1
                )
        assert [e.tenant_id for e in found] == ["acme", "globex"]

    async def test_no_tenant_no_access(self, event_store: EventStore) -> None:
        with as_tenant("acme"):
            await event_store.append("Account", "a", new_events(1), expected_version=0)
        await _assert_denied(event_store)  # no security context at all
        with use(
            SecurityContext(user_id="nobody")
        ):  # a context without tenant or platform
            await _assert_denied(event_store)

    async def test_append_writes_the_outbox(
        self, event_store: EventStore, outbox: Outbox
    ) -> None:
        with as_tenant("acme"):
            stored = await event_store.append(
                "Account", "a", new_events(2), expected_version=0
            )
        with as_tenant("globex"):
            stored += await event_store.append(
                "Account", "a", new_events(1), expected_version=0
            )
        pending = await outbox.pending(10)
        assert [m.position for m in pending] == [e.position for e in stored]
        assert [m.event_id for m in pending] == [str(e.event_id) for e in stored]
        assert pending[2].tenant_id == "globex"
        assert pending[0].metadata["tenant_id"] == "acme"
        assert pending[0].payload == {"n": 1}
        await outbox.mark_published([pending[0].position, pending[1].position])
        assert [m.position for m in await outbox.pending(10)] == [stored[2].position]
        assert len(await outbox.pending(0)) == 0

    async def test_failed_append_leaves_no_outbox_rows(
        self, event_store: EventStore, outbox: Outbox
    ) -> None:
        with as_tenant("acme"):
            await event_store.append("Account", "a", new_events(1), expected_version=0)
            with pytest.raises(ConcurrencyError):
                await event_store.append(
                    "Account", "a", new_events(3), expected_version=0
                )
        assert len(await outbox.pending(10)) == 1

    async def test_event_ids_are_kept(self, event_store: EventStore) -> None:
        event_id = uuid.uuid4()
        with as_tenant("acme"):
            await event_store.append(
                "Account",
                "a",
                [NewEvent("Opened", {}, event_id=event_id)],
                expected_version=0,
            )
            (read,) = await event_store.read_stream("Account", "a")
        assert read.event_id == event_id


async def _assert_denied(event_store: EventStore) -> None:
    with pytest.raises(MissingTenantError):
        await event_store.read_all()
    with pytest.raises(MissingTenantError):
        await event_store.read_stream("Account", "a")
    with pytest.raises(MissingTenantError):
        await event_store.stream_version("Account", "a")
    with pytest.raises(MissingTenantError):
        await event_store.append("Account", "b", new_events(1), expected_version=0)
