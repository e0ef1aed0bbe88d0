"""The sample profile service over real HTTP: `python -m user_profile` under uvicorn."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import anyio
import httpx
import nats
import pytest
from eaf.context import SecurityContext
from eaf.messaging import JetStreamBroker, MessagingSettings, Subjects, event_message
from eaf.messaging.embedded import EmbeddedCluster, EmbeddedNats
from helpers import JwksServer, Service
from nats.js import JetStreamContext

BASE = "/api/v1/user-profiles"
PROBLEM = "application/problem+json"


KEYS = JwksServer(("user-profile:read", "user-profile:write"))


class Server(Service):
    """The sample service in a subprocess on a free loopback port, ready."""

    _runs = itertools.count(1)

    def __init__(self, database: Path, broker_url: str | None = None, replicas: int = 1) -> None:
        env = {"DATABASE_URL": f"sqlite:///{database}", "SECURITY_IAM_URL": KEYS.url}
        env.update(
            {"BROKER_URL": broker_url, "BROKER_REPLICAS": str(replicas)}
            if broker_url
            else {"BROKER_RELAY": "false", "BROKER_CONSUME": "false"}
        )
        log = database.parent / f"user-profile-{next(self._runs)}.log"
        super().__init__("user_profile", log, env)
        self.wait_ready()


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "profiles.db"


@pytest.fixture
def server(database: Path) -> Iterator[Server]:
    running = Server(database)
    yield running
    running.stop()


def _instant(text: str) -> datetime:
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text)


def test_create_get_update_and_errors_over_http(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10, headers=KEYS.headers()) as client:
        assert httpx.get(f"{server.url}{BASE}").status_code == 401
        created = client.post(BASE, json={"name": "Ada", "email": "ada@example.org"})
        assert created.status_code == 201
        profile = created.json()
        assert set(profile) == {"id", "name", "email", "createdAt", "updatedAt"}
        assert profile["createdAt"] == profile["updatedAt"]
        _instant(profile["createdAt"])

        fetched = client.get(f"{BASE}/{profile['id']}")
        assert (fetched.status_code, fetched.json()) == (200, profile)

        listed: list[dict[str, str]] = []
        deadline = time.monotonic() + 10
        while not listed and time.monotonic() < deadline:
            listed = client.get(BASE).json()
            time.sleep(0.05)
        assert listed == [profile]
        assert client.get(BASE, headers=KEYS.headers("someone-else")).json() == []
        reader = KEYS.headers(permissions=("user-profile:read",))
        assert client.post(BASE, json=profile, headers=reader).status_code == 403

        missing = client.get(f"{BASE}/0b0e3c6e-0000-4000-8000-000000000000")
        assert missing.status_code == 404
        assert missing.headers["content-type"] == "application/problem+json"
        assert missing.json()["detail"] == "Profile not found"

        updated = client.put(
            f"{BASE}/{profile['id']}", json={"name": "Ada L.", "email": "ada@l.org"}
        )
        assert updated.status_code == 200
        assert updated.json()["name"] == "Ada L."
        assert _instant(updated.json()["updatedAt"]) > _instant(profile["updatedAt"])
        assert updated.json()["createdAt"] == profile["createdAt"]

        cases = [
            ("post", BASE, {"name": " ", "email": "a@b.c"}, 422, "Name cannot be blank", "name"),
            ("post", BASE, {"name": "A", "email": "ab.c"}, 422, "Email must be valid", "email"),
            (
                "put",
                f"{BASE}/{profile['id']}",
                {"name": "", "email": "a@b"},
                422,
                "Name cannot be blank",
                "name",
            ),
            (
                "put",
                f"{BASE}/{profile['id']}",
                {"name": "A", "email": "x"},
                422,
                "Email must be valid",
                "email",
            ),
        ]
        for method, path, body, status, detail, field in cases:
            response = client.request(method, path, json=body)
            assert response.status_code == status, (method, body)
            assert response.headers["content-type"] == PROBLEM
            assert response.json()["detail"] == detail
            assert response.json()["field"] == field

        absent = client.put(f"{BASE}/no-such-id", json={"name": "A", "email": "a@b"})
        assert absent.status_code == 404
        assert absent.headers["content-type"] == PROBLEM
        assert absent.json()["detail"] == "Profile not found"

        no_email = client.post(BASE, json={"name": "A"})
        assert no_email.status_code == 422
        assert no_email.json()["field"] == "email"


def test_health_metrics_and_openapi(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10, headers=KEYS.headers()) as client:
        assert client.get(f"{BASE}/health").json() == {"status": "UP", "service": "user-profile"}
        health = client.get("/actuator/health")
        assert health.status_code == 200
        assert health.json()["status"] == "UP"
        assert client.get("/actuator/health/liveness").json()["status"] == "UP"
        assert client.get("/actuator/health/readiness").json()["status"] == "UP"
        client.post(BASE, json={"name": "Ada", "email": "ada@example.org"})
        metrics = client.get("/metrics")
        assert metrics.headers["content-type"].startswith("text/plain")
        assert 'http_requests_total{method="POST",route="/api/v1/user-profiles",status="201"}' in (
            metrics.text
        )
        paths = client.get("/openapi.json").json()["paths"]
        assert set(paths[f"{BASE}/{{id}}"]) == {"get", "put", "delete"}
        assert "post" in paths[BASE]


def test_profiles_survive_a_restart(database: Path) -> None:
    first = Server(database)
    try:
        created = httpx.post(
            f"{first.url}{BASE}", json={"name": "Ada", "email": "a@b.org"}, headers=KEYS.headers()
        )
    finally:
        first.stop()
    second = Server(database)
    try:
        fetched = httpx.get(f"{second.url}{BASE}/{created.json()['id']}", headers=KEYS.headers())
    finally:
        logs = second.stop()
    assert fetched.json() == created.json()
    assert '"correlation_id"' in logs


async def _count(stream: JetStreamContext) -> int:
    try:
        return int((await stream.stream_info("EVENTS")).state.messages)
    except (nats.js.errors.NotFoundError, nats.errors.TimeoutError):
        return 0  # not there yet, or a cluster electing a new leader


async def _stream_names(broker: EmbeddedNats, expected: int) -> list[str]:
    """The profile names on the EVENTS stream, once ``expected`` messages are there."""
    client = await nats.connect(broker.url)
    try:
        stream = client.jetstream()
        with anyio.fail_after(60):
            while await _count(stream) < expected:
                await anyio.sleep(0.2)
            # Read by sequence from the stream's leader: no consumer to create, which on a
            # cluster that has just lost a node waits for the meta leader's election.
            while True:
                try:
                    state = (await stream.stream_info("EVENTS")).state
                    messages = [
                        await stream.get_msg("EVENTS", seq)
                        for seq in range(state.first_seq, state.last_seq + 1)
                    ]
                    break
                except nats.errors.TimeoutError:
                    await anyio.sleep(0.2)  # a leader being elected: ask again
        return [json.loads(message.data or b"{}")["name"] for message in messages]
    finally:
        await client.close()


async def test_events_reach_the_broker_exactly_once_across_an_outage(tmp_path: Path) -> None:
    broker = EmbeddedNats(tmp_path / "nats")
    server = Server(tmp_path / "profiles.db", broker_url=broker.url)
    try:
        async with httpx.AsyncClient(
            base_url=server.url, timeout=10, headers=KEYS.headers()
        ) as client:
            for index in range(3):
                body = {"name": f"before-{index}", "email": "a@b.org"}
                assert (await client.post(BASE, json=body)).status_code == 201
            await broker.start()
            assert sorted(await _stream_names(broker, 3)) == [f"before-{i}" for i in range(3)]
            await broker.kill()
            for index in range(3):
                body = {"name": f"during-{index}", "email": "a@b.org"}
                assert (await client.post(BASE, json=body)).status_code == 201
            await broker.start()
            names = await _stream_names(broker, 6)
        assert sorted(names) == sorted(
            [f"before-{i}" for i in range(3)] + [f"during-{i}" for i in range(3)]
        )
    finally:
        server.stop()
        await broker.stop()


async def test_on_a_three_node_cluster_streams_are_replicated_and_survive_a_node(
    tmp_path: Path,
) -> None:
    """Configured by environment only (the node URLs and BROKER_REPLICAS=3), the sample
    keeps its stream on three servers; with the stream's leader killed in the middle of
    the writes, every event still reaches the stream, once."""
    cluster = EmbeddedCluster(3, tmp_path / "cluster")
    await cluster.start()
    server = Server(tmp_path / "profiles.db", broker_url=cluster.url, replicas=3)
    try:
        async with httpx.AsyncClient(
            base_url=server.url, timeout=10, headers=KEYS.headers()
        ) as client:
            for index in range(3):
                body = {"name": f"before-{index}", "email": "a@b.org"}
                assert (await client.post(BASE, json=body)).status_code == 201
            observer = await nats.connect(servers=cluster.url.split(","))
            try:
                stream = observer.jetstream()
                with anyio.fail_after(30):
                    while await _count(stream) < 3:
                        await anyio.sleep(0.2)
                info = await stream.stream_info("EVENTS")
                assert info.config.num_replicas == 3
                assert info.cluster is not None and len(info.cluster.replicas or []) == 2
                leader = info.cluster.leader
            finally:
                await observer.close()
            [killed] = [node for node in cluster.nodes if node.server_name == leader]
            await killed.kill()
            for index in range(3):
                body = {"name": f"during-{index}", "email": "a@b.org"}
                assert (await client.post(BASE, json=body)).status_code == 201
        survivor = next(node for node in cluster.nodes if node is not killed)
        names = await _stream_names(survivor, 6)
        assert sorted(names) == sorted(
            [f"before-{i}" for i in range(3)] + [f"during-{i}" for i in range(3)]
        )
    finally:
        server.stop()
        await cluster.stop()


async def _consumer_done(broker: EmbeddedNats, durable: str, delivered: int) -> None:
    client = await nats.connect(broker.url)
    try:
        stream = client.jetstream()
        with anyio.fail_after(30):
            while True:
                try:
                    info = await stream.consumer_info("EVENTS", durable)
                except nats.js.errors.NotFoundError:
                    info = None
                if info and info.ack_floor.stream_seq >= delivered and not info.num_ack_pending:
                    return
                await anyio.sleep(0.2)
    finally:
        await client.close()


async def test_a_consumed_event_reaches_the_reaction_in_its_context(tmp_path: Path) -> None:
    broker = EmbeddedNats(tmp_path / "nats")
    await broker.start()
    server = Server(tmp_path / "profiles.db", broker_url=broker.url)
    try:
        publisher = await JetStreamBroker.connect(MessagingSettings(url=broker.url))
        try:
            await publisher.publish(
                event_message(
                    Subjects(),
                    service="iam",
                    event_type="TenantCreatedEvent",
                    payload={
                        "tenant_id": "acme",
                        "name": "Acme",
                        "occurred_at": "2026-11-22T10:00:00+00:00",
                        "admin_user_id": "u-1",
                    },
                    context=SecurityContext(tenant_id="acme", correlation_id="corr-e2e"),
                )
            )
        finally:
            await publisher.close()
        await _consumer_done(broker, "user-profile-iam-tenant-created-event", 1)
    finally:
        output = server.stop()
        await broker.stop()
    [line] = [json.loads(x) for x in output.splitlines() if "tenant prepared" in x]
    assert (line["tenant_id"], line["correlation_id"], line["tenantName"]) == (
        "acme",
        "corr-e2e",
        "Acme",
    )


async def test_a_consumer_offline_while_events_are_published_catches_up(
    tmp_path: Path,
) -> None:
    """The sample's durable consumer group exists (a first run made it); the service is
    down while three tenants are created; started again, it reacts to each, once."""
    broker = EmbeddedNats(tmp_path / "nats")
    await broker.start()
    durable = "user-profile-iam-tenant-created-event"
    try:
        Server(tmp_path / "profiles.db", broker_url=broker.url).stop()  # makes the group
        publisher = await JetStreamBroker.connect(MessagingSettings(url=broker.url))
        try:
            for index in range(3):
                await publisher.publish(
                    event_message(
                        Subjects(),
                        service="iam",
                        event_type="TenantCreatedEvent",
                        payload={
                            "tenant_id": f"t-{index}",
                            "name": f"Tenant {index}",
                            "occurred_at": "2026-11-22T10:00:00+00:00",
                            "admin_user_id": "u-1",
                        },
                        context=SecurityContext(tenant_id=f"t-{index}"),
                    )
                )
        finally:
            await publisher.close()
        server = Server(tmp_path / "profiles.db", broker_url=broker.url)
        try:
            await _consumer_done(broker, durable, 3)
        finally:
            output = server.stop()
    finally:
        await broker.stop()
    prepared = [json.loads(x) for x in output.splitlines() if "tenant prepared" in x]
    assert sorted(line["tenant_id"] for line in prepared) == ["t-0", "t-1", "t-2"]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 MiB file system of its own (tmpfs), which the test can fill."""
    import os
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root (CI and `make test` run as root)")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert mounted.returncode == 0, mounted.stderr
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def _fill(disk: Path) -> Path:
    """Write one file until the file system is full."""
    filler = disk / "filler"
    with filler.open("wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError:
            pass
    return filler


def _readiness(server: Server) -> tuple[int, dict[str, object]]:
    answer = httpx.get(f"{server.url}/actuator/health/readiness", timeout=10)
    return answer.status_code, answer.json()


def test_a_full_disk_is_503_with_readiness_down_and_recovers_without_a_restart(
    small_disk: Path,
) -> None:
    server = Server(small_disk / "profiles.db")
    stored: list[str] = []
    try:
        with httpx.Client(base_url=server.url, timeout=10, headers=KEYS.headers()) as client:

            def create(name: str) -> httpx.Response:
                answer = client.post(BASE, json={"name": name, "email": f"{name}@example.org"})
                if answer.status_code == 201:
                    stored.append(name)
                return answer

            assert create("before").status_code == 201
            filler = _fill(small_disk)
            refused = None
            for attempt in range(50):  # SQLite may still have room in pages it holds
                answer = create(f"full-{attempt}")
                if answer.status_code != 201:
                    refused = answer
                    break
            assert refused is not None, "the full disk never refused a write"
            assert refused.status_code == 503, refused.text
            assert refused.headers["content-type"] == PROBLEM
            assert refused.headers["retry-after"] == "5"
            body = refused.json()
            assert body["type"] == "urn:problem-type:store-unavailable"
            assert str(small_disk) not in refused.text  # the database's words stay in the log
            status, health = _readiness(server)
            assert status == 503
            assert health["components"] == {"eventStore": {"status": "DOWN"}}
            assert client.get(BASE).status_code == 200  # reads still answer

            filler.unlink()
            deadline = time.monotonic() + 10
            while _readiness(server)[0] != 200 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _readiness(server)[0] == 200
            assert create("after").status_code == 201

            # Nothing half-written: the read model (fed from the store) holds exactly the
            # profiles whose creation was acknowledged.
            deadline = time.monotonic() + 15
            names: list[str] = []
            while sorted(names) != sorted(stored) and time.monotonic() < deadline:
                names = [p["name"] for p in client.get(BASE).json()]
                time.sleep(0.1)
            assert sorted(names) == sorted(stored)
    finally:
        output = server.stop()
    assert "storage fault on POST" in output


def test_killed_in_a_write_burst_every_acknowledged_write_is_kept(tmp_path: Path) -> None:
    """SIGKILL while four clients write as fast as they can; after a restart every
    acknowledged profile is there and the read model holds exactly the stored profiles
    (nothing half-written, nothing lost from the projection)."""
    import sqlite3

    database = tmp_path / "profiles.db"
    server = Server(database)
    acknowledged: list[str] = []
    stop = threading.Event()

    def write(client: httpx.Client, writer: int) -> None:
        for number in itertools.count():
            if stop.is_set():
                return
            try:
                answer = client.post(
                    BASE, json={"name": f"w{writer}-{number}", "email": "w@example.org"}
                )
            except httpx.TransportError:
                return  # the server is gone
            if answer.status_code == 201:
                acknowledged.append(answer.json()["id"])

    with httpx.Client(base_url=server.url, timeout=10, headers=KEYS.headers()) as client:
        writers = [threading.Thread(target=write, args=(client, n)) for n in range(4)]
        for thread in writers:
            thread.start()
        deadline = time.monotonic() + 30
        while len(acknowledged) < 60 and time.monotonic() < deadline:
            time.sleep(0.01)
        server.process.kill()  # SIGKILL: no shutdown, no flush
        server.process.wait()
        stop.set()
        for thread in writers:
            thread.join(timeout=15)
    server.stop()
    assert len(acknowledged) >= 60

    restarted = Server(database)
    try:
        with httpx.Client(base_url=restarted.url, timeout=10, headers=KEYS.headers()) as client:
            for profile_id in acknowledged:
                assert client.get(f"{BASE}/{profile_id}").status_code == 200, profile_id
            with sqlite3.connect(database) as connection:
                stored = {
                    row[0]
                    for row in connection.execute(
                        "SELECT DISTINCT stream_id FROM eaf_events "
                        "WHERE stream_type = 'SampleUserProfile' AND tenant_id = 'acme'"
                    )
                }
            assert set(acknowledged) <= stored
            listed: set[str] = set()
            deadline = time.monotonic() + 20
            while listed != stored and time.monotonic() < deadline:
                listed = {profile["id"] for profile in client.get(BASE).json()}
                time.sleep(0.1)
            assert listed == stored
    finally:
        restarted.stop()


def test_the_sample_on_postgresql_end_to_end(tmp_path: Path) -> None:
    """The rendered sample as a server process on a real PostgreSQL (its events, outbox and
    read model there, row-level security in force): create, read, change, list, tenant
    isolation, a stale If-Match, and everything still there after a restart."""
    from eaf.eventsourcing.testing.postgres import running_postgres

    with running_postgres() as cluster:
        database = anyio.run(cluster.create_database)
        environ = {
            "DATABASE_URL": cluster.url(database).replace("+asyncpg", "", 1),
            "SECURITY_IAM_URL": KEYS.url,
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
        }

        def start(run: int) -> Service:
            service = Service("user_profile", tmp_path / f"pg-{run}.log", environ)
            service.wait_ready()
            return service

        server = start(1)
        try:
            with httpx.Client(base_url=server.url, timeout=10, headers=KEYS.headers()) as client:
                created = client.post(BASE, json={"name": "Ada", "email": "ada@example.org"})
                assert created.status_code == 201, created.text
                profile = created.json()
                path = f"{BASE}/{profile['id']}"
                assert client.get(path).json() == profile
                changed = client.put(
                    path,
                    json={"name": "Ada L.", "email": "ada@l.org"},
                    headers={"If-Match": '"1"'},
                )
                assert changed.status_code == 200, changed.text
                stale = client.put(
                    path, json={"name": "B", "email": "b@l.org"}, headers={"If-Match": '"1"'}
                )
                assert stale.status_code == 412
                assert client.get(path, headers=KEYS.headers("someone-else")).status_code == 404
                deadline = time.monotonic() + 15
                listed: list[dict[str, str]] = []
                while listed != [changed.json()] and time.monotonic() < deadline:
                    listed = client.get(BASE).json()
                    time.sleep(0.1)
                assert listed == [changed.json()]
        finally:
            server.stop()

        async def stored_events() -> int:
            connection = await cluster.connect(database, user="postgres")
            try:
                count: int = await connection.fetchval("SELECT count(*) FROM eaf_events")
                return count
            finally:
                await connection.close()

        assert anyio.run(stored_events) == 2
        restarted = start(2)
        try:
            with httpx.Client(base_url=restarted.url, timeout=10, headers=KEYS.headers()) as client:
                assert client.get(path).json() == changed.json()
                assert client.get(BASE).json() == [changed.json()]
        finally:
            restarted.stop()
