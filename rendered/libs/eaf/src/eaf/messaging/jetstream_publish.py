"""Pipelined JetStream publishing: acknowledgements matched through one reply subscription.

nats-py's ``publish_async`` does the same with, per message, a semaphore, a random
token (a system call), a done-callback and a ``PubAck`` built from the answer. Here a
message's reply subject ends in a counter, and the answer settles its future: an
error when the stream refused it (a JSON ``error``) or no stream took the subject
(a ``503`` status), else success. Futures not settled in time are dropped by the
caller through :meth:`forget`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import nats.js.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

STATUS = "Status"


class AcknowledgedPublisher:
    """Publishes over ``client``; each publish returns a future of its acknowledgement."""

    def __init__(self, client: Client) -> None:
        self._client = client
        self._prefix = client.new_inbox() + "."
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._count = 0
        self._subscription: Subscription | None = None

    async def publish(
        self, subject: str, data: bytes, headers: Mapping[str, str]
    ) -> tuple[str, asyncio.Future[None]]:
        """Send; the reply token and the future the broker's answer settles."""
        if self._subscription is None:
            self._subscription = await self._client.subscribe(
                self._prefix + "*", cb=self._answered
            )
        self._count += 1
        token = str(self._count)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[token] = future
        try:
            await self._client.publish(
                subject,
                data,
                reply=self._prefix + token,
                headers=headers if isinstance(headers, dict) else dict(headers),
            )
        except BaseException:
            del self._waiting[token]
            raise
        return token, future

    def forget(self, token: str) -> None:
        """Stop waiting for the answer to ``token`` (given up on)."""
        self._waiting.pop(token, None)

    async def _answered(self, msg: Msg) -> None:
        future = self._waiting.pop(msg.subject[len(self._prefix) :], None)
        if future is None or future.done():
            return
        status = msg.headers.get(STATUS) if msg.headers is not None else None
        if status is not None:
            future.set_exception(
                nats.js.errors.NoStreamResponseError()
                if status == "503"
                else nats.js.errors.APIError(code=int(status), description=status)
            )
            return
        if b'"error"' in msg.data:
            try:
                answer = json.loads(msg.data)
            except ValueError:
                answer = {}
            if "error" in answer:
                future.set_exception(_refusal(answer["error"]))
                return
        future.set_result(None)


def _refusal(error: dict[str, Any]) -> Exception:
    """The error of a refused message (nats-py's ``APIError.from_error`` raises it)."""
    try:
        nats.js.errors.APIError.from_error(error)
    except nats.js.errors.APIError as refusal:
        return refusal
    except TypeError:  # fields nats-py does not know
        pass
    return nats.js.errors.APIError(description=str(error))
