"""A running IAM under hostile requests: a body of a million keys and one nested 100,000
deep are answered with an error while the service keeps answering others, and SIGTERM
stops it while a request is still arriving."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from helpers import Service

TOKEN = "/api/v1/auth/token"
LIVENESS = "/actuator/health/liveness"
JSON = {"Content-Type": "application/json"}
PROBLEM_TYPE = "application/problem+json"
RAISED_LIMIT = 16 * 1024 * 1024


def start_iam(tmp_path: Path, name: str, **environ: str) -> Service:
    iam = Service(
        "iam",
        tmp_path / f"{name}.log",
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / f'{name}.db'}",
            "SECURITY_KEYS_FILE": str(tmp_path / f"{name}-keys.json"),
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "LOGGING_FORMAT": "json",
            **environ,
        },
    )
    iam.wait_ready()
    return iam


@pytest.fixture(scope="module")
def iam(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """IAM with the default limits (1 MiB bodies, JSON 32 deep)."""
    service = start_iam(tmp_path_factory.mktemp("iam"), "iam")
    yield service
    service.stop()


@pytest.fixture
def raised_iam(tmp_path: Path) -> Iterator[Service]:
    """IAM that takes bodies of up to 16 MiB, and stops within a second of SIGTERM."""
    service = start_iam(
        tmp_path,
        "raised",
        SERVER_MAX_BODY_BYTES=str(RAISED_LIMIT),
        SERVER_GRACEFUL_SHUTDOWN_SECONDS="1",
    )
    yield service
    service.stop()


def million_keys() -> bytes:
    """A JSON object of 1,000,000 members (about 10 MB): quadratic work on its keys would
    take the service for many minutes."""
    members = b",".join(b'"%d":0' % index for index in range(1_000_000))
    return b"{" + members + b"}"


async def slowly(body: bytes, chunk: int = 512 * 1024, pause: float = 0.05) -> AsyncIterator[bytes]:
    """The body in chunks with pauses, so the request stays in flight for a while (sent
    chunked, without Content-Length)."""
    for start in range(0, len(body), chunk):
        yield body[start : start + chunk]
        await anyio.sleep(pause)


async def while_probing(
    http: httpx.AsyncClient, send: Callable[[], Awaitable[httpx.Response]]
) -> tuple[httpx.Response, list[int]]:
    """The response of ``send``, and the statuses of the liveness probes that were
    answered while it was in flight."""
    answered: list[int] = []
    result: list[httpx.Response] = []
    done = anyio.Event()

    async def big() -> None:
        try:
            result.append(await send())
        finally:
            done.set()

    async def probe() -> None:
        while not done.is_set():
            status = (await http.get(LIVENESS)).status_code
            if not done.is_set():
                answered.append(status)
            await anyio.sleep(0.02)

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(big)
        tasks.start_soon(probe)
    return result[0], answered


def assert_problem(response: httpx.Response, status: int) -> None:
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["status"] == status


async def test_a_ten_megabyte_body_is_refused_by_size(iam: Service) -> None:
    body = million_keys()
    async with httpx.AsyncClient(base_url=iam.url, timeout=120) as http:
        declared = await http.post(TOKEN, content=body, headers=JSON)
        streamed, answered = await while_probing(
            http, lambda: http.post(TOKEN, content=slowly(body), headers=JSON)
        )
        after = await http.get(LIVENESS)

    assert len(body) > 10_000_000
    assert_problem(declared, 413)
    assert_problem(streamed, 413)
    assert "content-length" not in streamed.request.headers
    assert answered and set(answered) == {200}
    assert after.status_code == 200


async def test_a_body_nested_100k_deep_is_refused(iam: Service) -> None:
    deep = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    async with httpx.AsyncClient(base_url=iam.url, timeout=120) as http:
        response, answered = await while_probing(
            http, lambda: http.post(TOKEN, content=slowly(deep, 16 * 1024), headers=JSON)
        )

    assert_problem(response, 400)
    assert "nested" in response.json()["detail"]
    assert answered and set(answered) == {200}


async def test_a_million_keys_under_a_raised_limit_are_an_oauth_error(
    raised_iam: Service,
) -> None:
    body = million_keys()
    async with httpx.AsyncClient(base_url=raised_iam.url, timeout=120) as http:
        response, answered = await while_probing(
            http, lambda: http.post(TOKEN, content=slowly(body), headers=JSON)
        )
        after = await http.get(LIVENESS)

    assert response.status_code == 400, response.text[:500]
    assert response.json()["error"] == "invalid_request"
    assert "parameters" in response.json()["error_description"]
    assert answered and set(answered) == {200}
    assert after.status_code == 200


async def test_sigterm_stops_the_service_while_a_big_request_arrives(
    raised_iam: Service,
) -> None:
    body = million_keys()
    sent = anyio.Event()

    async def trickle() -> AsyncIterator[bytes]:
        async for chunk in slowly(body, chunk=256 * 1024, pause=0.5):
            yield chunk
            sent.set()

    async with (
        httpx.AsyncClient(base_url=raised_iam.url, timeout=120) as http,
        anyio.create_task_group() as tasks,
    ):

        async def upload() -> None:
            # The service goes away mid-request: the upload fails, which is the point.
            with pytest.raises(httpx.TransportError):
                await http.post(TOKEN, content=trickle(), headers=JSON)

        tasks.start_soon(upload)
        await sent.wait()
        await anyio.sleep(0.5)
        raised_iam.process.send_signal(signal.SIGTERM)
        try:
            code = await anyio.to_thread.run_sync(lambda: raised_iam.process.wait(timeout=60))
        except subprocess.TimeoutExpired:
            pytest.fail(f"IAM ignored SIGTERM: {raised_iam.stop()}")
        tasks.cancel_scope.cancel()

    # uvicorn shuts down cleanly, then re-raises the signal it caught (status -15).
    assert code in (0, -signal.SIGTERM)
    log = raised_iam.log.read_text()
    assert "timeout graceful shutdown exceeded" in log
    assert "Application shutdown complete" in log
