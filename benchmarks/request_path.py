"""The request path of a rendered service against a bare FastAPI route doing the same work.

ours: `GET /api/v1/user-profiles/{id}` and `POST /api/v1/user-profiles` of the rendered
sample, through everything it runs per request: request limits, correlation id, metrics,
JSON logging, bearer-token validation and the permission check, the tenant's security
context, problem handling, ETags, then the use case (a load from the event store; for the
POST a command appended with its event).
bare: a FastAPI app with one route per operation calling the same use cases on the same
store, in a fixed tenant context, with nothing else.
bare + eventsourcing: for the command, a plain route that creates an aggregate of the
`eventsourcing` library and saves it with its SQLite application recorder (a file in the
same directory), so the POST is also measured against a bare route plus that library's
append.

Both run in process through httpx's ASGI transport (same client overhead), interleaved,
best of a few rounds; the ratio is ours / bare in requests per second (1.0 = no overhead).

    .venv/bin/python benchmarks/request_path.py [--requests 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from eaf.context import SecurityContext, use
from eaf.security import KeyRing, TokenIssuer
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate as TheirAggregate
from fastapi import FastAPI
from iam_client import IamClient
from user_profile.infrastructure.config import load_settings
from user_profile.main import create_app

ISSUER = "https://iam.bench"
AUDIENCE = "eaf"
BASE = "/api/v1/user-profiles"


class TheirProfile(TheirAggregate):
    """The sample's profile as an aggregate of the `eventsourcing` library."""

    def __init__(self, name: str, email: str) -> None:
        self.name = name
        self.email = email


def eventsourcing_app(database: Path) -> FastAPI:
    """A bare route appending the creation event with the `eventsourcing` library."""
    app = FastAPI()
    store: Application[Any] = Application(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(database)}
    )

    @app.post("/profiles", status_code=201)
    async def create(body: dict[str, str]) -> dict[str, Any]:
        profile = TheirProfile(name=body["name"], email=body["email"])
        store.save(profile)
        return {"id": str(profile.id), "name": profile.name, "email": profile.email}

    return app


def bare_app(ours: FastAPI) -> FastAPI:
    """The same use cases (built by the rendered app's lifespan) behind plain routes."""
    app = FastAPI()
    tenant = SecurityContext(tenant_id="acme", user_id="bench")

    @app.get("/profiles/{profile_id}")
    async def get(profile_id: str) -> dict[str, Any]:
        with use(tenant):
            profile = await ours.state.sample_user_profile.get(profile_id)
        assert profile is not None
        return {"id": profile.id, "name": profile.name, "email": profile.email}

    @app.post("/profiles", status_code=201)
    async def create(body: dict[str, str]) -> dict[str, Any]:
        with use(tenant):
            profile = await ours.state.sample_user_profile.create(
                name=body["name"], email=body["email"]
            )
        return {"id": profile.id, "name": profile.name, "email": profile.email}

    return app


async def rate(count: int, call: Callable[[int], Awaitable[None]]) -> float:
    started = time.perf_counter()
    for number in range(count):
        await call(number)
    return count / (time.perf_counter() - started)


async def main(requests: int, rounds: int) -> None:
    logging.disable(logging.CRITICAL)  # both sides: no log output to a terminal
    ring = KeyRing.generate()
    token = (
        TokenIssuer(ring, issuer=ISSUER, default_audience=AUDIENCE)
        .issue(
            subject="bench",
            client_id="bench",
            tenant_id="acme",
            permissions=["user-profile:read", "user-profile:write"],
        )
        .token
    )
    with tempfile.TemporaryDirectory() as directory:
        settings = load_settings(
            {
                "DATABASE_URL": f"sqlite:///{Path(directory) / 'bench.db'}",
                "BROKER_RELAY": "false",
                "BROKER_CONSUME": "false",
            }
        )
        app = create_app(
            settings, iam=IamClient(jwks=ring.jwks(), issuer=ISSUER, audience=AUDIENCE)
        )
        async with app.router.lifespan_context(app):
            bare = bare_app(app)
            library = eventsourcing_app(Path(directory) / "eventsourcing.db")
            headers = {"Authorization": f"Bearer {token}"}
            async with (
                httpx.AsyncClient(
                    transport=httpx.ASGITransport(app), base_url="http://ours", headers=headers
                ) as ours,
                httpx.AsyncClient(
                    transport=httpx.ASGITransport(bare), base_url="http://bare"
                ) as plain,
                httpx.AsyncClient(
                    transport=httpx.ASGITransport(library), base_url="http://library"
                ) as theirs_client,
            ):
                body = {"name": "Ada", "email": "ada@example.org"}
                made = (await ours.post(BASE, json=body)).json()["id"]

                async def ours_get(_: int) -> None:
                    assert (await ours.get(f"{BASE}/{made}")).status_code == 200

                async def bare_get(_: int) -> None:
                    assert (await plain.get(f"/profiles/{made}")).status_code == 200

                async def ours_post(number: int) -> None:
                    answer = await ours.post(BASE, json={"name": f"p{number}", **body})
                    assert answer.status_code == 201

                async def bare_post(number: int) -> None:
                    answer = await plain.post("/profiles", json={"name": f"p{number}", **body})
                    assert answer.status_code == 201

                async def library_post(number: int) -> None:
                    answer = await theirs_client.post(
                        "/profiles", json={"name": f"p{number}", **body}
                    )
                    assert answer.status_code == 201

                for label, mine, theirs, count in (
                    ("GET by id", ours_get, bare_get, requests),
                    ("POST (command)", ours_post, bare_post, requests // 4),
                    ("POST vs bare + eventsourcing", ours_post, library_post, requests // 4),
                ):
                    await rate(50, mine)  # warm up
                    await rate(50, theirs)
                    best_ours = best_bare = 0.0
                    for round_ in range(rounds):
                        pair = [(mine, True), (theirs, False)]
                        for call, is_ours in pair if round_ % 2 == 0 else reversed(pair):
                            value = await rate(count, call)
                            if is_ours:
                                best_ours = max(best_ours, value)
                            else:
                                best_bare = max(best_bare, value)
                    print(
                        f"{label}: ours {best_ours:,.0f} req/s  bare {best_bare:,.0f} req/s"
                        f"  ratio {best_ours / best_bare:.2f}"
                    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    asyncio.run(main(options.requests, options.rounds))
