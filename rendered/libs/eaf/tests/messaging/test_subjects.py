from __future__ import annotations

import pytest

from eaf.context import SecurityContext, platform_context
from eaf.messaging import MessagingSettings, Subjects, Subscription, event_message
from eaf.messaging.subjects import matches


def test_events_have_tenant_service_and_type_in_their_subject() -> None:
    subjects = Subjects("evt")
    assert (
        subjects.event("acme", "orders", "OrderPlaced") == "evt.acme.orders.OrderPlaced"
    )
    assert (
        subjects.event(None, "iam", "TenantCreated")
        == "evt._platform.iam.TenantCreated"
    )
    assert subjects.all == "evt.>"


@pytest.mark.parametrize("tenant", ["a.b", "a*", ">", "", "with space"])
def test_tokens_that_would_break_routing_are_refused(tenant: str) -> None:
    with pytest.raises(ValueError, match="cannot be used in a subject"):
        Subjects().event(tenant, "orders", "OrderPlaced")


def test_filters_combine_every_choice_and_never_match_replays() -> None:
    subjects = Subjects()
    filters = subjects.filters(tenants=["a", "b"], event_types=["X"])
    assert filters == ["events.a.*.X", "events.b.*.X"]
    assert subjects.filters() == ["events.*.*.*"]
    assert not matches("events.*.*.*", subjects.replay("billing"))
    assert matches("events.a.*.X", "events.a.orders.X")
    assert not matches("events.a.*.X", "events.b.orders.X")
    assert matches("events.>", "events.a.orders.X")


def test_event_message_carries_the_current_context() -> None:
    context = SecurityContext(tenant_id="acme", user_id="u1", causation_id="c0")
    message = event_message(
        Subjects(),
        service="orders",
        event_type="OrderPlaced",
        payload={},
        context=context,
    )
    assert message.subject == "events.acme.orders.OrderPlaced"
    assert message.headers["Nats-Msg-Id"] == message.event_id
    restored = message.context()
    assert (restored.tenant_id, restored.user_id) == ("acme", "u1")
    assert restored.correlation_id == context.correlation_id
    assert restored.causation_id == message.event_id

    platform = event_message(
        Subjects(), service="iam", event_type="TenantCreated", payload={},
        context=platform_context(),
    )  # fmt: skip
    assert platform.tenant_id is None
    assert platform.context().platform


def test_settings_and_subscriptions_refuse_unusable_names() -> None:
    with pytest.raises(ValueError, match="must differ"):
        MessagingSettings(prefix="dlq")
    with pytest.raises(ValueError, match="durable name"):
        Subscription(durable="a.b")
    assert MessagingSettings(url="nats://a:1, nats://b:2").servers == [
        "nats://a:1",
        "nats://b:2",
    ]
    assert Subscription(retry_delays=[1, 5]).retry_delay(3) == 5
