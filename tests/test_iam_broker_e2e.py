"""Identity brokering against real components: a running IAM whose tenant signs users in
through an external OpenID provider, the OpenID-certified ``oidc-provider`` (npm) run by
the test. The button on the realm's sign-in page leads to the provider, its login form
signs in, and its answer becomes an IAM code whose token carries the mapped roles; every
misuse ends on an error page, with nothing created and no redirect to the client."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from helpers import Service, free_port, iam_environ, password_token
from joserfc import jwt
from joserfc.jwk import KeySet

ROOT = Path(__file__).resolve().parent.parent
PROVIDER_DIR = ROOT / "tests" / "oidc-provider"
ADMIN = ("root", secrets.token_urlsafe(16))
PASSWORD = secrets.token_urlsafe(12)
REDIRECT = "http://127.0.0.1:9/callback"
ALIAS = "corp"
CLIENT_ID = "iam-broker"
CLIENT_SECRET = secrets.token_urlsafe(32)


class OidcProvider:
    """``node server.mjs``: an oidc-provider on a free loopback port whose client
    ``iam-broker`` may redirect to ``redirect_uris``."""

    def __init__(self, log: Path, redirect_uris: list[str], **environ: str) -> None:
        assert (PROVIDER_DIR / "node_modules" / "oidc-provider").is_dir(), (
            "run `make test` (it runs `npm ci` in tests/oidc-provider)"
        )
        node = shutil.which("node")
        assert node, "node is required (scripts/system-deps.sh installs it)"
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._output = log.open("w")
        self.process = subprocess.Popen(
            [node, "server.mjs"],
            cwd=PROVIDER_DIR,
            env={
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "PORT": str(self.port),
                "CLIENT_ID": CLIENT_ID,
                "CLIENT_SECRET": CLIENT_SECRET,
                "REDIRECT_URIS": ",".join(redirect_uris),
                **environ,
            },
            stdout=self._output,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while f"listening {self.issuer}" not in log.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"oidc-provider did not start: {self.stop()}")
            time.sleep(0.05)

    def stop(self) -> str:
        self.process.terminate()
        self.process.wait(timeout=10)
        self._output.close()
        return self.log.read_text()


@dataclass
class Realm:
    iam: str
    name: str
    tenant_id: str
    admin: dict[str, str]
    secret: str

    @property
    def issuer(self) -> str:
        return f"{self.iam}/realms/{self.name}"

    def callback(self, alias: str = ALIAS) -> str:
        return f"{self.issuer}/broker/{alias}/endpoint"

    def configure(self, alias: str = ALIAS, **settings: Any) -> httpx.Response:
        return httpx.put(
            f"{self.iam}/api/v1/tenants/{self.tenant_id}/oidc-providers/{alias}",
            json=settings,
            headers=self.admin,
        )

    def users(self) -> dict[str, dict[str, Any]]:
        listed = httpx.get(f"{self.iam}/api/v1/tenants/{self.tenant_id}/users", headers=self.admin)
        assert listed.status_code == 200, listed.text
        return {user["username"]: user for user in listed.json()}


def provider_settings(issuer: str, **overrides: Any) -> dict[str, Any]:
    return {
        "displayName": "Corp SSO",
        "issuer": issuer,
        "clientId": CLIENT_ID,
        "clientSecret": CLIENT_SECRET,
        "scopes": ["openid", "email", "profile", "groups"],
        "claimAttributes": {"email": "email", "name": "name"},
        "roleMappers": [{"claim": "groups", "value": "admins", "roles": ["tenant-admin"]}],
        "firstSignIn": "create",
        **overrides,
    }


def create_realm(iam: str, name: str) -> Realm:
    """The tenant ``name`` (administrator ``boss``) and its first-party client
    ``portal``."""
    root = password_token(iam, "platform", *ADMIN)
    created = httpx.post(
        f"{iam}/api/v1/tenants",
        json={
            "name": name,
            "adminUsername": "boss",
            "adminEmail": f"boss@{name}.test",
            "adminPassword": PASSWORD,
        },
        headers={"Authorization": f"Bearer {root}"},
    )
    assert created.status_code == 201, created.text
    tenant_id = created.json()["tenantId"]
    admin = {"Authorization": f"Bearer {password_token(iam, name, 'boss', PASSWORD)}"}
    portal = httpx.post(
        f"{iam}/api/v1/tenants/{tenant_id}/clients",
        json={
            "clientId": "portal",
            "clientType": "confidential",
            "grantTypes": ["authorization_code", "refresh_token"],
            "redirectUris": [REDIRECT],
            "scopes": ["openid", "profile", "email", "iam-users:read"],
            "firstParty": True,
        },
        headers=admin,
    )
    assert portal.status_code == 201, portal.text
    return Realm(iam, name, tenant_id, admin, portal.json()["clientSecret"])


@dataclass
class World:
    acme: Realm
    globex: Realm
    provider: OidcProvider
    directory: Path


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    directory = tmp_path_factory.mktemp("broker")
    port = free_port()
    iam = Service(
        "iam",
        directory / "iam.log",
        {
            **iam_environ(directory, f"http://127.0.0.1:{port}", ADMIN),
            "SECURITY_SECRETS_FILE": str(directory / "secrets.json"),
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
        },
        port=port,
    )
    provider: OidcProvider | None = None
    try:
        iam.wait_ready()
        acme = create_realm(iam.url, "acme")
        globex = create_realm(iam.url, "globex")
        provider = OidcProvider(directory / "provider.log", [acme.callback(), globex.callback()])
        for realm in (acme, globex):
            configured = realm.configure(**provider_settings(provider.issuer))
            assert configured.status_code == 201, configured.text
        yield World(acme, globex, provider, directory)
    finally:
        if provider is not None:
            provider.stop()
        iam.stop()


def authorize_url(realm: Realm) -> str:
    return str(
        httpx.URL(
            f"{realm.issuer}/authorize",
            params={
                "response_type": "code",
                "client_id": "portal",
                "redirect_uri": REDIRECT,
                "scope": "openid profile email",
                "state": "client-state",
                "nonce": "client-nonce",
            },
        )
    )


def buttons(page: httpx.Response) -> dict[str, str]:
    """The external providers' buttons of a sign-in page: label to URL."""
    found = re.findall(r'<a class="button" href="([^"]+)">Sign in with ([^<]+)</a>', page.text)
    return {unescape(label): unescape(url) for url, label in found}


def query(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def to_provider(browser: httpx.Client, realm: Realm, label: str = "Corp SSO") -> str:
    """The provider's authorization URL the realm's button leads to."""
    page = browser.get(authorize_url(realm))
    assert page.status_code == 200, page.text
    login = browser.get(buttons(page)[label])
    assert login.status_code == 303, login.text
    location: str = login.headers["location"]
    return location


def sign_in_at_provider(browser: httpx.Client, authorization: str, account: str = "ext-ada") -> str:
    """Sign in at the provider's login form; where it sends the browser back."""
    interaction = browser.get(authorization)
    assert interaction.status_code in (302, 303), interaction.text
    form_url = httpx.URL(authorization).join(interaction.headers["location"])
    form = browser.get(form_url)
    assert form.status_code == 200 and 'name="login"' in form.text, form.text
    submitted = browser.post(
        form_url, data={"prompt": "login", "login": account, "password": "any"}
    )
    assert submitted.status_code in (302, 303), submitted.text
    resumed = browser.get(form_url.join(submitted.headers["location"]))
    assert resumed.status_code in (302, 303), resumed.text
    location: str = resumed.headers["location"]
    return location


def redeem(realm: Realm, code: str) -> dict[str, Any]:
    answer = httpx.post(
        f"{realm.issuer}/token",
        data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT},
        auth=("portal", realm.secret),
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_user_signs_in_through_the_external_provider_and_gets_the_mapped_roles(
    world: World,
) -> None:
    acme = world.acme
    with httpx.Client() as browser:
        page = browser.get(authorize_url(acme))
        assert page.status_code == 200, page.text
        assert list(buttons(page)) == ["Corp SSO"]
        login_url = buttons(page)["Corp SSO"]
        assert login_url.startswith(f"{acme.issuer}/broker/{ALIAS}/login?form=")
        login = browser.get(login_url)
        assert login.status_code == 303, login.text
        authorization = login.headers["location"]
        sent = query(authorization)
        assert authorization.startswith(world.provider.issuer + "/auth?")
        assert sent["code_challenge_method"] == "S256"
        assert sent["redirect_uri"] == acme.callback()
        assert sent["state"] and sent["nonce"] and sent["client_id"] == CLIENT_ID
        back = sign_in_at_provider(browser, authorization)
        assert back.startswith(acme.callback() + "?"), back
        answered = browser.get(back)
        assert answered.status_code == 303, answered.text
        location = answered.headers["location"]
        assert location.startswith(REDIRECT + "?")
        code = query(location)
        assert code["state"] == "client-state" and code["iss"] == acme.issuer
        # the IAM session now stands: the next authorization request needs no sign-in
        again = browser.get(authorize_url(acme))
        assert again.status_code == 303 and "code" in query(again.headers["location"])
        # the state was spent: replaying the provider's answer is refused
        replayed = browser.get(back)
        assert replayed.status_code == 400
        assert "state" in replayed.text and "location" not in replayed.headers

    tokens = redeem(acme, code["code"])
    keys = KeySet.import_key_set(httpx.get(f"{acme.issuer}/jwks").json())
    access = jwt.decode(tokens["access_token"], keys).claims
    id_token = jwt.decode(tokens["id_token"], keys).claims
    assert access["iss"] == acme.issuer and access["tenant_id"] == acme.tenant_id
    assert "tenant-admin" in access["roles"]
    assert id_token["nonce"] == "client-nonce"
    assert id_token["preferred_username"] == "ada"
    assert id_token["email"] == "ada@example.com"
    ada = acme.users()["ada"]
    assert ada["attributes"] == {"email": "ada@example.com", "name": "Ada Lovelace"}
    assert "tenant-admin" in ada["roles"]


def test_a_second_sign_in_finds_the_same_user(world: World) -> None:
    globex = world.globex
    codes = []
    for _ in range(2):
        with httpx.Client() as browser:
            back = sign_in_at_provider(browser, to_provider(browser, globex))
            answered = browser.get(back)
            assert answered.status_code == 303, answered.text
            codes.append(query(answered.headers["location"])["code"])
    subjects = {
        jwt.decode(
            redeem(globex, code)["access_token"],
            KeySet.import_key_set(httpx.get(f"{globex.issuer}/jwks").json()),
        ).claims["sub"]
        for code in codes
    }
    assert len(subjects) == 1
    deadline = time.monotonic() + 5
    while "ada" not in globex.users() and time.monotonic() < deadline:
        time.sleep(0.05)  # the listing is a read model: it follows shortly
    assert sorted(globex.users()) == ["ada", "boss"]


def test_the_provider_refusing_is_an_error_page(world: World) -> None:
    acme = world.acme
    with httpx.Client() as browser:
        authorization = to_provider(browser, acme)
        interaction = browser.get(authorization)
        uid_path = interaction.headers["location"]
        aborted = browser.get(httpx.URL(authorization).join(uid_path + "/abort"))
        resumed = browser.get(httpx.URL(authorization).join(aborted.headers["location"]))
        back = resumed.headers["location"]
        assert query(back)["error"] == "access_denied"
        answered = browser.get(back)
    assert answered.status_code == 403
    assert "access_denied" in answered.text or "aborted" in answered.text
    assert "location" not in answered.headers


def test_a_forged_or_foreign_state_is_refused(world: World) -> None:
    acme, globex = world.acme, world.globex
    with httpx.Client() as browser:
        authorization = to_provider(browser, acme)
        forged = browser.get(acme.callback(), params={"code": "x", "state": "forged"})
        assert forged.status_code == 400 and "location" not in forged.headers
        back = sign_in_at_provider(browser, authorization)
        # the provider's answer to acme's login, delivered at globex's endpoint
        foreign = browser.get(globex.callback(), params=query(back))
        assert foreign.status_code == 400 and "location" not in foreign.headers
    with httpx.Client() as other_browser:
        # another browser (no sign-in cookie) cannot finish this browser's login
        with httpx.Client() as browser:
            authorization = to_provider(browser, acme)
            back = sign_in_at_provider(browser, authorization)
        stolen = other_browser.get(back)
        assert stolen.status_code == 400 and "location" not in stolen.headers


def test_an_unknown_or_disabled_provider_is_not_found(world: World) -> None:
    acme = world.acme
    disabled = acme.configure(
        "off", **provider_settings(world.provider.issuer, displayName="Off", enabled=False)
    )
    assert disabled.status_code == 201, disabled.text
    with httpx.Client() as browser:
        page = browser.get(authorize_url(acme))
        assert "Off" not in buttons(page)
        form = parse_qs(urlsplit(buttons(page)["Corp SSO"]).query)["form"][0]
        for alias in ("off", "nobody"):
            answer = browser.get(f"{acme.issuer}/broker/{alias}/login", params={"form": form})
            assert answer.status_code == 404, answer.text
            assert "location" not in answer.headers


def test_an_unreachable_provider_is_a_502_with_the_reason(world: World) -> None:
    acme = world.acme
    stopped = OidcProvider(world.directory / "stopped.log", [acme.callback("gone")])
    configured = acme.configure("gone", **provider_settings(stopped.issuer, displayName="Gone"))
    assert configured.status_code == 201, configured.text
    with httpx.Client() as browser:
        authorization = to_provider(browser, acme, "Gone")
        assert authorization.startswith(stopped.issuer)
        stopped.stop()
        page = browser.get(authorize_url(acme))
        answer = browser.get(buttons(page)["Gone"])
    assert answer.status_code == 502, answer.text
    assert "cannot be reached" in answer.text and "refused" in answer.text.lower()
    assert "location" not in answer.headers


@pytest.mark.parametrize("verified", [True, False])
def test_link_by_email_takes_the_existing_user_only_when_the_provider_verified_it(
    world: World, verified: bool
) -> None:
    acme = world.acme
    alias = "linked" if verified else "unverified"
    username = "boss-elsewhere" if verified else "mallory"
    provider = OidcProvider(
        world.directory / f"{alias}.log",
        [acme.callback(alias)],
        ACCOUNT_SUB=f"sub-{alias}",
        ACCOUNT_USERNAME=username,
        ACCOUNT_EMAIL=f"boss@{acme.name}.test",
        ACCOUNT_EMAIL_VERIFIED=str(verified).lower(),
        ACCOUNT_GROUPS="",
    )
    try:
        configured = acme.configure(
            alias,
            **provider_settings(provider.issuer, displayName=alias, firstSignIn="link-by-email"),
        )
        assert configured.status_code == 201, configured.text
        with httpx.Client() as browser:
            authorization = to_provider(browser, acme, alias)
            back = sign_in_at_provider(browser, authorization, f"sub-{alias}")
            answered = browser.get(back)
        assert answered.status_code == 303, answered.text
    finally:
        provider.stop()
    tokens = redeem(acme, query(answered.headers["location"])["code"])
    keys = KeySet.import_key_set(httpx.get(f"{acme.issuer}/jwks").json())
    subject = jwt.decode(tokens["access_token"], keys).claims["sub"]
    boss = acme.users()["boss"]["userId"]
    assert (subject == boss) is verified
    deadline = time.monotonic() + 5
    while not verified and username not in acme.users() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (username in acme.users()) is not verified
