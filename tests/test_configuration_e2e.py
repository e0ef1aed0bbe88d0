"""The configuration service as a server process on a real nats-server, read by the
config-client library: layering, schemas, secrets (masked, sealed at rest, never in clear
on the broker), versions with diff and rollback, tenants, and a watching client."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
from config_client import (
    ConfigServer,
    ConfigWatcher,
    SettingsHolder,
    config_server_sources,
)
from eaf.messaging.embedded import EmbeddedNats
from helpers import JwksServer, Service
from pydantic import BaseModel
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

READER = ("configuration:read",)
EVERYTHING = ("configuration:read", "configuration:write", "configuration:secrets")


class Running:
    def __init__(self, service: Service, keys: JwksServer, broker: EmbeddedNats, db: Path):
        self.service, self.keys, self.broker, self.db = service, keys, broker, db

    def api(self, tenant: str, permissions: tuple[str, ...] = EVERYTHING) -> httpx.Client:
        bearer = self.keys.bearer(tenant, permissions)
        return httpx.Client(
            base_url=self.service.url, headers={"Authorization": bearer}, timeout=30
        )


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    directory = tmp_path_factory.mktemp("configuration")
    broker = EmbeddedNats(directory / "nats")
    asyncio.run(broker.start())
    keys = JwksServer()
    db = directory / "configuration.db"
    service = Service(
        "configuration",
        directory / "configuration.log",
        {
            "DATABASE_URL": f"sqlite:///{db}",
            "SECURITY_IAM_URL": keys.url,
            "SECURITY_REVOCATION_FEED": "false",
            "BROKER_URL": broker.url,
            "CONFIGURATION_KEYS_FILE": str(directory / "keys.json"),
        },
    )
    try:
        service.wait_ready()
        yield Running(service, keys, broker, db)
    finally:
        service.stop()
        keys.close()
        asyncio.run(broker.stop())


def _put(
    api: httpx.Client, path: str, properties: dict[str, Any], secrets: tuple[str, ...] = ()
) -> dict[str, Any]:
    response = api.put(
        f"/api/v1/properties/{path}", json={"properties": properties, "secrets": list(secrets)}
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_layers_merge_with_the_most_specific_winning(running: Running) -> None:
    with running.api("layers") as api:
        _put(api, "application/default/main", {"log.level": "INFO", "timeout": 30, "region": "eu"})
        _put(api, "billing/default/main", {"timeout": 10, "currency": "EUR"})
        _put(api, "billing/production/main", {"timeout": 5})
        _put(api, "billing/production/release-2", {"timeout": 99})

        response = api.get("/api/v1/config/billing/production")
        assert response.status_code == 200, response.text
        document = response.json()
        assert document["properties"] == {
            "currency": "EUR",
            "log.level": "INFO",
            "region": "eu",
            "timeout": 5,
        }
        assert [s["name"] for s in document["propertySources"]] == [
            "billing:production:main",
            "billing:default:main",
            "application:default:main",
        ]
        assert document["origins"]["timeout"] == "billing:production:main"
        assert document["origins"]["currency"] == "billing:default:main"
        # Another profile falls back to the application's own, then the defaults.
        staging = api.get("/api/v1/config/billing/staging/main").json()
        assert staging["properties"]["timeout"] == 10
        # Another label is another set of layers.
        release = api.get("/api/v1/config/billing/production/release-2").json()
        assert release["properties"] == {"timeout": 99}
        # The ETag is the version; unchanged, 304.
        etag = response.headers["ETag"]
        again = api.get("/api/v1/config/billing/production", headers={"If-None-Match": etag})
        assert again.status_code == 304


def test_a_value_breaking_its_schema_is_refused_listing_every_violation(running: Running) -> None:
    schema = {
        "type": "object",
        "properties": {
            "port": {"type": "integer", "minimum": 1, "maximum": 65535},
            "mode": {"enum": ["fast", "safe"]},
        },
        "required": ["port"],
    }
    with running.api("schemas") as api:
        created = api.post(
            "/api/v1/schemas", json={"application": "gateway", "document": json.dumps(schema)}
        )
        assert created.status_code == 201, created.text
        _put(api, "gateway/default/main", {"port": 8080, "mode": "safe"})

        refused = api.put(
            "/api/v1/properties/gateway/default/main",
            json={"properties": {"port": 70000, "mode": "reckless"}},
        )
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert {(e["field"], e["message"]) for e in problem["errors"]} == {
            ("port", "70000 is greater than the maximum of 65535"),
            ("mode", "'reckless' is not one of ['fast', 'safe']"),
        }
        missing = api.put(
            "/api/v1/properties/gateway/production/main", json={"properties": {"mode": "fast"}}
        )
        assert missing.status_code == 422
        assert "'port' is a required property" in missing.text
        # Nothing refused was stored.
        assert api.get("/api/v1/config/gateway/default").json()["properties"] == {
            "mode": "safe",
            "port": 8080,
        }


def _stream_payloads(broker: EmbeddedNats, tenant: str) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        client = await nats.connect(broker.url)
        try:
            js = client.jetstream()
            subject = f"events.{tenant}.configuration.*"
            deadline = time.monotonic() + 30
            while True:
                subscription = await js.pull_subscribe(subject, stream="EVENTS")
                try:
                    messages = await subscription.fetch(100, timeout=1)
                except TimeoutError:
                    messages = []
                await subscription.unsubscribe()
                if messages or time.monotonic() > deadline:
                    return [
                        {"type": m.subject.split(".")[-1], **json.loads(m.data)} for m in messages
                    ]
        finally:
            await client.close()

    return asyncio.run(read())


def test_a_secret_is_masked_without_the_permission_and_never_stored_in_clear(
    running: Running,
) -> None:
    plaintext = "hunter2-very-secret-9f3c"
    with running.api("secrets") as api:
        written = _put(
            api,
            "payments/production/main",
            {"db.password": plaintext, "db.user": "pay"},
            ("db.password",),
        )
        assert written["secrets"] == ["db.password"]
    with running.api("secrets", READER) as reader:
        masked = reader.get("/api/v1/config/payments/production").json()
        assert masked["properties"] == {"db.password": "******", "db.user": "pay"}
        raw = reader.get("/api/v1/property-sets").json()["items"]
        assert plaintext not in json.dumps(raw)
    with running.api("secrets") as api:
        clear = api.get("/api/v1/config/payments/production").json()
        assert clear["properties"]["db.password"] == plaintext

    stored = b"".join(path.read_bytes() for path in running.db.parent.glob("configuration.db*"))
    assert b"hunter2" not in stored and b"db.password" in stored

    events = _stream_payloads(running.broker, "secrets")
    created = [e for e in events if e["type"] == "PropertiesCreated"]
    assert created, events
    assert (
        created[0]["application"],
        created[0]["profile"],
        created[0]["label"],
        created[0]["revision"],
    ) == (
        "payments",
        "production",
        "main",
        1,
    )
    assert plaintext not in json.dumps(events)


def test_versions_diff_and_rollback(running: Running) -> None:
    with running.api("versions") as api:
        _put(api, "orders/default/main", {"retries": 3, "mode": "a"})
        _put(api, "orders/default/main", {"retries": 5, "queue": "q1"})
        base = "/api/v1/properties/orders/default/main/versions"
        listed = api.get(base).json()["items"]
        assert [v["revision"] for v in listed] == [1, 2]

        diff = api.get(f"{base}/1/diff/2").json()
        assert diff["added"] == {"queue": "q1"}
        assert diff["removed"] == {"mode": "a"}
        assert diff["changed"] == {"retries": {"from": 3, "to": 5}}

        rolled = api.post(f"{base}/1/rollback")
        assert rolled.status_code == 200, rolled.text
        assert rolled.json()["revision"] == 3
        assert api.get("/api/v1/config/orders/default").json()["properties"] == {
            "mode": "a",
            "retries": 3,
        }
        after = api.get(base).json()["items"]
        assert after[-1] == {**after[-1], "revision": 3, "rolledBackTo": 1}
        assert api.get(f"{base}/1/diff/3").json() == {
            "from": 1,
            "to": 3,
            "added": {},
            "removed": {},
            "changed": {},
        }
        assert api.get(f"{base}/9/diff/1").status_code == 404


def test_another_tenant_sees_nothing(running: Running) -> None:
    with running.api("acme") as api:
        _put(api, "shop/default/main", {"theme": "dark"})
        assert api.get("/api/v1/config/shop/default").json()["properties"] == {"theme": "dark"}
    with running.api("globex") as other:
        foreign = other.get("/api/v1/config/shop/default").json()
        assert foreign["properties"] == {} and foreign["propertySources"] == []
        assert other.get("/api/v1/properties/shop/default/main").status_code == 404
        assert other.get("/api/v1/properties/shop/default/main/versions").status_code == 404
        assert other.get("/api/v1/property-sets").json()["total"] == 0
    with running.api("acme", READER) as reader:
        assert (
            reader.put("/api/v1/properties/shop/default/main", json={"properties": {}}).status_code
            == 403
        )


class Database(BaseModel):
    url: str
    pool_size: int = 5


def _settings_class(server: ConfigServer) -> type[BaseSettings]:
    class ShopSettings(BaseSettings):
        greeting: str
        database: Database

        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            return config_server_sources(
                server,
                settings_cls,
                init_settings,
                env_settings,
                dotenv_settings,
                file_secret_settings,
            )

    return ShopSettings


def test_the_client_library_loads_settings_and_follows_a_change_within_a_second(
    running: Running,
) -> None:
    with running.api("watching") as api:
        _put(api, "application/default/main", {"database.pool-size": 7})
        _put(api, "shop/production/main", {"greeting": "hello", "database.url": "sqlite://"})
        bearer = running.keys.bearer("watching", READER)
        server = ConfigServer(
            running.service.url, "shop", "production", headers=lambda: {"Authorization": bearer}
        )
        settings_class = _settings_class(server)
        settings: Any = settings_class()
        assert (settings.greeting, settings.database.url, settings.database.pool_size) == (
            "hello",
            "sqlite://",
            7,
        )

        holder = SettingsHolder(settings)
        arrived = threading.Event()
        seen: list[Any] = []

        def changed(new: Any) -> None:
            seen.append((time.perf_counter(), new))
            arrived.set()

        watcher = ConfigWatcher(
            server, settings_class, holder, version=server.fetch().version, on_change=changed
        ).start()
        try:
            time.sleep(0.3)  # the watcher's long-poll is waiting
            started = time.perf_counter()
            _put(api, "shop/production/main", {"greeting": "bonjour", "database.url": "sqlite://"})
            assert arrived.wait(10), "the change never reached the watching client"
            latency = seen[0][0] - started
            print(f"configuration change reached the watching client in {latency * 1000:.1f} ms")
            assert holder.current.greeting == "bonjour"
            assert seen[0][1].database.pool_size == 7
        finally:
            watcher.stop()


def test_a_watch_wakes_on_a_change_written_through_another_instance(
    running: Running, tmp_path: Path
) -> None:
    """A second instance on the same store and broker takes the write; the watch on the
    first answers, woken by the event the relay published on NATS."""
    other = Service(
        "configuration",
        tmp_path / "second.log",
        {
            "DATABASE_URL": f"sqlite:///{running.db}",
            "SECURITY_IAM_URL": running.keys.url,
            "SECURITY_REVOCATION_FEED": "false",
            "BROKER_URL": running.broker.url,
            "CONFIGURATION_KEYS_FILE": str(running.db.parent / "keys.json"),
            "BROKER_RELAY": "false",
        },
    )
    try:
        other.wait_ready()
        with running.api("fanout") as api:
            _put(api, "feed/default/main", {"n": 1})
            version = api.get("/api/v1/config/feed/default/main").json()["version"]
            answers: list[httpx.Response] = []

            def watch() -> None:
                answers.append(
                    api.get(
                        "/api/v1/config/feed/default/main/watch",
                        params={"version": version, "timeout": 20},
                    )
                )

            waiting = threading.Thread(target=watch)
            waiting.start()
            time.sleep(0.3)
            started = time.perf_counter()
            second = httpx.put(
                f"{other.url}/api/v1/properties/feed/default/main",
                json={"properties": {"n": 2}},
                headers={"Authorization": running.keys.bearer("fanout", EVERYTHING)},
            )
            assert second.status_code == 200, second.text
            waiting.join(25)
            assert answers and answers[0].status_code == 200, answers
            print(f"watch woken through NATS in {(time.perf_counter() - started) * 1000:.1f} ms")
            assert answers[0].json()["properties"] == {"n": 2}
            unchanged = api.get(
                "/api/v1/config/feed/default/main/watch",
                params={"timeout": 0.5},
                headers={"If-None-Match": answers[0].headers["ETag"]},
            )
            assert unchanged.status_code == 304
    finally:
        other.stop()
