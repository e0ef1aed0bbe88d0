"""A projector process killed with SIGKILL in the middle of a batch, then restarted,
ends with the read model a rebuild from the event store gives: no event applied twice,
none missed."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import eaf
from eaf.context import platform_context, use
from eaf.eventsourcing import NewEvent, create_event_store
from eaf.projectors import (
    InMemoryProjectionStore,
    Projector,
    SqlProjectionStore,
    StoreFollower,
)
from eaf.projectors.testing import account_projection, all_rows, as_tenant

BATCH = 10
TENANTS = ["acme", "globex", "initech"]

PROJECTOR = textwrap.dedent(
    f"""
    import asyncio, sys
    from eaf.eventsourcing import create_event_store
    from eaf.projectors import Projector, SqlProjectionStore, StoreFollower
    from eaf.projectors.testing import account_projection

    async def main(url: str) -> None:
        store = await create_event_store(url)
        projection = account_projection()
        deposited = projection.handlers["Deposited"]

        async def slowly(writer, event):
            print(f"handling {{event.position}}", flush=True)
            await asyncio.sleep(0.02)
            await deposited(writer, event)

        projection.handlers["Deposited"] = slowly
        projector = Projector(projection, SqlProjectionStore(store.database))
        await projector.start()
        await StoreFollower(projector, store, batch_size={BATCH}).run(asyncio.Event())

    asyncio.run(main(sys.argv[1]))
    """
)


def _kill_mid_batch(url: str, script: Path, after_handled: int) -> int:
    """Run the projector until it has handled ``after_handled`` deposits in this run,
    then SIGKILL it; the position it was handling."""
    source = str(Path(eaf.__file__).resolve().parent.parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")]),
    }
    process = subprocess.Popen(
        [sys.executable, str(script), url], stdout=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    position = 0
    try:
        for _ in range(after_handled):
            line = process.stdout.readline().strip()
            assert line.startswith("handling "), (line, process.poll())
            position = int(line.split()[1])
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait(timeout=30)
        process.stdout.close()
    assert process.returncode == -signal.SIGKILL
    return position


def _checkpoint(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as database:
        row = database.execute(
            "SELECT position FROM eaf_projection_checkpoints WHERE projection = 'accounts'"
        ).fetchone()
    return int(row[0]) if row else 0


async def test_sigkill_mid_batch_then_restart_equals_a_rebuild(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    url = f"sqlite+aiosqlite:///{path}"
    store = await create_event_store(url)
    deposits: Counter[tuple[str, str]] = Counter()
    for tenant in TENANTS:
        with as_tenant(tenant):
            for account in ("a-1", "a-2"):
                events = [NewEvent("Opened", {"owner": f"{tenant}-{account}"})]
                events += [NewEvent("Deposited", {"amount": n}) for n in range(1, 21)]
                await store.append("Account", account, events, expected_version=0)
                deposits[(tenant, account)] = 20
    await Projector(account_projection(), SqlProjectionStore(store.database)).start()
    await store.close()
    script = tmp_path / "projector.py"
    script.write_text(PROJECTOR)

    handled_in_flight = []
    for after_handled in (24, 17):  # mid-batch: batches of 10 hold opens and deposits
        checkpoint_before = _checkpoint(path)
        position = _kill_mid_batch(url, script, after_handled)
        checkpoint = _checkpoint(path)
        assert checkpoint_before < checkpoint < position  # committed some, not the last
        handled_in_flight.append(position)

    store = await create_event_store(url)
    try:
        projection = account_projection()
        projector = Projector(projection, SqlProjectionStore(store.database))
        await projector.start()
        assert (
            await StoreFollower(projector, store, batch_size=BATCH).run_until_idle() > 0
        )
        restarted = await all_rows(projector.store, projection, TENANTS)

        rebuilt_store = InMemoryProjectionStore()
        rebuilt = Projector(account_projection(), rebuilt_store)
        await StoreFollower(rebuilt, store).run_until_idle()
        assert restarted == await all_rows(rebuilt_store, rebuilt.projection, TENANTS)
        assert {
            (row["tenant_id"], row["account_id"]): row["deposits"] for row in restarted
        } == deposits
        assert all(row["balance"] == sum(range(1, 21)) for row in restarted)

        follower = StoreFollower(projector, store, batch_size=BATCH)
        await follower.rebuild()
        assert await all_rows(projector.store, projection, TENANTS) == restarted
        with use(platform_context()):
            last = (await store.read_all(after=0, limit=10_000))[-1].position
        assert await projector.store.checkpoint("accounts") == last
    finally:
        await store.close()
