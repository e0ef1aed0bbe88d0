"""What happens to a delivery once handled: ack, retry later, or dead-letter."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from eaf.context import consumer_span, use
from eaf.messaging.message import Delivery
from eaf.messaging.ports import Handler, Poison, Subscription
from eaf.metrics import DEAD_LETTERS, HANDLED_MESSAGES

log = logging.getLogger("eaf.messaging")


class Settlement(Protocol):
    """How an adapter settles one delivery with its broker."""

    async def ack(self) -> None: ...

    async def retry(self, delay: float) -> None: ...

    async def dead_letter(self, reason: str) -> None:
        """Store the message in the dead letters, then stop its redelivery."""
        ...


async def dispatch(
    delivery: Delivery,
    handler: Handler,
    subscription: Subscription,
    settlement: Settlement,
) -> None:
    """Run ``handler`` in the message's security context and settle the delivery."""
    await _settle(
        delivery,
        handler,
        subscription,
        _Counted(settlement, subscription.durable or "ephemeral"),
    )


class _Counted:
    """Counts each settlement under its outcome (``eaf_messages_handled_total``) and the
    dead letters (``eaf_dead_letters_total``)."""

    def __init__(self, settlement: Settlement, consumer: str) -> None:
        self._settlement = settlement
        self._counters = _counters(consumer)

    async def ack(self) -> None:
        await self._settlement.ack()
        self._counters[0].inc()

    async def retry(self, delay: float) -> None:
        await self._settlement.retry(delay)
        self._counters[1].inc()

    async def dead_letter(self, reason: str) -> None:
        await self._settlement.dead_letter(reason)
        self._counters[2].inc()
        self._counters[3].inc()


_COUNTERS: dict[str, tuple[Any, Any, Any, Any]] = {}


def _counters(consumer: str) -> tuple[Any, Any, Any, Any]:
    """A consumer's counters (acked, retried, dead-lettered, dead letters), looked up once."""
    found = _COUNTERS.get(consumer)
    if found is None:
        found = _COUNTERS[consumer] = (
            HANDLED_MESSAGES.labels(consumer, "acked"),
            HANDLED_MESSAGES.labels(consumer, "retried"),
            HANDLED_MESSAGES.labels(consumer, "dead_lettered"),
            DEAD_LETTERS.labels(consumer),
        )
    return found


async def _settle(
    delivery: Delivery,
    handler: Handler,
    subscription: Subscription,
    settlement: Settlement,
) -> None:
    attempt = delivery.attempt
    if not delivery.message.tenant_matches_subject:
        # Routing and filters trust the subject, the handler's context the headers.
        await settlement.dead_letter("Poison: tenant header does not match the subject")
        return
    if attempt > subscription.max_deliver:
        # Only after a crash mid-handling: the broker redelivered past the limit.
        limit = subscription.max_deliver
        await settlement.dead_letter(f"delivered {attempt} times, max_deliver={limit}")
        return
    try:
        message = delivery.message
        with (
            use(message.context()),
            consumer_span(f"{message.subject} process", message.headers),
        ):
            await handler(delivery)
    except Poison as error:
        log.warning("poison message %s: %s", delivery.message.event_id, error)
        await settlement.dead_letter(f"Poison: {error}")
    except Exception as error:
        reason = f"{type(error).__name__}: {error}"
        if attempt >= subscription.max_deliver:
            log.warning(
                "giving up on %s after %d attempts: %s",
                delivery.message.event_id,
                attempt,
                reason,
            )
            await settlement.dead_letter(reason)
        else:
            log.info(
                "attempt %d of %s failed: %s",
                attempt,
                delivery.message.event_id,
                reason,
            )
            await settlement.retry(subscription.retry_delay(attempt))
    else:
        await settlement.ack()
