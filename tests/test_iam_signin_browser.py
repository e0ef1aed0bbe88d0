"""A real browser (Debian's chromium driven by playwright) signs in through the IAM's
sign-in page of a tenant's realm: a wrong password shows the form again with the error
tied to its field; the right one sends the browser back to the client with a code, whose
access token the sample service (user-profile) accepts; a second authorization request
skips the form (the browser session)."""

from __future__ import annotations

import hashlib
import http.server
import secrets
import threading
from base64 import urlsafe_b64encode
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import pytest
from eaf.messaging.embedded import EmbeddedNats
from helpers import Service, iam_and_sample

CHROMIUM = Path("/usr/bin/chromium")
ADMIN = ("root", secrets.token_urlsafe(16))
PASSWORD = secrets.token_urlsafe(12)


@pytest.fixture
async def services(tmp_path: Path) -> AsyncIterator[tuple[Service, Service]]:
    broker = EmbeddedNats(tmp_path / "nats")
    await broker.start()
    iam, profiles = iam_and_sample(tmp_path, ADMIN, broker.url)
    try:
        await anyio.to_thread.run_sync(iam.wait_ready)
        await anyio.to_thread.run_sync(profiles.wait_ready)
        yield iam, profiles
    finally:
        profiles.stop()
        iam.stop()
        await broker.stop()


@pytest.fixture
def callback() -> Iterator[tuple[str, list[str]]]:
    """The client's redirect URI, on a server recording every request's path."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"<!DOCTYPE html><title>Back</title><p>Back at the client</p>")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/callback", seen
    finally:
        server.shutdown()
        server.server_close()


def realm_with_client(iam: str, redirect_uri: str) -> str:
    """The realm URL of a new tenant ``acme`` with the public client ``spa``."""
    root = httpx.post(
        f"{iam}/api/v1/auth/token",
        data={
            "grant_type": "password",
            "tenant": "platform",
            "username": ADMIN[0],
            "password": ADMIN[1],
        },
    ).json()["access_token"]
    tenant = httpx.post(
        f"{iam}/api/v1/tenants",
        json={
            "name": "acme",
            "adminUsername": "boss",
            "adminEmail": "boss@acme.test",
            "adminPassword": PASSWORD,
        },
        headers={"Authorization": f"Bearer {root}"},
    )
    assert tenant.status_code == 201, tenant.text
    boss = httpx.post(
        f"{iam}/api/v1/auth/token",
        data={"grant_type": "password", "tenant": "acme", "username": "boss", "password": PASSWORD},
    ).json()["access_token"]
    client = httpx.post(
        f"{iam}/api/v1/tenants/{tenant.json()['tenantId']}/clients",
        json={
            "clientId": "spa",
            "name": "Acme profiles",
            "clientType": "public",
            "redirectUris": [redirect_uri],
            "scopes": ["openid", "profile", "user-profile:*"],
            "firstParty": True,
        },
        headers={"Authorization": f"Bearer {boss}"},
    )
    assert client.status_code == 201, client.text
    return f"{iam}/realms/acme"


async def test_a_browser_signs_in_and_its_token_reaches_the_sample_service(
    services: tuple[Service, Service], callback: tuple[str, list[str]]
) -> None:
    from playwright.async_api import async_playwright

    assert CHROMIUM.is_file(), "Debian's chromium is needed (make test installs it)"
    iam, profiles = services
    redirect_uri, seen = callback
    issuer = await anyio.to_thread.run_sync(realm_with_client, iam.url, redirect_uri)
    metadata = httpx.get(f"{issuer}/.well-known/openid-configuration").json()
    verifier = secrets.token_urlsafe(48)
    challenge = urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    authorize = str(
        httpx.URL(
            metadata["authorization_endpoint"],
            params={
                "response_type": "code",
                "client_id": "spa",
                "redirect_uri": redirect_uri,
                "scope": "openid profile user-profile:*",
                "state": "st-42",
                "code_challenge": challenge,
                "code_challenge_method": "S256",
            },
        )
    )
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        try:
            page = await browser.new_page()
            await page.goto(authorize)
            assert await page.get_attribute("html", "lang") == "en"
            await page.get_by_label("Username").fill("boss")
            await page.get_by_label("Password").fill("not-the-password")
            await page.get_by_role("button", name="Sign in").click()
            await page.wait_for_load_state()
            password = page.get_by_label("Password")
            assert await password.get_attribute("aria-invalid") == "true"
            assert await page.locator("#password-error").inner_text() == (
                "Wrong username or password."
            )
            assert await password.get_attribute("aria-describedby") == "password-error"
            assert seen == []
            assert await page.get_by_label("Username").input_value() == "boss"

            await password.fill(PASSWORD)
            await page.get_by_role("button", name="Sign in").click()
            await page.wait_for_url(redirect_uri + "?*")
            returned = {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}
            assert returned["state"] == "st-42"
            cookies = {c["name"]: c for c in await page.context.cookies()}
            session = cookies["iam_session"]
            assert session["httpOnly"] and session["sameSite"] == "Lax"

            # the browser's session: a second request comes straight back with a code
            await page.goto(authorize.replace("st-42", "st-43"))
            await page.wait_for_url(redirect_uri + "?*")
            assert "state=st-43" in page.url and "code=" in page.url
        finally:
            await browser.close()

    tokens = httpx.post(
        metadata["token_endpoint"],
        data={
            "grant_type": "authorization_code",
            "code": returned["code"],
            "redirect_uri": redirect_uri,
            "client_id": "spa",
            "code_verifier": verifier,
        },
    )
    assert tokens.status_code == 200, tokens.text
    bearer = {"Authorization": f"Bearer {tokens.json()['access_token']}"}
    async with httpx.AsyncClient(base_url=profiles.url, timeout=15) as app:
        created = await app.post(
            "/api/v1/user-profiles",
            json={"name": "Boss", "email": "boss@acme.test"},
            headers=bearer,
        )
        assert created.status_code == 201, created.text
        listed = await app.get("/api/v1/user-profiles", headers=bearer)
        assert listed.status_code == 200, listed.text
