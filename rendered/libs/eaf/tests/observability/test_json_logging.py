from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from eaf.context import SecurityContext, use
from eaf.observability import configure_logging, install

log = logging.getLogger("tests.observability")


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    uvicorn = logging.getLogger("uvicorn")
    uvicorn_state = uvicorn.handlers[:], uvicorn.propagate
    yield
    root.handlers[:], root.level = handlers, level
    uvicorn.handlers[:], uvicorn.propagate = uvicorn_state


def json_lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in capsys.readouterr().err.splitlines()]


def test_a_record_becomes_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO", "json", service="user-profile")

    log.info("profile %s created", "p-1")

    [entry] = json_lines(capsys)
    assert entry["level"] == "INFO"
    assert entry["logger"] == "tests.observability"
    assert entry["message"] == "profile p-1 created"
    assert entry["service"] == "user-profile"
    assert entry["timestamp"].endswith("Z")
    assert datetime.fromisoformat(entry["timestamp"]).utcoffset() == timedelta(0)
    assert "correlation_id" not in entry


def test_the_security_context_is_logged(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging(service="svc")
    context = SecurityContext(tenant_id="tenant-a", user_id="ada", correlation_id="c-7")

    with use(context):
        log.warning("checked")

    [entry] = json_lines(capsys)
    assert entry["correlation_id"] == "c-7"
    assert entry["tenant_id"] == "tenant-a"
    assert entry["user_id"] == "ada"


def test_exceptions_and_extra_fields_are_logged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure_logging()

    try:
        raise ValueError("bad email")
    except ValueError:
        log.exception("update failed", extra={"profile_id": "p-2"})

    [entry] = json_lines(capsys)
    assert entry["level"] == "ERROR"
    assert entry["profile_id"] == "p-2"
    assert "ValueError: bad email" in entry["exception"]
    assert "Traceback" in entry["exception"]


def test_the_level_filters_records(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("warning")

    log.info("quiet")
    log.error("loud")

    assert [entry["message"] for entry in json_lines(capsys)] == ["loud"]


def test_configuring_again_does_not_duplicate_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure_logging(service="first")
    configure_logging(service="second")

    log.info("once")

    [entry] = json_lines(capsys)
    assert entry["service"] == "second"


def test_other_handlers_are_left_alone(caplog: pytest.LogCaptureFixture) -> None:
    configure_logging()

    log.info("seen by pytest too")

    assert caplog.messages == ["seen by pytest too"]


def test_text_format_is_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO", "text", service="svc")

    with use(SecurityContext(correlation_id="c-8")):
        log.info("hello")

    line = capsys.readouterr().err.strip()
    assert line.endswith("INFO     svc tests.observability [c-8] hello")


def test_uvicorn_logs_share_the_format(capsys: pytest.CaptureFixture[str]) -> None:
    logging.getLogger("uvicorn").addHandler(logging.NullHandler())
    configure_logging(service="svc")

    logging.getLogger("uvicorn.error").info(
        "Started server process", extra={"color_message": "\x1b[36mStarted\x1b[0m"}
    )

    [entry] = json_lines(capsys)
    assert entry["logger"] == "uvicorn.error"
    assert "color_message" not in entry


@pytest.mark.parametrize(("level", "fmt"), [("LOUD", "json"), ("INFO", "xml")])
def test_unknown_levels_and_formats_are_refused(level: str, fmt: str) -> None:
    with pytest.raises(ValueError):
        configure_logging(level, fmt)


async def test_a_request_logs_with_its_correlation_id(
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure_logging(service="user-profile")
    app = FastAPI()
    install(app, service="user-profile")

    @app.get("/profiles/{profile_id}")
    async def get_profile(profile_id: str) -> dict[str, str]:
        log.info("looking up profile %s", profile_id)
        return {"id": profile_id}

    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://svc") as http:
        response = await http.get("/profiles/p-3", headers={"X-Correlation-Id": "c-42"})

    assert response.headers["X-Correlation-Id"] == "c-42"
    [entry] = [e for e in json_lines(capsys) if e["message"].startswith("looking up")]
    assert entry["correlation_id"] == "c-42"
    assert entry["service"] == "user-profile"
