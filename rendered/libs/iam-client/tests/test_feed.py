"""RevocationFeed against a real nats-server: IAM's events, published as IAM's outbox relay
publishes them, reach the deny list of every instance, replayed on start, after a broker
outage too."""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from eaf.eventsourcing.outbox import OutboxMessage
from eaf.messaging import JetStreamBroker, Message, MessagingSettings, outbox_message
from eaf.messaging.embedded import EmbeddedNats
from eaf.messaging.testing import eventually
from eaf.security import KeyRing, TokenIssuer

from iam_client import AuthenticationError, IamClient, RevocationFeed, RevocationList

ISSUER = "https://iam.test"
AUDIENCE = "licensing-api"


def iam_event(
    tenant: str, event_type: str, payload: dict[str, Any], *, service: str = "iam"
) -> Message:
    """An event as IAM's outbox relay publishes it."""
    now = datetime.now(UTC)
    stored = OutboxMessage(
        position=1,
        event_id=str(uuid.uuid4()),
        tenant_id=tenant,
        stream_type="User",
        stream_id=str(uuid.uuid4()),
        stream_version=2,
        event_type=event_type,
        schema_version=1,
        payload={**payload, "occurred_at": now.isoformat()},
        metadata={"user_id": "admin"},
        recorded_at=now,
    )
    return outbox_message(MessagingSettings().subjects, service, stored)


def disabled(user: str, status: str = "DISABLED") -> dict[str, Any]:
    return {"user_id": user, "status": status}


@pytest.fixture
async def broker(nats_server: EmbeddedNats) -> AsyncIterator[JetStreamBroker]:
    async with await JetStreamBroker.connect(
        MessagingSettings(url=nats_server.url, publish_timeout=2.0)
    ) as broker:
        yield broker


class Instance:
    """One service instance: its deny list, its feed, its IamClient."""

    def __init__(self, key_ring: KeyRing, url: str) -> None:
        self.revocations = RevocationList()
        self.feed = RevocationFeed(
            self.revocations, url=lambda: url, name="test", retry_delay=0.05
        )
        self.client = IamClient(
            issuer=ISSUER,
            audience=AUDIENCE,
            jwks=key_ring.jwks(),
            revocations=self.revocations,
        )

    def current(self) -> bool:
        return self.revocations.current

    async def refuses(self, token: str) -> bool:
        try:
            await self.client.validate(token)
        except AuthenticationError:
            return True
        return False


@pytest.fixture
async def instances(
    key_ring: KeyRing, nats_server: EmbeddedNats
) -> AsyncIterator[list[Instance]]:
    running = [Instance(key_ring, nats_server.url) for _ in range(2)]
    yield running
    for instance in running:
        await instance.feed.stop()


def token_of(issuer: TokenIssuer, user: str, tenant: str = "acme") -> tuple[str, str]:
    issued = issuer.issue(subject=user, client_id="web", tenant_id=tenant)
    return issued.token, issued.claims["jti"]


async def test_every_instance_refuses_what_iam_revoked_earlier_and_now(
    broker: JetStreamBroker, instances: list[Instance], issuer: TokenIssuer
) -> None:
    early, _ = token_of(issuer, "early")
    await broker.publish(iam_event("acme", "UserStatusChanged", disabled("early")))
    for instance in instances:
        await instance.feed.start()
    for instance in instances:
        await eventually(instance.current)
        assert await instance.refuses(early)

    revoked, jti = token_of(issuer, "ada")
    kept, _ = token_of(issuer, "ada")
    other_tenant, _ = token_of(issuer, "bob", tenant="globex")
    suspended, _ = token_of(issuer, "bob")
    expires_at = datetime.fromtimestamp(
        int(datetime.now(UTC).timestamp()) + 900, UTC
    ).isoformat()
    await broker.publish(
        iam_event(
            "acme",
            "AccessTokenRevoked",
            {"revocation_id": str(uuid.uuid4()), "jti": jti, "expires_at": expires_at},
        )
    )
    await broker.publish(
        iam_event(
            "acme", "TenantStatusChanged", {"tenant_id": "acme", "status": "SUSPENDED"}
        )
    )
    for instance in instances:
        await eventually(functools.partial(instance.refuses, revoked))
        await eventually(functools.partial(instance.refuses, suspended))
        assert not await instance.refuses(other_tenant)


async def test_other_events_and_unreadable_ones_refuse_nothing(
    broker: JetStreamBroker, instances: list[Instance], issuer: TokenIssuer
) -> None:
    [instance, _] = instances
    await instance.feed.start()
    await eventually(instance.current)
    ada, _ = token_of(issuer, "ada")
    bob, _ = token_of(issuer, "bob")
    await broker.publish(
        iam_event("acme", "UserStatusChanged", disabled("ada"), service="billing")
    )
    await broker.publish(iam_event("acme", "UserRolesChanged", {"user_id": "ada"}))
    unreadable = iam_event("acme", "UserStatusChanged", {})
    await broker.publish(Message(unreadable.subject, b"not json", unreadable.headers))
    await broker.publish(iam_event("acme", "UserStatusChanged", disabled("bob")))
    await eventually(lambda: instance.refuses(bob))
    assert not await instance.refuses(ada)
    assert len(instance.revocations) == 1


async def test_the_feed_follows_again_after_a_broker_outage(
    nats_server: EmbeddedNats, instances: list[Instance], issuer: TokenIssuer
) -> None:
    [instance, _] = instances
    await instance.feed.start()
    await eventually(instance.current)
    await nats_server.stop()
    await eventually(lambda: not instance.revocations.current)

    await nats_server.start()
    ada, _ = token_of(issuer, "ada")
    async with await JetStreamBroker.connect(
        MessagingSettings(url=nats_server.url)
    ) as broker:
        await broker.publish(iam_event("acme", "UserStatusChanged", disabled("ada")))
    await eventually(lambda: instance.refuses(ada))
    await eventually(instance.current)


async def test_a_stopped_feed_leaves_no_consumer_behind(
    broker: JetStreamBroker, instances: list[Instance]
) -> None:
    [instance, _] = instances
    await instance.feed.start()
    await eventually(instance.current)
    assert len(await broker.js.consumers_info("EVENTS")) == 1
    await instance.feed.stop()
    assert await broker.js.consumers_info("EVENTS") == []
    assert not instance.revocations.current


async def test_a_lost_consumer_is_replaced(
    broker: JetStreamBroker, instances: list[Instance], issuer: TokenIssuer
) -> None:
    [instance, _] = instances
    await instance.feed.start()
    await eventually(instance.current)
    [lost] = await broker.js.consumers_info("EVENTS")
    await broker.js.delete_consumer("EVENTS", lost.name)

    ada, _ = token_of(issuer, "ada")
    await broker.publish(iam_event("acme", "UserStatusChanged", disabled("ada")))
    await eventually(lambda: instance.refuses(ada))
    [replacement] = await broker.js.consumers_info("EVENTS")
    assert replacement.name != lost.name
