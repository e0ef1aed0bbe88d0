"""``eaf projections list|rebuild`` run as a process against a SQLite database whose
projector runs in this test, as a service's would."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import eaf
from eaf.eventsourcing import SqlEventStore
from eaf.projectors import (
    Projector,
    SqlProjectionStore,
    StoreFollower,
    wait_until_caught_up,
)
from eaf.projectors.testing import ORDERS, all_rows, order_projection, place

TENANTS = ["acme", "globex"]


async def _eaf(*args: str) -> tuple[int, str, str]:
    """Run the ``eaf`` command line; its exit code, stdout and stderr."""
    source = str(Path(eaf.__file__).resolve().parent.parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")]),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "eaf.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        stdout, stderr = await asyncio.wait_for(process.communicate(), 120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


@pytest.fixture
def url(tmp_path: Path, sqlite_store: SqlEventStore) -> str:
    """The database as a service's configuration names it."""
    return f"sqlite:///{tmp_path}/events.db"


@pytest.fixture
async def follower(sqlite_store: SqlEventStore) -> AsyncIterator[StoreFollower]:
    """The orders of two tenants, followed by a running projector (caught up)."""
    projector = Projector(order_projection(), SqlProjectionStore(sqlite_store.database))
    await projector.start()
    await place(sqlite_store, "acme", ORDERS)
    await place(sqlite_store, "globex", {f"g{n:02}": {"items": n} for n in range(30)})
    follower = StoreFollower(projector, sqlite_store, batch_size=4, poll_interval=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(follower.run(stop))
    try:
        await wait_until_caught_up(
            sqlite_store.database, "orders", timeout=60, interval=0.05
        )
        yield follower
    finally:
        stop.set()
        await task


async def test_list_shows_each_projection_caught_up(
    follower: StoreFollower, url: str
) -> None:
    head = await follower.projector.store.checkpoint("orders")
    code, out, err = await _eaf("projections", "list", "--database", url)
    assert (code, err) == (0, "")
    header, line = out.splitlines()
    assert header.split() == ["NAME", "CHECKPOINT", "HEAD", "LAG", "DEAD", "LETTERS"]
    assert line.split() == ["orders", str(head), str(head), "0", "0"]


async def test_rebuild_waits_while_the_running_projector_replays(
    follower: StoreFollower, url: str
) -> None:
    store, projection = follower.projector.store, follower.projector.projection
    before = await all_rows(store, projection, TENANTS)
    head = await store.checkpoint("orders")
    code, out, err = await _eaf(
        "projections", "rebuild", "orders", "--database", url, "--wait",
        "--interval", "0.05", "--timeout", "120",
    )  # fmt: skip
    assert (code, err) == (0, ""), out
    lines = out.splitlines()
    assert lines[0] == f"orders: reset from position {head}; replaying from 0"
    assert lines[-1] == f"orders: caught up at position {head}"
    progress = lines[1:-1]
    assert progress and all(
        re.fullmatch(rf"orders: \d+/{head} \(\d+%\)", line) for line in progress
    )
    assert progress[-1] == f"orders: {head}/{head} (100%)"
    assert await all_rows(store, projection, TENANTS) == before


async def test_rebuild_without_wait_leaves_the_replay_to_the_projector(
    sqlite_store: SqlEventStore, url: str
) -> None:
    projector = Projector(order_projection(), SqlProjectionStore(sqlite_store.database))
    await projector.start()
    await place(sqlite_store, "acme", ORDERS)
    follower = StoreFollower(projector, sqlite_store)
    await follower.run_until_idle()
    before = await all_rows(projector.store, projector.projection, TENANTS)
    head = await projector.store.checkpoint("orders")

    code, out, _ = await _eaf("projections", "rebuild", "orders", "--database", url)
    assert code == 0
    assert out == f"orders: reset from position {head}; replaying from 0\n"
    code, out, _ = await _eaf("projections", "list", "--database", url)
    assert out.splitlines()[1].split() == ["orders", "0", str(head), str(head), "0"]
    await follower.run_until_idle()
    assert await all_rows(projector.store, projector.projection, TENANTS) == before


async def test_an_unknown_projection_is_one_error_line(
    follower: StoreFollower, url: str
) -> None:
    code, out, err = await _eaf("projections", "rebuild", "nope", "--database", url)
    assert (code, out) == (1, "")
    assert err.splitlines() == ["error: no projection 'nope' in this database"]


async def test_a_missing_database_file_is_one_error_line(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.db"
    code, out, err = await _eaf(
        "projections", "list", "--database", f"sqlite:///{missing}"
    )
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"error: no database file {missing}"]
    assert not missing.exists()
