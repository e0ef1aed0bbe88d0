"""Pulling from a JetStream consumer through one inbox subscription.

nats-py's ``PullSubscription.fetch`` waits for each message with a task and a
``wait_for`` of its own, which costs about as much as the rest of a consumer's work.
Here one inbox subscription collects what the server sends, and a fetch waits once,
until its request is answered in full. The protocol (JetStream ADR-13): a pull request
``{"batch": n, "no_wait": true}`` to ``$JS.API.CONSUMER.MSG.NEXT.<stream>.<consumer>``
is answered with what the consumer has at hand, then a ``404`` status when that was
less than ``n``; ``{"batch": n, "expires": ns}`` waits, and ends with a ``408`` status
when it expired short of ``n``; a ``409`` ends a request the server gave up on (the
consumer deleted, its leader moved, too many waiting); ``100`` is a heartbeat. A full
batch ends without a status. Pull consumers have no flow control: the batch size is
the limit on what is in flight.

Only one request is outstanding at a time, so a status ends the request in hand. A
message arriving after its fetch gave up is kept for the next fetch, never dropped.
"""

from __future__ import annotations

import asyncio
import json
from typing import NamedTuple

import nats.errors
import nats.js.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

STATUS = "Status"
HEARTBEAT = "100"
ENDS_REQUEST = frozenset({"404", "408", "409"})

_EXPIRY_GRACE = 0.05
"""How long past a request's expiry the client waits for the server's 408."""


class PullConsumer:
    """Fetches batches from the consumer ``consumer`` of ``stream``, one fetch at a
    time."""

    def __init__(self, client: Client, stream: str, consumer: str) -> None:
        self._client = client
        self._next = f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{consumer}"
        self._inbox = client.new_inbox()
        self._subscription: Subscription | None = None
        self._received: list[Msg] = []
        self._wanted = 0
        self._waiter: asyncio.Future[None] | None = None
        self._failure: Msg | None = None

    @classmethod
    async def bind(cls, client: Client, stream: str, consumer: str) -> PullConsumer:
        pull = cls(client, stream, consumer)
        pull._subscription = await client.subscribe(pull._inbox, cb=pull._arrived)
        return pull

    def take_received(self) -> list[Msg]:
        """The messages that arrived for no fetch (one given up, or cancelled), taken
        out: for a consumer that stops, to hand them back at once."""
        messages, self._received = self._received, []
        return messages

    async def unsubscribe(self) -> None:
        if self._subscription is not None:
            subscription, self._subscription = self._subscription, None
            await subscription.unsubscribe()

    async def fetch(self, batch: int, timeout: float) -> list[Msg]:
        """Up to ``batch`` messages: those the consumer has at hand, or, when it has
        none, the first to arrive within ``timeout`` and what came with it. Raises
        ``TimeoutError`` when none arrived."""
        if self._subscription is None:
            raise RuntimeError("the pull consumer is not subscribed")
        if batch < 1:
            raise ValueError("a batch holds at least one message")
        if not self._received:
            await self._request({"batch": batch, "no_wait": True}, batch, timeout)
        if not self._received:
            await self._request(
                {"batch": 1, "expires": int(timeout * 1e9)},
                1,
                timeout + _EXPIRY_GRACE,
            )
            if not self._received:
                raise TimeoutError
            if batch > 1:
                await self._request(
                    {"batch": batch - 1, "no_wait": True}, batch, timeout
                )
        messages = self._received[:batch]
        del self._received[:batch]
        return messages

    async def _request(
        self, request: dict[str, object], wanted: int, wait: float
    ) -> None:
        """Send one pull request and wait until it is answered, or ``wait`` passed."""
        loop = asyncio.get_running_loop()
        self._wanted = wanted
        self._failure = None
        waiter = self._waiter = loop.create_future()
        try:
            await self._client.publish(
                self._next, json.dumps(request).encode(), reply=self._inbox
            )
            await asyncio.wait_for(waiter, wait)
        except TimeoutError:
            pass
        finally:
            self._waiter = None
        if self._failure is not None:
            nats.js.errors.APIError.from_msg(self._failure)  # raises it

    async def _arrived(self, msg: Msg) -> None:
        headers = msg.headers
        if not msg.reply and headers is not None and STATUS in headers:
            status = headers[STATUS]
            if status == HEARTBEAT:
                return
            if status not in ENDS_REQUEST:
                self._failure = msg
            self._wake()
            return
        self._received.append(msg)
        if len(self._received) >= self._wanted:
            self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class Delivered(NamedTuple):
    """Where a delivered message stands, as its acknowledgement subject says."""

    stream_sequence: int
    attempt: int
    pending: int
    """How many messages the consumer holds beyond this one."""
    timestamp_ns: int


def delivered(msg: Msg) -> Delivered:
    """Read from the reply subject, ``$JS.ACK.<stream>.<consumer>.<delivered>.<stream
    sequence>.<consumer sequence>.<time>.<pending>`` or its form with a domain and an
    account hash after ``$JS.ACK`` (nats-py's ``msg.metadata`` reads the same, with
    two frozen dataclasses and a datetime per message)."""
    tokens = (msg.reply or "").split(".")
    if len(tokens) == 9:
        offset = 0
    elif len(tokens) >= 11:
        offset = 2
    else:
        raise nats.errors.NotJSMessageError
    if tokens[0] != "$JS" or tokens[1] != "ACK":
        raise nats.errors.NotJSMessageError
    return Delivered(  # positional: a named tuple's keywords cost a call of their own
        int(tokens[offset + 5]),
        int(tokens[offset + 4]),
        int(tokens[offset + 8]),
        int(tokens[offset + 7]),
    )
