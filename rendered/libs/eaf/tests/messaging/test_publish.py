"""Pipelined publishing against a real nats-server: each message gets its own answer."""

from __future__ import annotations

import nats.js.errors

from eaf.messaging import JetStreamBroker, Message
from eaf.messaging.embedded import EmbeddedNats

SUBJECT = "events.t1.svc.Happened"


def message(body: bytes, **headers: str) -> Message:
    return Message(SUBJECT, body, headers)


async def test_a_batch_is_acknowledged_message_by_message(
    nats_broker: JetStreamBroker,
) -> None:
    outcomes = await nats_broker.publish_batch(
        [
            message(b"1", **{"Nats-Msg-Id": "one"}),
            message(b"refused", **{"Nats-Expected-Stream": "ANOTHER"}),
            message(b"1 again", **{"Nats-Msg-Id": "one"}),  # a duplicate: accepted
            Message("nowhere.at.all", b"lost"),
            message(b"2"),
        ]
    )
    assert outcomes[0] is None and outcomes[2] is None and outcomes[4] is None
    assert isinstance(outcomes[1], nats.js.errors.APIError)
    assert isinstance(outcomes[3], nats.js.errors.NoStreamResponseError)
    info = await nats_broker.js.stream_info(nats_broker.settings.stream)
    assert info.state.messages == 2


async def test_batches_after_a_broker_restart_are_acknowledged_again(
    nats_broker: JetStreamBroker, nats_server: EmbeddedNats
) -> None:
    assert await nats_broker.publish_batch([message(b"before")]) == [None]
    await nats_server.restart()
    for _ in range(100):
        if await nats_broker.publish_batch([message(b"after")]) == [None]:
            break
    else:
        raise AssertionError("no acknowledgement after the restart")
