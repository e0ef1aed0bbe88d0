"""A writer process killed with SIGKILL in the middle of an append (to one stream, or
to several at once) leaves all or nothing of it in the SQLite file, and the store keeps
working."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import eaf
from eaf.eventsourcing import create_event_store
from eaf.eventsourcing.testing import as_tenant, new_events

BATCH = 3000

WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from eaf.context import SecurityContext, use
    from eaf.eventsourcing import NewEvent, StreamAppend, create_event_store

    async def main(url: str, prefix: str, size: int, streams: int) -> None:
        store = await create_event_store(url)
        with use(SecurityContext(tenant_id="acme")):
            n = 0
            while True:
                batch = [NewEvent("Item", {"n": n, "i": i, "pad": "x" * 100}) for i in range(size)]
                print(f"begin {n}", flush=True)
                if streams == 1:
                    await store.append("Batch", f"{prefix}-{n}", batch, expected_version=0)
                else:  # the batch split over as many stream types, one append
                    part = size // streams
                    await store.append_streams([
                        StreamAppend(f"Batch{k}", f"{prefix}-{n}", batch[k * part:(k + 1) * part], 0)
                        for k in range(streams)
                    ])
                print(f"done {n}", flush=True)
                n += 1

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    """
)


def _kill_mid_append(
    url: str, prefix: str, streams: int, fraction: float, tmp_path: Path
) -> None:
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    source = str(Path(eaf.__file__).resolve().parent.parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")]),
    }
    writer = subprocess.Popen(
        [sys.executable, str(script), url, prefix, str(BATCH), str(streams)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert writer.stdout is not None
    try:
        started: dict[str, float] = {}
        while (line := writer.stdout.readline().strip()) != "begin 2":
            assert writer.poll() is None, "the writer died on its own"
            started[line] = time.perf_counter()
        # After two whole batches, a kill at a fraction of the time the second took.
        time.sleep(fraction * (started["done 1"] - started["begin 1"]))
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait(timeout=30)
        writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL


@pytest.mark.parametrize("streams", [1, 3], ids=["one stream", "three streams"])
async def test_sigkill_mid_append_leaves_all_or_nothing(
    tmp_path: Path, streams: int
) -> None:
    path = tmp_path / "events.db"
    url = f"sqlite+aiosqlite:///{path}"
    store = await create_event_store(url)
    await store.close()
    randomness = random.Random(7)
    for trial in range(4):
        fraction = randomness.uniform(0.3, 0.7)
        _kill_mid_append(url, f"t{trial}", streams, fraction, tmp_path)

    with sqlite3.connect(path) as database:
        assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        counts = dict(  # per batch (a stream id), over all its streams
            database.execute(
                "SELECT stream_id, count(*) FROM eaf_events GROUP BY stream_id"
            )
        )
        versions = database.execute(
            "SELECT stream_id, count(DISTINCT stream_type), min(stream_version),"
            " max(stream_version) FROM eaf_events GROUP BY stream_id"
        ).fetchall()
    assert set(counts.values()) == {BATCH}, counts  # every stored batch is whole
    for trial in range(4):  # the batches before the kill are there
        assert counts[f"t{trial}-0"] == counts[f"t{trial}-1"] == BATCH
    assert {tuple(row[1:]) for row in versions} == {(streams, 1, BATCH // streams)}
    cut_off = [trial for trial in range(4) if f"t{trial}-2" not in counts]
    assert cut_off, "no kill landed inside an append: make the batches bigger"

    store = await create_event_store(url)
    try:
        # The events are the outbox: every stored event, and nothing else, is pending.
        pending = await store.outbox.pending(10 * BATCH * 4)
        assert len(pending) == sum(counts.values())
        with as_tenant("acme"):
            for trial in range(4):  # a batch cut off mid-append can be written again
                stream = f"t{trial}-2"
                kind = "Batch" if streams == 1 else "Batch0"
                version = await store.stream_version(kind, stream)
                assert version in (0, BATCH // streams)
                await store.append(
                    kind, stream, new_events(1), expected_version=version
                )
    finally:
        await store.close()
