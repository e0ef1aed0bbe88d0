"""Projection rebuild speed: events per second from the event store into a read model.

Ours: the sample service's generated projection (`SampleUserProfileList`, a row per
profile) rebuilt by eaf's `StoreFollower.rebuild()`: events read in order, 500 a batch,
each decoded (upcasting included) and upserted, the batch and its checkpoint and the
remembered event ids in one transaction (exactly-once effects).
Baseline: a plain loop over the same SQLite file doing the same inserts: read the events in
order 500 at a time with sqlite3, build the same rows from the JSON payloads, insert them
with `executemany`, one commit per batch (no checkpoint, no deduplication, no decoding).

Both read the same events of the same file, side by side, best of a few rounds; the ratio
is ours / plain in events per second (1.0 = as fast as the plain loop).

Run: .venv/bin/python benchmarks/projections.py [--events 20000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from eaf.context import SecurityContext, use
from eaf.eventsourcing import NewEvent, StreamAppend, create_event_store
from eaf.projectors import Projector, StoreFollower, projection_store
from user_profile.infrastructure.projections import SAMPLE_USER_PROFILE_LIST

BATCH = 500
EVENT_TYPE = "SampleUserProfileCreated"


async def fill(url: str, count: int) -> None:
    """``count`` profiles created, 100 streams an append, in two tenants."""
    store = await create_event_store(url)
    try:
        now = datetime.now(UTC).isoformat()
        for start in range(0, count, 100):
            tenant = "acme" if start % 200 == 0 else "globex"
            appends = []
            for index in range(start, min(start + 100, count)):
                profile = str(uuid.uuid4())
                payload = {
                    "profile_id": profile,
                    "name": f"Profile {index}",
                    "email": f"p{index}@example.org",
                    "occurred_at": now,
                }
                appends.append(
                    StreamAppend("SampleUserProfile", profile, [NewEvent(EVENT_TYPE, payload)], 0)
                )
            with use(SecurityContext(tenant_id=tenant)):
                await store.append_streams(appends)
    finally:
        await store.close()


async def ours(url: str) -> tuple[int, float]:
    store = await create_event_store(url)
    try:
        projector = Projector(SAMPLE_USER_PROFILE_LIST, projection_store(store))
        await projector.start()
        follower = StoreFollower(projector, store, batch_size=BATCH)
        started = time.perf_counter()
        count = await follower.rebuild()
        return count, time.perf_counter() - started
    finally:
        await store.close()


def plain(path: Path) -> tuple[int, float]:
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("DROP TABLE IF EXISTS plain_profiles")
        connection.execute(
            "CREATE TABLE plain_profiles (tenant_id TEXT, id TEXT, name TEXT, email TEXT,"
            " created_at TEXT, updated_at TEXT, PRIMARY KEY (tenant_id, id))"
        )
        started = time.perf_counter()
        after, count = 0, 0
        while True:
            rows = connection.execute(
                "SELECT position, tenant_id, payload FROM eaf_events"
                " WHERE position > ? AND event_type = ? ORDER BY position LIMIT ?",
                (after, EVENT_TYPE, BATCH),
            ).fetchall()
            if not rows:
                break
            values = []
            for _, tenant, text in rows:
                event = json.loads(text)
                values.append(
                    (
                        tenant,
                        event["profile_id"],
                        event["name"],
                        event["email"],
                        event["occurred_at"],
                        event["occurred_at"],
                    )
                )
            connection.execute("BEGIN")
            connection.executemany(
                "INSERT OR REPLACE INTO plain_profiles VALUES (?, ?, ?, ?, ?, ?)", values
            )
            connection.execute("COMMIT")
            after = rows[-1][0]
            count += len(rows)
        return count, time.perf_counter() - started
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "events.db"
        url = f"sqlite+aiosqlite:///{path}"
        asyncio.run(fill(url, options.events))
        best_ours = best_plain = 0.0
        for round_ in range(options.rounds):
            count, seconds = asyncio.run(ours(url))
            rate_ours = count / seconds
            plain_count, plain_seconds = plain(path)
            rate_plain = plain_count / plain_seconds
            assert count == plain_count == options.events, (count, plain_count)
            best_ours, best_plain = max(best_ours, rate_ours), max(best_plain, rate_plain)
            print(
                f"round {round_ + 1}: rebuild {rate_ours:,.0f} events/s"
                f"  plain loop {rate_plain:,.0f} events/s"
            )
    print(
        f"best: rebuild {best_ours:,.0f} events/s  plain loop {best_plain:,.0f} events/s"
        f"  ratio {best_ours / best_plain:.2f}"
    )


if __name__ == "__main__":
    main()
