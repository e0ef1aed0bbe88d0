from __future__ import annotations

import asyncio
from pathlib import Path

from eaf.eventsourcing.outbox import InMemoryOutbox
from eaf.messaging import JetStreamBroker, MessagingSettings, OutboxRelay, Subscription
from eaf.messaging.embedded import EmbeddedCluster
from eaf.messaging.testing import Recorder, eventually, stored_event


async def test_a_node_killed_while_publishing_and_consuming_loses_nothing(
    tmp_path: Path,
) -> None:
    total = 600
    outbox = InMemoryOutbox()

    async def write() -> None:
        for position in range(1, total + 1):
            outbox.add(stored_event(position))
            relay.notify()
            await asyncio.sleep(0.004)

    async with EmbeddedCluster(3, tmp_path / "cluster") as cluster:
        settings = MessagingSettings(
            url=cluster.url, replicas=3, ack_wait=3.0, publish_timeout=2.0
        )
        async with (
            await JetStreamBroker.connect(settings, name="publisher") as publisher,
            await JetStreamBroker.connect(settings, name="consumer") as consumer,
        ):
            info = await publisher.js.stream_info(settings.stream)
            assert info.config.num_replicas == 3
            relay = OutboxRelay(
                outbox, publisher, service="orders", batch_size=50, poll_interval=0.05,
                backoff_max=0.5,
            )  # fmt: skip
            recorder = Recorder()
            worker = await consumer.start(
                Subscription(durable="cluster-reader", batch_size=20), recorder
            )
            relaying = asyncio.create_task(relay.run())
            writing = asyncio.create_task(write())
            try:
                await recorder.wait_for(150)
                # Kill the stream's leader: the stream and consumer must fail over.
                assert info.cluster is not None
                leader = (await publisher.js.stream_info(settings.stream)).cluster
                assert leader is not None
                victim = next(
                    n for n in cluster.nodes if n.server_name == leader.leader
                )
                await victim.kill()
                async with asyncio.timeout(60):
                    await writing
                await eventually(lambda: len(outbox.published) == total, within=60)
                expected = {message.event_id for message in outbox.messages}
                await eventually(lambda: set(recorder.event_ids) >= expected, within=60)
            finally:
                relaying.cancel()
                writing.cancel()
                await worker.stop()

            assert set(recorder.event_ids) == expected
            info = await publisher.js.stream_info(settings.stream)
            assert info.state.messages == total
