"""One trace across two services: the IAM and the sample run as server processes with a real
nats-server, exporting spans over OTLP/HTTP to a collector held in this test's memory.
Creating a tenant in the IAM is one trace from its HTTP request through the event-store
append, the outbox relay's publish and NATS to the sample's consumer; a command of the
sample is one trace from HTTP through the command and the append to the publish; log
lines carry the trace ids."""

from __future__ import annotations

import secrets
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anyio
import httpx
import pytest
from eaf.messaging.embedded import EmbeddedNats
from helpers import Service, iam_and_sample
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

ADMIN = "root"
ADMIN_PASSWORD = secrets.token_urlsafe(16)
SERVER, PRODUCER, CONSUMER = 2, 4, 5  # opentelemetry.proto Span.SpanKind values


@dataclass(frozen=True)
class Span:
    service: str
    name: str
    kind: int
    trace_id: str
    span_id: str
    parent_id: str


class Collector:
    """An OTLP/HTTP trace receiver (``POST /v1/traces``, protobuf) keeping spans in memory."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.lock = threading.Lock()
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                request = ExportTraceServiceRequest.FromString(body)
                with collector.lock:
                    collector.spans.extend(_spans(request))
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def of_trace(self, trace_id: str) -> list[Span]:
        with self.lock:
            return [span for span in self.spans if span.trace_id == trace_id]

    def find(self, test: Callable[[Span], bool]) -> list[Span]:
        with self.lock:
            return [span for span in self.spans if test(span)]


def _spans(request: ExportTraceServiceRequest) -> list[Span]:
    found = []
    for resource_spans in request.resource_spans:
        attributes = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                found.append(
                    Span(
                        service=attributes.get("service.name", ""),
                        name=span.name,
                        kind=span.kind,
                        trace_id=span.trace_id.hex(),
                        span_id=span.span_id.hex(),
                        parent_id=span.parent_span_id.hex(),
                    )
                )
    return found


@pytest.fixture
async def traced(tmp_path: Path) -> AsyncIterator[tuple[Collector, Service, Service]]:
    collector = Collector()
    broker = EmbeddedNats(tmp_path / "nats")
    await broker.start()
    iam, profiles = iam_and_sample(
        tmp_path,
        (ADMIN, ADMIN_PASSWORD),
        broker.url,
        OTEL_EXPORTER_OTLP_ENDPOINT=collector.url,
        OTEL_BSP_SCHEDULE_DELAY="100",
    )
    try:
        await anyio.to_thread.run_sync(iam.wait_ready)
        await anyio.to_thread.run_sync(profiles.wait_ready)
        yield collector, iam, profiles
    finally:
        profiles.stop()
        iam.stop()
        await broker.stop()
        collector.httpd.shutdown()
        collector.httpd.server_close()


async def _until(condition: Callable[[], object], timeout: float = 30) -> None:
    with anyio.fail_after(timeout):
        while not condition():
            await anyio.sleep(0.1)


def _chain(spans: list[Span], leaf: Span) -> list[Span]:
    """``leaf`` and its ancestors, root last."""
    by_id = {span.span_id: span for span in spans}
    chain = [leaf]
    while chain[-1].parent_id in by_id:
        chain.append(by_id[chain[-1].parent_id])
    return chain


async def _token(idp: httpx.AsyncClient, tenant: str, username: str, password: str) -> str:
    response = await idp.post(
        "/api/v1/auth/token",
        data={
            "grant_type": "password",
            "tenant": tenant,
            "username": username,
            "password": password,
        },
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["access_token"]
    return token


async def test_one_trace_from_a_request_in_one_service_to_the_consumer_in_another(
    traced: tuple[Collector, Service, Service],
) -> None:
    collector, iam, profiles = traced
    async with (
        httpx.AsyncClient(base_url=iam.url, timeout=15) as idp,
        httpx.AsyncClient(base_url=profiles.url, timeout=15) as app,
    ):
        root = await _token(idp, "platform", ADMIN, ADMIN_PASSWORD)
        boss_password = secrets.token_urlsafe(12)
        created = await idp.post(
            "/api/v1/tenants",
            json={
                "name": "Acme",
                "adminUsername": "boss",
                "adminEmail": "boss@acme.test",
                "adminPassword": boss_password,
            },
            headers={"Authorization": f"Bearer {root}"},
        )
        assert created.status_code == 201, created.text
        tenant_id = created.json()["tenantId"]

        def consumed() -> list[Span]:
            return collector.find(
                lambda s: (
                    s.service == "user-profile"
                    and s.kind == CONSUMER
                    and s.name.endswith(".iam.TenantCreatedEvent process")
                )
            )

        def traced_back_to_the_request() -> bool:
            # Each service exports its spans on its own: the consumer's may come first.
            spans = consumed()
            return bool(spans) and (
                _chain(collector.of_trace(spans[0].trace_id), spans[0])[-1].kind == SERVER
            )

        await _until(traced_back_to_the_request)
        [consumer] = consumed()
        chain = _chain(collector.of_trace(consumer.trace_id), consumer)
        described = [(span.service, span.kind, span.name) for span in chain]
        # consumer (sample) <- publish (IAM's relay) <- append (IAM) <- ... <- HTTP (IAM)
        assert described[0] == ("user-profile", CONSUMER, consumer.name)
        assert described[1] == (
            "iam",
            PRODUCER,
            f"events.{tenant_id}.iam.TenantCreatedEvent publish",
        )
        assert described[2][:2] == ("iam", 1) and described[2][2] == "event_store.append"
        assert described[-1] == ("iam", SERVER, "POST /api/v1/tenants")

        # The sample's own command: HTTP -> command -> append -> publish, one trace.
        boss = await _token(idp, tenant_id, "boss", boss_password)
        response = await app.post(
            "/api/v1/user-profiles",
            json={"name": "Ada", "email": "ada@acme.test"},
            headers={"Authorization": f"Bearer {boss}"},
        )
        assert response.status_code == 201, response.text

        def published() -> list[Span]:
            return collector.find(
                lambda s: (
                    s.service == "user-profile"
                    and s.kind == PRODUCER
                    and s.name.endswith(".user-profile.SampleUserProfileCreated publish")
                )
            )

        await _until(published)
    [publish] = published()
    names = [s.name for s in _chain(collector.of_trace(publish.trace_id), publish)]
    assert names[1:3] == ["event_store.append", "command SampleUserProfile.create"]
    assert names[-1] == "POST /api/v1/user-profiles"

    # The consumer's log line carries the trace it ran in.
    [line] = [e for e in profiles.lines() if e.get("message") == "tenant prepared"]
    assert line["trace_id"] == consumer.trace_id
