"""A fake IAM (a real ASGI app serving JWKS, introspection and authorization checks),
its keys and issuer, IamClients in static and remote mode, and a real nats-server."""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import parse_qs

import httpx
import pytest
from eaf.messaging.embedded import EmbeddedNats
from eaf.security import KeyRing, TokenIssuer
from fastapi import FastAPI, Header, Request

from iam_client import IamClient

ISSUER = "https://iam.test"
AUDIENCE = "licensing-api"
IAM_URL = "http://iam.test"


class FakeIam:
    """What IAM answers, and a record of what it was asked."""

    def __init__(self, key_ring: KeyRing) -> None:
        self.key_ring = key_ring
        self.hits: Counter[str] = Counter()
        self.revoked: set[str] = set()
        self.requests: list[dict[str, Any]] = []
        self.app = FastAPI()
        self._routes()

    def _routes(self) -> None:
        app = self.app

        @app.get("/.well-known/jwks.json")
        async def jwks() -> dict[str, Any]:
            self.hits["jwks"] += 1
            return self.key_ring.jwks()

        @app.get("/.well-known/openid-configuration")
        async def discovery() -> dict[str, Any]:
            return {"issuer": ISSUER, "jwks_uri": f"{IAM_URL}/.well-known/jwks.json"}

        @app.post("/api/v1/auth/introspect")
        async def introspect(request: Request) -> dict[str, Any]:
            assert (
                request.headers["content-type"] == "application/x-www-form-urlencoded"
            )
            form = parse_qs((await request.body()).decode())
            token = form["token"][0]
            authorization = request.headers.get("authorization", "")
            self.requests.append({"token": token, "authorization": authorization})
            return {"active": token not in self.revoked}

        @app.post("/api/v1/authz/check")
        async def check(
            body: dict[str, Any], authorization: Annotated[str, Header()] = ""
        ) -> dict[str, Any]:
            self.requests.append({**body, "authorization": authorization})
            allowed = body["resource"].get("owner") == "u1"
            return {
                "allowed": allowed,
                "reason": "owner" if allowed else "not the owner",
            }


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


@pytest.fixture
def key_ring() -> KeyRing:
    return KeyRing.generate()


@pytest.fixture
def issuer(key_ring: KeyRing) -> TokenIssuer:
    return TokenIssuer(key_ring, issuer=ISSUER, default_audience=AUDIENCE)


@pytest.fixture
def iam(key_ring: KeyRing) -> FakeIam:
    return FakeIam(key_ring)


@pytest.fixture
async def iam_http(iam: FakeIam) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=iam.app)) as http:
        yield http


@pytest.fixture
def remote_client(iam_http: httpx.AsyncClient) -> IamClient:
    return IamClient(IAM_URL, issuer=ISSUER, audience=AUDIENCE, http=iam_http)


@pytest.fixture
def static_client(key_ring: KeyRing) -> IamClient:
    return IamClient(issuer=ISSUER, audience=AUDIENCE, jwks=key_ring.jwks())


@pytest.fixture
def token(issuer: TokenIssuer) -> str:
    """A token of user u1 in tenant acme who may read profiles."""
    return issuer.issue(
        subject="u1",
        client_id="web",
        tenant_id="acme",
        roles=["reader"],
        permissions=["user-profile:read", "license:*"],
        username="alice",
    ).token


@pytest.fixture
async def nats_server(tmp_path: Path) -> AsyncIterator[EmbeddedNats]:
    """A real nats-server with JetStream, fresh for each test."""
    async with EmbeddedNats(tmp_path / "nats") as server:
        yield server
