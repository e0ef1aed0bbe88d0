"""Tracing is on by default: every request is a span; the exporter is what OpenTelemetry's
variables say (none when unset); without an exporter nothing is recorded, yet the trace
context still flows to the events a request writes."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import httpx
import pytest
from fastapi import FastAPI
from opentelemetry import trace
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from eaf.observability import install, instrument_tracing
from eaf.observability._tracing import TracingConfigError, exporter_name


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


async def test_an_installed_app_traces_its_requests_but_not_its_probes(
    spans: InMemorySpanExporter,
) -> None:
    app = hello_app()
    install(app, service="traced-svc")
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://svc") as http:
        await http.get("/hello")
        await http.get("/actuator/health/liveness")
        await http.get("/metrics")

    server = [s for s in spans.get_finished_spans() if s.kind == trace.SpanKind.SERVER]
    assert [s.attributes["http.route"] for s in server if s.attributes] == ["/hello"]


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "none"),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, "otlp"),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, "otlp"),
        ({"OTEL_TRACES_EXPORTER": "console"}, "console"),
        ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "x"}, "none"),
        ({"OTEL_TRACES_EXPORTER": " OTLP "}, "otlp"),
    ],
)
def test_the_exporter_is_what_the_environment_says(
    environ: dict[str, str], expected: str
) -> None:
    assert exporter_name(environ) == expected


def test_an_unknown_exporter_is_refused_by_name() -> None:
    with pytest.raises(TracingConfigError, match="zipkin"):
        exporter_name({"OTEL_TRACES_EXPORTER": "zipkin"})


_PROBE = textwrap.dedent(
    """
    import asyncio, json, sys
    import httpx
    from fastapi import FastAPI
    from eaf.context import trace_headers
    from eaf.observability import install

    app = FastAPI()

    @app.get("/trace")
    async def current() -> dict[str, str]:
        return trace_headers()

    install(app, service="probe")

    async def main() -> None:
        transport = httpx.ASGITransport(app)
        async with httpx.AsyncClient(transport=transport, base_url="http://p") as http:
            fresh = (await http.get("/trace")).json()
            parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
            continued = (await http.get("/trace", headers={"traceparent": parent})).json()
        print(json.dumps([fresh, continued]))

    asyncio.run(main())
    """
)


def test_with_no_exporter_nothing_is_sampled_but_the_context_flows() -> None:
    """A fresh process, as a service starts: no exporter configured."""
    environ = {"PATH": "", "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        env=environ,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    import json

    fresh, continued = json.loads(run.stdout.splitlines()[-1])
    # A request of its own: a valid trace context, not sampled (flag bit 0 clear).
    version, trace_id, _, flags = fresh["traceparent"].split("-")
    assert version == "00" and int(trace_id, 16) != 0
    assert not int(flags, 16) & 1
    # A caller's sampled trace: continued, with the caller's trace id, still sampled.
    _, trace_id, span_id, flags = continued["traceparent"].split("-")
    assert trace_id == "0af7651916cd43dd8448eb211c80319c"
    assert span_id != "b7ad6b7169203331" and int(flags, 16) & 1
