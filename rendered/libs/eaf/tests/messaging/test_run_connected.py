"""Background work on a broker connection survives its own failures."""

from __future__ import annotations

import asyncio

from eaf.messaging import JetStreamBroker, run_connected
from eaf.messaging.embedded import EmbeddedNats


async def test_work_that_fails_is_run_again_on_a_new_connection(
    nats_server: EmbeddedNats,
) -> None:
    connections: list[JetStreamBroker] = []
    running = asyncio.Event()

    async def work(broker: JetStreamBroker) -> None:
        connections.append(broker)
        if len(connections) == 1:
            raise RuntimeError("the first run fails")
        running.set()
        await asyncio.Event().wait()

    task = asyncio.create_task(
        run_connected(lambda: nats_server.url, work, name="test", retry_delay=0.01)
    )
    try:
        async with asyncio.timeout(10):
            await running.wait()
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert len(connections) == 2
    assert connections[0] is not connections[1]
    assert connections[0].client.is_closed
