"""The contract of ``EventStore.append_streams``: several streams, all or nothing."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from eaf.context import MissingTenantError, SecurityContext, platform_context, use
from eaf.eventsourcing.errors import ConcurrencyError, DuplicateEventError
from eaf.eventsourcing.outbox import Outbox
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.records import NewEvent, StoredEvent, StreamAppend
from eaf.eventsourcing.testing.helpers import as_tenant, new_events

__all__ = ["StreamAppendsContract"]


def _borrow(book_version: int, loan_id: str) -> list[StreamAppend]:
    """Take a copy of book 1 and open a loan: the cross-aggregate command of the tests."""
    return [
        StreamAppend("Book", "1", [NewEvent("CopyTaken", {})], book_version),
        StreamAppend("Loan", loan_id, [NewEvent("LoanOpened", {})], 0),
    ]


async def _add_book(event_store: EventStore) -> None:
    await event_store.append(
        "Book", "1", [NewEvent("BookAdded", {"copies": 1})], expected_version=0
    )


@pytest.mark.asyncio
class StreamAppendsContract:
    """Part of :class:`EventStoreContract`; needs its ``event_store`` and ``outbox``."""

    async def test_append_streams_stores_each_entry_in_order(
        self, event_store: EventStore
    ) -> None:
        context = SecurityContext(tenant_id="acme", user_id="ann", causation_id="cmd-1")
        with use(context):
            await _add_book(event_store)
            opened = [NewEvent("LoanOpened", {"book": "1"}), NewEvent("Noted", {})]
            book, loan = await event_store.append_streams(
                [
                    StreamAppend("Book", "1", [NewEvent("CopyTaken", {"n": 1})], 1),
                    StreamAppend("Loan", "l-1", opened, 0),
                ]
            )
            assert await event_store.read_stream("Book", "1", after_version=1) == book
            assert await event_store.read_stream("Loan", "l-1") == loan
            everything = await event_store.read_all()
        assert [(e.stream_type, e.stream_version) for e in book + loan] == [
            ("Book", 2),
            ("Loan", 1),
            ("Loan", 2),
        ]
        assert [e.event_id for e in loan] == [e.event_id for e in opened]
        assert [e.payload for e in book + loan] == [{"n": 1}, {"book": "1"}, {}]
        positions = [e.position for e in book + loan]
        assert positions == sorted(set(positions))
        assert everything[1:] == book + loan  # read_all: the same events, in order
        for stored in book + loan:
            assert stored.tenant_id == stored.metadata.tenant_id == "acme"
            assert stored.metadata.user_id == "ann"
            assert stored.metadata.causation_id == "cmd-1"
            assert stored.recorded_at == book[0].recorded_at

    async def test_new_streams_are_created_together(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            created = await event_store.append_streams(
                [
                    StreamAppend("Loan", "l-1", new_events(2), 0),
                    StreamAppend("Key", "isbn:123", new_events(1, start=3), 0),
                ]
            )
            versions = [
                await event_store.stream_version("Loan", "l-1"),
                await event_store.stream_version("Key", "isbn:123"),
            ]
            again = event_store.append_streams(
                [StreamAppend("Key", "isbn:123", new_events(1, start=4), 0)]
            )
            with pytest.raises(ConcurrencyError):
                await again
        assert [[e.stream_version for e in stream] for stream in created] == [
            [1, 2],
            [1],
        ]
        assert versions == [2, 1]

    async def test_a_conflict_on_a_later_entry_leaves_the_earlier_untouched(
        self, event_store: EventStore, outbox: Outbox
    ) -> None:
        with as_tenant("acme"):
            await _add_book(event_store)
            with pytest.raises(ConcurrencyError) as raised:
                await event_store.append_streams(
                    [
                        StreamAppend("Loan", "l-1", new_events(2), 0),
                        StreamAppend("Book", "1", new_events(1), 0),
                        StreamAppend("Member", "m-1", new_events(1), 0),
                    ]
                )
            assert await event_store.stream_version("Loan", "l-1") == 0
            assert await event_store.stream_version("Member", "m-1") == 0
            assert len(await event_store.read_all()) == 1
        error = raised.value
        assert (error.stream_type, error.stream_id) == ("Book", "1")
        assert (error.expected, error.actual) == (0, 1)
        assert len(await outbox.pending(10)) == 1

    async def test_the_first_conflicting_entry_is_reported(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            await event_store.append("A", "a", new_events(2), expected_version=0)
            await event_store.append("B", "b", new_events(3), expected_version=0)
            with pytest.raises(ConcurrencyError) as raised:
                await event_store.append_streams(
                    [
                        StreamAppend("C", "c", new_events(1), 0),
                        StreamAppend("B", "b", new_events(1), 1),
                        StreamAppend("A", "a", new_events(1), 1),
                    ]
                )
        error = raised.value
        assert (error.stream_type, error.stream_id, error.expected, error.actual) == (
            "B",
            "b",
            1,
            3,
        )

    async def test_an_entry_without_events_asserts_the_version(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            await _add_book(event_store)
            checked = await event_store.append_streams(
                [
                    StreamAppend("Book", "1", [], 1),  # still there, unchanged
                    StreamAppend("Key", "isbn:123", [], 0),  # still free
                    StreamAppend("Loan", "l-1", new_events(1), 0),
                ]
            )
            for stale in (
                StreamAppend("Book", "1", [], 2),
                StreamAppend("Book", "1", [], 0),
            ):
                with pytest.raises(ConcurrencyError) as raised:
                    await event_store.append_streams(
                        [StreamAppend("Loan", "l-2", new_events(1), 0), stale]
                    )
                assert (raised.value.stream_type, raised.value.actual) == ("Book", 1)
            versions = [
                await event_store.stream_version(kind, name)
                for kind, name in [("Book", "1"), ("Key", "isbn:123"), ("Loan", "l-2")]
            ]
            everything = await event_store.read_all()
        assert [len(stored) for stored in checked] == [0, 0, 1]
        assert versions == [1, 0, 0]
        assert [e.stream_type for e in everything] == ["Book", "Loan"]

    async def test_a_stream_named_twice_is_refused(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            for twice in (
                [
                    StreamAppend("Book", "1", new_events(1), 0),
                    StreamAppend("Book", "1", new_events(1, start=2), 1),
                ],
                [
                    StreamAppend("Book", "1", new_events(1), 0),
                    StreamAppend("Loan", "1", [], 0),
                    StreamAppend("Book", "1", [], 0),
                ],
            ):
                with pytest.raises(ValueError, match="Book/1"):
                    await event_store.append_streams(twice)
            assert await event_store.read_all() == []

    async def test_a_duplicate_event_id_refuses_every_entry(
        self, event_store: EventStore
    ) -> None:
        event = NewEvent("Opened", {})
        with as_tenant("acme"):
            await event_store.append("Account", "a", [event], expected_version=0)
            for repeated in (event, NewEvent("Other", {}, event_id=uuid.uuid4())):
                entries = [
                    StreamAppend("Account", "b", [repeated], 0),
                    StreamAppend("Account", "c", [repeated], 0),
                ]
                with pytest.raises(DuplicateEventError):
                    await event_store.append_streams(entries)
            assert len(await event_store.read_all()) == 1

    async def test_nothing_to_append(self, event_store: EventStore) -> None:
        with as_tenant("acme"):
            assert await event_store.append_streams([]) == []

    async def test_streams_are_the_current_tenants(
        self, event_store: EventStore
    ) -> None:
        with as_tenant("acme"):
            await event_store.append("Book", "1", new_events(2), expected_version=0)
        with as_tenant("globex"):  # its own book 1: a new stream
            book, loan = await event_store.append_streams(_borrow(0, "l-1"))
            with pytest.raises(ConcurrencyError):
                await event_store.append_streams([StreamAppend("Book", "1", [], 2)])
            assert {e.tenant_id for e in await event_store.read_all()} == {"globex"}
        with as_tenant("acme"):
            assert await event_store.stream_version("Book", "1") == 2
            assert await event_store.stream_version("Loan", "l-1") == 0
        assert (book[0].tenant_id, book[0].stream_version) == ("globex", 1)
        assert loan[0].tenant_id == "globex"
        for context in (platform_context(), SecurityContext(user_id="nobody")):
            with use(context), pytest.raises(MissingTenantError):
                await event_store.append_streams(_borrow(0, "l-2"))
        with pytest.raises(MissingTenantError):  # no context at all
            await event_store.append_streams(_borrow(0, "l-2"))

    async def test_the_outbox_carries_a_multi_stream_append(
        self, event_store: EventStore, outbox: Outbox
    ) -> None:
        with as_tenant("acme", causation_id="cmd-7"):
            await _add_book(event_store)
            book, loan = await event_store.append_streams(_borrow(1, "l-1"))
            later = await event_store.append(
                "Loan", "l-1", new_events(1), expected_version=1
            )
        pending = await outbox.pending(10)
        assert [m.event_id for m in pending[1:]] == [
            str(e.event_id) for e in book + loan + later
        ]
        assert [(m.stream_type, m.stream_version) for m in pending[1:3]] == [
            ("Book", 2),
            ("Loan", 1),
        ]
        assert {m.metadata["causation_id"] for m in pending[1:3]} == {"cmd-7"}
        await outbox.mark_published([m.position for m in pending[:3]])
        assert [m.event_id for m in await outbox.pending(10)] == [
            str(later[0].event_id)
        ]

    async def test_concurrent_borrowers_of_one_copy_have_one_winner(
        self, event_store: EventStore
    ) -> None:
        everyone_read = asyncio.Barrier(10)

        async def borrow() -> list[list[StoredEvent]] | ConcurrencyError:
            version = await event_store.stream_version("Book", "1")
            await everyone_read.wait()  # all ten read the same version
            try:
                return await event_store.append_streams(
                    _borrow(version, str(uuid.uuid4()))
                )
            except ConcurrencyError as error:
                return error

        with as_tenant("acme"):
            await _add_book(event_store)
            results = await asyncio.gather(*(borrow() for _ in range(10)))
            everything = await event_store.read_all()
        won = [result for result in results if not isinstance(result, Exception)]
        lost = [result for result in results if isinstance(result, ConcurrencyError)]
        assert (len(won), len(lost)) == (1, 9)
        assert {(e.stream_type, e.stream_id) for e in lost} == {("Book", "1")}
        assert [e.stream_type for e in everything] == ["Book", "Book", "Loan"]
        assert everything[1:] == won[0][0] + won[0][1]

    async def test_a_refused_multi_stream_append_fails_alone_among_concurrent_ones(
        self, event_store: EventStore
    ) -> None:
        async def write(n: int) -> object:
            if n % 2 == 0:
                return await event_store.append(
                    "Doc", f"d-{n}", new_events(1), expected_version=0
                )
            entries = [  # book 1 is at version 1: every odd writer conflicts
                StreamAppend("Doc", f"d-{n}", new_events(1), 0),
                StreamAppend("Book", "1", new_events(1), 0),
            ]
            return await event_store.append_streams(entries)

        with as_tenant("acme"):
            await _add_book(event_store)
            results = await asyncio.gather(
                *(write(n) for n in range(12)), return_exceptions=True
            )
            stored = await event_store.read_all()
        refused = [n for n, r in enumerate(results) if isinstance(r, ConcurrencyError)]
        assert refused == list(range(1, 12, 2))
        assert sorted(e.stream_id for e in stored if e.stream_type == "Doc") == sorted(
            f"d-{n}" for n in range(0, 12, 2)
        )
