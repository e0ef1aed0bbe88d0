"""Property tests: concurrent writers never overwrite or lose events, multi-stream
appends land whole or not at all, and a catch-up reader racing concurrent writers on
PostgreSQL sees every committed event exactly once."""

from __future__ import annotations

import asyncio
import uuid

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from eaf.context import platform_context, use
from eaf.eventsourcing import (
    ConcurrencyError,
    NewEvent,
    SqlEventStore,
    StoredEvent,
    StreamAppend,
)
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.testing import Backend, as_tenant

# Each example reuses the test's store with fresh stream ids.
_settings = settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

writers_plans = st.lists(  # per writer: the batch sizes it appends, one after another
    st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=3),
    min_size=2,
    max_size=6,
)


async def _write(
    store: EventStore, stream_id: str, writer: int, batches: list[int]
) -> tuple[list[list[str]], int]:
    """Append each batch with the version this writer last saw, retrying on conflict.
    Returns the committed batches' event ids and how many attempts lost a race."""
    committed: list[list[str]] = []
    conflicts = 0
    for number, size in enumerate(batches):
        while True:
            version = await store.stream_version("Race", stream_id)
            await asyncio.sleep(0)  # let the other writers read the same version
            events = [
                NewEvent("Wrote", {"writer": writer, "batch": number, "i": i})
                for i in range(size)
            ]
            try:
                await store.append("Race", stream_id, events, expected_version=version)
            except ConcurrencyError:
                conflicts += 1
                continue
            committed.append([str(e.event_id) for e in events])
            break
    return committed, conflicts


@_settings
@given(plan=writers_plans)
async def test_one_winner_per_version_and_no_lost_events(
    backend: Backend, plan: list[list[int]]
) -> None:
    stream_id = str(uuid.uuid4())
    with as_tenant("acme"):
        results = await asyncio.gather(
            *(
                _write(backend.events, stream_id, n, batches)
                for n, batches in enumerate(plan)
            )
        )
        stream = await backend.events.read_stream("Race", stream_id)
    committed = [batch for batches, _ in results for batch in batches]
    event("writers raced" if sum(conflicts for _, conflicts in results) else "no race")
    assert [e.stream_version for e in stream] == list(range(1, len(stream) + 1))
    ids = [str(e.event_id) for e in stream]
    assert len(ids) == len(set(ids)) == sum(len(batch) for batch in committed)
    for batch in committed:  # each batch landed whole and contiguous
        start = ids.index(batch[0])
        assert ids[start : start + len(batch)] == batch


commands_plans = st.lists(  # per writer, its commands: stream -> write (or only assert)
    st.lists(
        st.dictionaries(st.sampled_from("abcd"), st.booleans(), min_size=1, max_size=3),
        min_size=1,
        max_size=3,
    ),
    min_size=2,
    max_size=5,
)


async def _command(
    store: EventStore, run: str, writer: int, commands: list[dict[str, bool]]
) -> tuple[list[list[StoredEvent]], int]:
    """Run each command (an event to each stream it writes, a version assertion on the
    others) with the versions this writer last read, retrying on conflict. Returns the
    committed commands' stored events and how many attempts lost a race."""
    committed: list[list[StoredEvent]] = []
    conflicts = 0
    for number, streams in enumerate(commands):
        while True:
            entries = []
            for name, writes in streams.items():
                version = await store.stream_version("Multi", f"{run}-{name}")
                payload = {"writer": writer, "command": number}
                events = [NewEvent("Wrote", payload)] if writes else []
                entries.append(StreamAppend("Multi", f"{run}-{name}", events, version))
            await asyncio.sleep(0)  # let the other writers read the same versions
            try:
                stored = await store.append_streams(entries)
            except ConcurrencyError:
                conflicts += 1
                continue
            committed.append([event for events in stored for event in events])
            break
    return committed, conflicts


@_settings
@given(plan=commands_plans)
async def test_multi_stream_appends_land_whole_or_not_at_all(
    backend: Backend, plan: list[list[dict[str, bool]]]
) -> None:
    run = uuid.uuid4().hex
    with as_tenant("acme"):
        results = await asyncio.gather(
            *(
                _command(backend.events, run, n, commands)
                for n, commands in enumerate(plan)
            )
        )
        streams = {
            name: await backend.events.read_stream("Multi", f"{run}-{name}")
            for name in "abcd"
        }
    committed = [events for per_writer, _ in results for events in per_writer]
    event("writers raced" if sum(conflicts for _, conflicts in results) else "no race")
    stored = {e.event_id: e for stream in streams.values() for e in stream}
    for stream in streams.values():  # no version taken twice, none skipped
        assert [e.stream_version for e in stream] == list(range(1, len(stream) + 1))
    # Every event of a committed command is stored, and nothing else is.
    assert len(stored) == sum(len(events) for events in committed)
    for events in committed:
        assert [stored[e.event_id] for e in events] == events
        positions = [e.position for e in events]
        assert positions == sorted(set(positions))
        assert len({e.stream_id for e in events}) == len(events)


streams_plans = st.lists(  # per stream: its batch sizes
    st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=6),
    min_size=2,
    max_size=8,
)


@_settings
@given(plan=streams_plans, limit=st.integers(min_value=1, max_value=20))
async def test_catch_up_reader_sees_every_commit_once_on_postgres(
    postgres_store: SqlEventStore, plan: list[list[int]], limit: int
) -> None:
    run = uuid.uuid4().hex

    async def write(stream: int, batches: list[int]) -> None:
        with as_tenant("acme" if stream % 2 else "globex"):
            version = 0
            for size in batches:
                events = [
                    NewEvent("Wrote", {"run": run, "stream": stream})
                    for _ in range(size)
                ]
                await postgres_store.append(
                    "Parallel", f"{run}-{stream}", events, expected_version=version
                )
                version += size

    with use(platform_context()):
        before = await postgres_store.read_all(after=0, limit=1_000_000)
    start = before[-1].position if before else 0
    stop = asyncio.Event()
    reader = asyncio.ensure_future(_catch_up_from(postgres_store, stop, limit, start))
    await asyncio.gather(*(write(n, batches) for n, batches in enumerate(plan)))
    stop.set()
    seen = await reader

    with use(platform_context()):
        final = await postgres_store.read_all(after=start, limit=1_000_000)
    assert [e.event_id for e in seen] == [e.event_id for e in final]
    assert len(seen) == sum(sum(batches) for batches in plan)
    positions = [e.position for e in seen]
    assert positions == sorted(set(positions))
    for stream in range(len(plan)):  # each stream in version order, without gaps
        versions = [e.stream_version for e in seen if e.stream_id == f"{run}-{stream}"]
        assert versions == list(range(1, len(versions) + 1))


async def _catch_up_from(
    store: SqlEventStore, stop: asyncio.Event, limit: int, token: int
) -> list[StoredEvent]:
    seen: list[StoredEvent] = []
    with use(platform_context()):
        while True:
            done = stop.is_set()
            batch = await store.read_all(after=token, limit=limit)
            seen.extend(batch)
            if batch:
                token = batch[-1].position
            elif done:
                return seen
            await asyncio.sleep(0)
