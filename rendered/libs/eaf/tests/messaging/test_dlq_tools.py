from __future__ import annotations

import asyncio
import json

import httpx
from fastapi import FastAPI
from typer.testing import CliRunner

from eaf.cli import app
from eaf.messaging import JetStreamBroker, MessagingSettings, Subscription
from eaf.messaging.admin import dead_letter_router
from eaf.messaging.testing import Recorder, dead_letters_of, event


async def eaf(settings: MessagingSettings, *args: str) -> str:
    """Run the ``eaf`` command line (in a thread: it runs its own event loop)."""
    runner = CliRunner()
    result = await asyncio.to_thread(
        runner.invoke, app, [*args, "--url", settings.url], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result.stdout


async def test_cli_lists_shows_replays_and_purges_dead_letters(
    nats_broker: JetStreamBroker, settings: MessagingSettings
) -> None:
    handler = Recorder(fail=True)
    subscription = Subscription(durable="billing", max_deliver=3, retry_delays=[0.05])
    worker = await nats_broker.start(subscription, handler)
    sent = event(payload={"amount": 12})
    try:
        await nats_broker.publish(sent)
        [letter] = await dead_letters_of(nats_broker, "billing", 1)
        assert handler.attempts == 3

        listed = await eaf(settings, "dlq", "list")
        assert listed.split("\t")[:4] == [
            str(letter.sequence),
            "billing",
            "3",
            "events.acme.things.ThingHappened",
        ]
        assert "RuntimeError: handler is broken" in listed
        shown = json.loads(await eaf(settings, "dlq", "show", str(letter.sequence)))
        assert shown["attempts"] == 3
        assert shown["reason"] == "RuntimeError: handler is broken"
        assert shown["payload"] == {"amount": 12}
        assert shown["headers"]["X-Tenant-Id"] == "acme"

        handler.fail = False
        replayed = await eaf(settings, "dlq", "replay", str(letter.sequence))
        assert replayed.strip() == "replayed 1"
        await handler.wait_for(1)
        assert handler.event_ids == [sent.event_id]
        assert await eaf(settings, "dlq", "list", "--json") == ""

        handler.poison = True
        await nats_broker.publish(event())
        await dead_letters_of(nats_broker, "billing", 1)
        purged = await eaf(settings, "dlq", "purge", "--durable", "billing", "--yes")
        assert purged.strip() == "purged 1"
        assert await nats_broker.dead_letters.find() == []
    finally:
        await worker.stop()


def test_cli_reports_a_missing_dead_letter_in_one_line(
    settings: MessagingSettings,
) -> None:
    result = CliRunner().invoke(app, ["dlq", "show", "99", "--url", settings.url])
    assert result.exit_code == 1
    assert result.output.strip() == "error: no dead letter 99"


async def test_admin_api_lists_shows_replays_and_purges_dead_letters(
    nats_broker: JetStreamBroker,
) -> None:
    api = FastAPI()
    api.include_router(dead_letter_router(lambda: nats_broker.dead_letters))
    handler = Recorder(fail=True)
    subscription = Subscription(durable="shipping", max_deliver=2, retry_delays=[0.05])
    worker = await nats_broker.start(subscription, handler)
    sent = event(payload={"parcel": 1})
    transport = httpx.ASGITransport(app=api)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            await nats_broker.publish(sent)
            [letter] = await dead_letters_of(nats_broker, "shipping", 1)

            listed = (
                await http.get("/admin/dlq", params={"durable": "shipping"})
            ).json()
            assert [item["event_id"] for item in listed] == [sent.event_id]
            shown = (await http.get(f"/admin/dlq/{letter.sequence}")).json()
            assert shown["attempts"] == 2
            assert shown["reason"] == "RuntimeError: handler is broken"
            assert shown["payload"] == {"parcel": 1}
            assert (await http.get("/admin/dlq/999")).status_code == 404

            handler.fail = False
            response = await http.post(f"/admin/dlq/{letter.sequence}/replay")
            assert response.json() == {"replayed": [letter.sequence]}
            await handler.wait_for(1)
            assert handler.event_ids == [sent.event_id]
            assert (await http.get("/admin/dlq")).json() == []

            handler.poison = True
            await nats_broker.publish(event())
            await nats_broker.publish(event())
            await dead_letters_of(nats_broker, "shipping", 2)
            handler.poison = False
            response = await http.post(
                "/admin/dlq/replay", params={"durable": "shipping"}
            )
            assert len(response.json()["replayed"]) == 2
            await handler.wait_for(3)

            handler.poison = True
            await nats_broker.publish(event())
            await dead_letters_of(nats_broker, "shipping", 1)
            assert (await http.delete("/admin/dlq")).json() == {"purged": 1}
    finally:
        await worker.stop()
