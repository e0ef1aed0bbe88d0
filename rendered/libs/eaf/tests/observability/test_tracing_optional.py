from __future__ import annotations

import sys

import httpx
import pytest
from fastapi import FastAPI

from eaf.observability import instrument_tracing


def hello_app() -> FastAPI:
    app = FastAPI()

    @app.get("/hello")
    async def hello() -> dict[str, str]:
        return {"hello": "world"}

    return app


async def test_without_opentelemetry_tracing_is_a_no_op(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A None entry in sys.modules makes the import fail as if the package were absent.
    monkeypatch.setitem(sys.modules, "opentelemetry.instrumentation.fastapi", None)
    app = hello_app()

    assert instrument_tracing(app, "svc") is False
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://svc") as http:
        assert (await http.get("/hello")).json() == {"hello": "world"}


async def test_with_opentelemetry_requests_become_spans_of_the_service() -> None:
    pytest.importorskip("opentelemetry.instrumentation.fastapi")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    in_memory = pytest.importorskip(
        "opentelemetry.sdk.trace.export.in_memory_span_exporter"
    )
    trace = pytest.importorskip("opentelemetry.trace")
    app = hello_app()

    assert instrument_tracing(app, "traced-svc") is True
    exporter = in_memory.InMemorySpanExporter()
    trace.get_tracer_provider().add_span_processor(export.SimpleSpanProcessor(exporter))
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://svc") as http:
        await http.get("/hello")

    spans = exporter.get_finished_spans()
    server = [span for span in spans if span.kind == trace.SpanKind.SERVER]
    assert server, spans
    assert server[0].resource.attributes["service.name"] == "traced-svc"
    assert server[0].attributes["http.route"] == "/hello"
