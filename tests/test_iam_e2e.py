"""IAM and the sample service together, over real HTTP and a real nats-server: a platform
admin creates a tenant, the sample service's consumer receives `TenantCreatedEvent` in the
request's context, a tenant user logs in, calls the sample service, refreshes (rotation),
revokes, and introspection then calls the token inactive. A revoked token, a disabled
user's and a suspended tenant's are refused by the sample within seconds (IAM's events
over NATS feed its deny list)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from pathlib import Path

import anyio
import httpx
import pytest
from eaf.messaging.embedded import EmbeddedNats
from eaf.security import KeyRing, TokenIssuer
from helpers import Service, free_port, iam_and_sample, iam_environ

ADMIN = "root"
ADMIN_PASSWORD = secrets.token_urlsafe(16)


@pytest.fixture
async def services(tmp_path: Path) -> AsyncIterator[tuple[Service, Service]]:
    broker = EmbeddedNats(tmp_path / "nats")
    await broker.start()
    iam, profiles = iam_and_sample(tmp_path, (ADMIN, ADMIN_PASSWORD), broker.url)
    try:
        await anyio.to_thread.run_sync(iam.wait_ready)
        await anyio.to_thread.run_sync(profiles.wait_ready)
        yield iam, profiles
    finally:
        profiles.stop()
        iam.stop()
        await broker.stop()


def _bearer(token: str, correlation: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if correlation:
        headers["X-Correlation-Id"] = correlation
    return headers


async def _password_grant(
    client: httpx.AsyncClient, tenant: str, username: str, password: str
) -> dict[str, str]:
    response = await client.post(
        "/api/v1/auth/token",
        data={
            "grant_type": "password",
            "tenant": tenant,
            "username": username,
            "password": password,
        },
    )
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    body: dict[str, str] = response.json()
    return body


async def _until(condition: Callable[[], object], timeout: float = 30) -> None:
    with anyio.fail_after(timeout):
        while not condition():
            await anyio.sleep(0.1)


async def test_tenant_user_token_call_refresh_revoke(services: tuple[Service, Service]) -> None:
    iam, profiles = services
    async with (
        httpx.AsyncClient(base_url=iam.url, timeout=15) as idp,
        httpx.AsyncClient(base_url=profiles.url, timeout=15) as app,
    ):
        root = await _password_grant(idp, "platform", ADMIN, ADMIN_PASSWORD)
        admin_password = secrets.token_urlsafe(12)
        created = await idp.post(
            "/api/v1/tenants",
            json={
                "name": "Acme",
                "adminUsername": "boss",
                "adminEmail": "boss@acme.test",
                "adminPassword": admin_password,
            },
            headers=_bearer(root["access_token"], correlation="corr-tenant-acme"),
        )
        assert created.status_code == 201, created.text
        tenant = created.json()
        assert set(tenant) == {
            "tenantId",
            "name",
            "status",
            "createdAt",
            "updatedAt",
            "adminUserId",
        }
        tenant_id = tenant["tenantId"]

        # The sample service's durable consumer got TenantCreatedEvent over NATS, in the
        # context of the request that created the tenant.
        def prepared() -> list[dict[str, object]]:
            return [e for e in profiles.lines() if e.get("message") == "tenant prepared"]

        await _until(prepared)
        [event] = prepared()
        assert event["tenant_id"] == tenant_id
        assert event["correlation_id"] == "corr-tenant-acme"
        assert event["adminUserId"] == tenant["adminUserId"]

        boss = await _password_grant(idp, tenant_id, "boss", admin_password)
        role = await idp.post(
            f"/api/v1/tenants/{tenant_id}/roles",
            json={"name": "profile-editor", "permissions": ["user-profile:*"]},
            headers=_bearer(boss["access_token"]),
        )
        assert role.status_code == 201, role.text
        password = secrets.token_urlsafe(12)
        user = await idp.post(
            f"/api/v1/tenants/{tenant_id}/users",
            json={
                "username": "ada",
                "email": "ada@acme.test",
                "password": password,
                "roles": ["profile-editor"],
                "attributes": {"department": "research"},
            },
            headers=_bearer(boss["access_token"]),
        )
        assert user.status_code == 201, user.text

        ada = await _password_grant(idp, "Acme", "ada", password)
        profile = await app.post(
            "/api/v1/user-profiles",
            json={"name": "Ada", "email": "ada@acme.test"},
            headers=_bearer(ada["access_token"]),
        )
        assert profile.status_code == 201, profile.text
        assert (await app.post("/api/v1/user-profiles", json={})).status_code == 401

        refreshed = await idp.post(
            "/api/v1/auth/token",
            data={"grant_type": "refresh_token", "refresh_token": ada["refresh_token"]},
        )
        assert refreshed.status_code == 200, refreshed.text
        rotated = refreshed.json()
        assert rotated["refresh_token"] != ada["refresh_token"]
        fetched = await app.get(
            f"/api/v1/user-profiles/{profile.json()['id']}",
            headers=_bearer(rotated["access_token"]),
        )
        assert fetched.status_code == 200

        introspect = {"token": rotated["access_token"]}
        active = await idp.post(
            "/api/v1/auth/introspect", data=introspect, headers=_bearer(boss["access_token"])
        )
        assert active.json()["active"] is True
        assert active.json()["tenant_id"] == tenant_id
        revoked = await idp.post("/api/v1/auth/revoke", data={"token": rotated["access_token"]})
        assert revoked.status_code == 200
        inactive = await idp.post(
            "/api/v1/auth/introspect", data=introspect, headers=_bearer(boss["access_token"])
        )
        assert inactive.json() == {"active": False}

        # Reusing the rotated refresh token revokes the whole family.
        reused = await idp.post(
            "/api/v1/auth/token",
            data={"grant_type": "refresh_token", "refresh_token": ada["refresh_token"]},
        )
        assert (reused.status_code, reused.json()["error"]) == (400, "invalid_grant")
        newest = await idp.post(
            "/api/v1/auth/token",
            data={"grant_type": "refresh_token", "refresh_token": rotated["refresh_token"]},
        )
        assert newest.json()["error"] == "invalid_grant"

        # Another tenant's token never reaches Acme's profile.
        other = await idp.post(
            "/api/v1/tenants",
            json={
                "name": "Globex",
                "adminUsername": "hank",
                "adminEmail": "hank@globex.test",
                "adminPassword": admin_password,
            },
            headers=_bearer(root["access_token"]),
        )
        hank = await _password_grant(idp, other.json()["tenantId"], "hank", admin_password)
        stolen = await app.get(
            f"/api/v1/user-profiles/{profile.json()['id']}",
            headers=_bearer(hank["access_token"]),
        )
        assert stolen.status_code == 404


def _segment(data: dict[str, object]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _forgeries(keys_file: Path, issuer: str) -> tuple[str, dict[str, str]]:
    """A well-formed token, and tokens the sample service must refuse, each with one
    defect: built with IAM's real signing key where the point is a bad claim, and
    without it where the point is a bad signature."""
    ring = KeyRing.load_or_create(keys_file)
    now = time.time()

    def signed(**claims: object) -> str:
        clock = (lambda: now + float(claims.pop("shift"))) if "shift" in claims else time.time
        signer = TokenIssuer(
            ring,
            issuer=str(claims.pop("iss", issuer)),
            default_audience=str(claims.pop("aud", "eaf")),
            clock=clock,
        )
        return signer.issue(
            subject="mallory",
            client_id="forger",
            tenant_id="acme",
            permissions=["user-profile:read", "user-profile:write"],
        ).token

    good = signed()
    header, payload, signature = good.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    public = ring.jwks()["keys"][0]
    hs256_secret = json.dumps(public, sort_keys=True).encode()
    hs256_input = f"{_segment({'alg': 'HS256', 'typ': 'at+jwt', 'kid': public['kid']})}.{payload}"
    hs256_mac = hmac.new(hs256_secret, hs256_input.encode(), hashlib.sha256).digest()
    stranger = TokenIssuer(KeyRing.generate(), issuer=issuer, default_audience="eaf")
    return good, {
        "alg none": f"{_segment({'alg': 'none', 'typ': 'at+jwt'})}.{payload}.",
        "HS256 with the public key": (
            f"{hs256_input}.{base64.urlsafe_b64encode(hs256_mac).rstrip(b'=').decode()}"
        ),
        "expired": signed(shift=-7200),
        "not yet valid": signed(shift=3600),
        "wrong issuer": signed(iss="https://evil.example"),
        "wrong audience": signed(aud="someone-else"),
        "tampered payload": f"{header}.{_segment({**claims, 'tenant_id': 'globex'})}.{signature}",
        "unknown kid": stranger.issue(
            subject="mallory",
            client_id="forger",
            tenant_id="acme",
            permissions=["user-profile:read"],
        ).token,
    }


async def test_forged_and_broken_tokens_are_refused_by_the_sample(
    services: tuple[Service, Service], tmp_path: Path
) -> None:
    iam, profiles = services
    good, forgeries = _forgeries(tmp_path / "keys.json", iam.url)
    async with httpx.AsyncClient(base_url=profiles.url, timeout=15) as app:
        control = await app.get("/api/v1/user-profiles", headers=_bearer(good))
        assert control.status_code == 200, control.text
        for case, token in forgeries.items():
            response = await app.get("/api/v1/user-profiles", headers=_bearer(token))
            assert response.status_code == 401, case
            challenge = response.headers["www-authenticate"]
            assert challenge.startswith('Bearer error="invalid_token"'), case
        missing = await app.get("/api/v1/user-profiles")
        assert (missing.status_code, missing.headers["www-authenticate"]) == (401, "Bearer")


async def _refused_within(
    app: httpx.AsyncClient, token: str, timeout: float = 15
) -> httpx.Response:
    """The sample's first 401 for ``token``, polled until ``timeout`` seconds."""
    with anyio.fail_after(timeout):
        while True:
            response = await app.get("/api/v1/user-profiles", headers=_bearer(token))
            if response.status_code == 401:
                return response
            assert response.status_code == 200, response.text
            await anyio.sleep(0.1)


async def _after_the_second_of(instant: str) -> None:
    """Sleep past the whole second of ``instant``: tokens have ``iat`` in whole seconds,
    so one issued in the second of a disablement is refused with the older ones."""
    until = int(datetime.fromisoformat(instant).timestamp()) + 1
    await anyio.sleep(max(0.0, until - time.time()))


async def test_revocation_disablement_and_suspension_reach_the_sample(
    services: tuple[Service, Service],
) -> None:
    iam, profiles = services
    async with (
        httpx.AsyncClient(base_url=iam.url, timeout=15) as idp,
        httpx.AsyncClient(base_url=profiles.url, timeout=15) as app,
    ):
        root = _bearer(
            (await _password_grant(idp, "platform", ADMIN, ADMIN_PASSWORD))["access_token"]
        )
        password = secrets.token_urlsafe(12)
        tenants: dict[str, str] = {}
        for name, admin in (("Acme", "boss"), ("Globex", "hank")):
            created = await idp.post(
                "/api/v1/tenants",
                json={
                    "name": name,
                    "adminUsername": admin,
                    "adminEmail": f"{admin}@{name.lower()}.test",
                    "adminPassword": password,
                },
                headers=root,
            )
            assert created.status_code == 201, created.text
            tenants[name] = created.json()["tenantId"]
        acme = tenants["Acme"]
        boss_token = (await _password_grant(idp, acme, "boss", password))["access_token"]
        boss = _bearer(boss_token)
        users: dict[str, str] = {}
        for username in ("ada", "bob", "carol"):
            user = await idp.post(
                f"/api/v1/tenants/{acme}/users",
                json={"username": username, "email": f"{username}@acme.test", "password": password},
                headers=boss,
            )
            assert user.status_code == 201, user.text
            users[username] = user.json()["userId"]

        async def token(tenant: str, username: str) -> str:
            return (await _password_grant(idp, tenant, username, password))["access_token"]

        async def works(access_token: str) -> bool:
            response = await app.get("/api/v1/user-profiles", headers=_bearer(access_token))
            return response.status_code == 200

        # A revoked access token (RFC 7009).
        ada = await token(acme, "ada")
        assert await works(ada)
        revoked = await idp.post("/api/v1/auth/revoke", data={"token": ada})
        assert revoked.status_code == 200
        refused = await _refused_within(app, ada)
        assert refused.headers["www-authenticate"].startswith('Bearer error="invalid_token"')
        assert "token revoked" in refused.headers["www-authenticate"]
        assert await works(await token(acme, "ada"))

        # A disabled user: the tokens it holds stop working, a re-activation does not
        # revive them, and the user's new tokens work.
        bob = await token(acme, "bob")
        assert await works(bob)
        disabled = await idp.patch(
            f"/api/v1/tenants/{acme}/users/{users['bob']}",
            json={"status": "DISABLED"},
            headers=boss,
        )
        assert disabled.status_code == 200, disabled.text
        refused = await _refused_within(app, bob)
        assert "before its subject was disabled" in refused.headers["www-authenticate"]
        assert await works(await token(acme, "carol"))
        enabled = await idp.patch(
            f"/api/v1/tenants/{acme}/users/{users['bob']}", json={"status": "ACTIVE"}, headers=boss
        )
        assert enabled.status_code == 200, enabled.text
        await _after_the_second_of(disabled.json()["updatedAt"])
        assert await works(await token(acme, "bob"))
        response = await app.get("/api/v1/user-profiles", headers=_bearer(bob))
        assert response.status_code == 401

        # A suspended tenant: every token of it stops working; other tenants' do not.
        carol = await token(acme, "carol")
        hank = await token(tenants["Globex"], "hank")
        assert await works(carol) and await works(hank)
        suspended = await idp.patch(
            f"/api/v1/tenants/{acme}", json={"status": "SUSPENDED"}, headers=root
        )
        assert suspended.status_code == 200, suspended.text
        refused = await _refused_within(app, carol)
        assert "before its tenant was suspended" in refused.headers["www-authenticate"]
        await _refused_within(app, boss_token)
        assert await works(hank)
        assert await works(await token(tenants["Globex"], "hank"))


async def test_the_circuit_opens_while_iam_is_down_and_closes_once_it_is_back(
    tmp_path: Path,
) -> None:
    """A real IAM, stopped and started again on the same port: the client's calls fail
    (IAM unreachable), the circuit opens and calls fail fast without a request; the
    cached keys keep validating tokens meanwhile; after the recovery time one call goes
    through to the restarted IAM and closes the circuit."""
    from iam_client import IamClient, IamDownError, IamUnavailableError

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    environ = {
        **iam_environ(tmp_path, url, (ADMIN, ADMIN_PASSWORD)),
        "BROKER_RELAY": "false",
        "BROKER_CONSUME": "false",
    }

    def start(run: int) -> Service:
        service = Service("iam", tmp_path / f"iam-{run}.log", environ, port=port)
        service.wait_ready()
        return service

    iam = start(1)
    recovery = 5.0
    client = IamClient(
        url, issuer=url, audience="eaf", breaker_failures=3, breaker_recovery=recovery
    )
    try:
        async with httpx.AsyncClient(base_url=url) as http:
            token = (await _password_grant(http, "platform", ADMIN, ADMIN_PASSWORD))["access_token"]
        user = await client.validate(token)
        assert (await client.check(user, "iam-tenants:read")).allowed
        assert client.breaker.state == "closed"

        iam.stop()
        for _ in range(3):
            with pytest.raises(IamDownError):
                await client.check(user, "iam-tenants:read")
        assert client.breaker.state == "open"
        opened = time.monotonic()
        with pytest.raises(IamUnavailableError, match="not sent"):
            await client.check(user, "iam-tenants:read")
        assert (await client.validate(token)).id == user.id  # cached keys, no IAM needed

        iam = start(2)
        if time.monotonic() - opened < recovery - 0.5:  # a slow restart may outlast it
            with pytest.raises(IamUnavailableError, match="not sent"):  # still open
                await client.check(user, "iam-tenants:read")
        await anyio.sleep(max(0.0, opened + recovery + 0.1 - time.monotonic()))
        assert client.breaker.state == "half_open"
        assert (await client.check(user, "iam-tenants:read")).allowed
        assert client.breaker.state == "closed"
    finally:
        await client.aclose()
        iam.stop()
