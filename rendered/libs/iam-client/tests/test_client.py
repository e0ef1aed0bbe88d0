from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import httpx
import pytest
from eaf.security import (
    Decision,
    InvalidTokenError,
    KeyRing,
    TokenIssuer,
    TokenVerifier,
)

from iam_client import (
    AuthenticationError,
    IamClient,
    IamUnavailableError,
    PermissionDeniedError,
    RemoteJwks,
)

ISSUER = "https://iam.test"
AUDIENCE = "licensing-api"


async def test_static_mode_validates_locally(
    static_client: IamClient, token: str
) -> None:
    user = await static_client.validate(token)
    assert (user.id, user.tenant_id, user.username, user.client_id) == (
        "u1",
        "acme",
        "alice",
        "web",
    )
    assert user.roles == {"reader"} and user.token == token
    assert user.permissions == {"user-profile:read", "license:*"}
    assert token not in repr(user)


async def test_invalid_tokens_are_authentication_errors(
    static_client: IamClient, issuer: TokenIssuer
) -> None:
    with pytest.raises(AuthenticationError) as caught:
        await static_client.validate("garbage")
    assert caught.value.reason == "not a signed JWT (compact JWS with three parts)"
    other = issuer.issue(
        subject="u1", client_id="web", tenant_id="acme", audience="billing-api"
    )
    with pytest.raises(AuthenticationError, match="wrong audience"):
        await static_client.validate(other.token)


async def test_tokens_of_the_issuers_realms_are_accepted_and_no_other_issuer(
    static_client: IamClient, key_ring: KeyRing
) -> None:
    def of(issuer: str) -> str:
        return (
            TokenIssuer(key_ring, issuer=issuer, default_audience=AUDIENCE)
            .issue(subject="u1", client_id="portal", tenant_id="acme")
            .token
        )

    user = await static_client.validate(of(f"{ISSUER}/realms/acme"))
    assert user.tenant_id == "acme"
    for other in ("https://evil.test/realms/acme", f"{ISSUER}/realms/a/b"):
        with pytest.raises(AuthenticationError, match="wrong issuer"):
            await static_client.validate(of(other))
    strict = IamClient(
        issuer=ISSUER, audience=AUDIENCE, jwks=key_ring.jwks(), realms=False
    )
    with pytest.raises(AuthenticationError, match="wrong issuer"):
        await strict.validate(of(f"{ISSUER}/realms/acme"))


async def test_permissions_with_wildcards(static_client: IamClient, token: str) -> None:
    user = await static_client.validate(token)
    assert static_client.has_permission(user, "user-profile:read")
    assert static_client.has_permission(user, "license:create")
    assert not static_client.has_permission(user, "user-profile:update")
    static_client.ensure_permission(user, "license:revoke")
    with pytest.raises(
        PermissionDeniedError, match="missing permission user-profile:delete"
    ):
        static_client.ensure_permission(user, "user-profile:delete")
    with pytest.raises(ValueError, match="client.check"):
        static_client.has_permission(user, "license:read", resource={"owner": "u1"})


async def test_jwks_is_fetched_once_and_cached(
    remote_client: IamClient, iam: Any, token: str
) -> None:
    for _ in range(5):
        await remote_client.validate(token)
    assert iam.hits["jwks"] == 1


async def test_a_rotated_key_is_found_by_refreshing_the_jwks(
    remote_client: IamClient,
    iam: Any,
    key_ring: KeyRing,
    issuer: TokenIssuer,
    token: str,
) -> None:
    await remote_client.validate(token)
    key_ring.rotate()
    fresh = issuer.issue(subject="u2", client_id="web", tenant_id="acme").token
    assert (await remote_client.validate(fresh)).id == "u2"
    assert (await remote_client.validate(token)).id == "u1"  # old key still published
    assert iam.hits["jwks"] == 2


def with_kid(token: str, kid: str) -> str:
    head, payload, signature = token.split(".")
    header = json.loads(base64.urlsafe_b64decode(head + "=="))
    forged = base64.urlsafe_b64encode(json.dumps({**header, "kid": kid}).encode())
    return f"{forged.decode().rstrip('=')}.{payload}.{signature}"


async def test_unknown_kids_cannot_hammer_iam(
    iam_http: httpx.AsyncClient, iam: Any, token: str
) -> None:
    now = [0.0]
    keys = RemoteJwks(
        iam_http,
        "http://iam.test/.well-known/jwks.json",
        min_refresh_interval=30,
        clock=lambda: now[0],
    )
    verifier = TokenVerifier(keys, issuer=ISSUER, audience=AUDIENCE)
    await verifier.verify(token)
    for number in range(20):
        with pytest.raises(InvalidTokenError, match="unknown signing key"):
            await verifier.verify(with_kid(token, f"bogus-{number}"))
    assert iam.hits["jwks"] == 2  # the first fetch, and one refresh per 30 s
    now[0] += 29
    with pytest.raises(InvalidTokenError, match="unknown signing key"):
        await verifier.verify(with_kid(token, "bogus"))
    assert iam.hits["jwks"] == 2
    now[0] += 1
    with pytest.raises(InvalidTokenError, match="unknown signing key"):
        await verifier.verify(with_kid(token, "bogus"))
    assert iam.hits["jwks"] == 3


async def test_jwks_is_reloaded_after_max_age(
    iam_http: httpx.AsyncClient, iam: Any, token: str
) -> None:
    now = [0.0]
    keys = RemoteJwks(
        iam_http,
        "http://iam.test/.well-known/jwks.json",
        max_age=600,
        clock=lambda: now[0],
    )
    verifier = TokenVerifier(keys, issuer=ISSUER, audience=AUDIENCE)
    await verifier.verify(token)
    now[0] += 599
    await verifier.verify(token)
    assert iam.hits["jwks"] == 1
    now[0] += 1
    await verifier.verify(token)
    assert iam.hits["jwks"] == 2


async def test_concurrent_first_requests_share_one_fetch(
    remote_client: IamClient, iam: Any, token: str
) -> None:
    users = await asyncio.gather(*(remote_client.validate(token) for _ in range(10)))
    assert {user.id for user in users} == {"u1"} and iam.hits["jwks"] == 1


async def test_iam_down_at_start_fails_closed(token: str) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as http:
        client = IamClient(
            "http://iam.test", issuer=ISSUER, audience=AUDIENCE, http=http
        )
        with pytest.raises(AuthenticationError, match="cannot load JWKS"):
            await client.validate(token)


async def test_revocation_check_uses_introspection(
    remote_client: IamClient, iam: Any, token: str
) -> None:
    assert (await remote_client.validate(token, check_revocation=True)).id == "u1"
    assert iam.requests == [{"token": token, "authorization": f"Bearer {token}"}]
    iam.revoked.add(token)
    assert (await remote_client.validate(token)).id == "u1"  # local check only
    with pytest.raises(AuthenticationError, match="no longer active"):
        await remote_client.validate(token, check_revocation=True)


async def test_introspection_with_client_credentials(
    iam_http: httpx.AsyncClient, iam: Any, token: str
) -> None:
    client = IamClient(
        "http://iam.test",
        issuer=ISSUER,
        audience=AUDIENCE,
        http=iam_http,
        client_id="licensing",
        client_secret="s3cret",
    )
    assert await client.introspect(token) == {"active": True}
    expected = "Basic " + base64.b64encode(b"licensing:s3cret").decode()
    assert iam.requests == [{"token": token, "authorization": expected}]


async def test_authorization_checks_go_to_iam(
    remote_client: IamClient, iam: Any, token: str
) -> None:
    user = await remote_client.validate(token)
    decision = await remote_client.check(
        user, "document:update", resource={"owner": "u1"}, env={"ip": "10.0.0.1"}
    )
    assert decision == Decision(True, "owner")
    assert not await remote_client.check(
        user, "document:update", resource={"owner": "u2"}
    )
    assert iam.requests[0] == {
        "permission": "document:update",
        "resource": {"owner": "u1"},
        "env": {"ip": "10.0.0.1"},
        "authorization": f"Bearer {token}",
    }


async def test_discovery(remote_client: IamClient) -> None:
    assert (await remote_client.discover())["issuer"] == ISSUER


async def test_static_mode_never_calls_iam(
    static_client: IamClient, token: str
) -> None:
    user = await static_client.validate(token)
    with pytest.raises(IamUnavailableError, match="static JWKS mode"):
        await static_client.check(user, "license:read")
    with pytest.raises(AuthenticationError, match="revocation check failed"):
        await static_client.validate(token, check_revocation=True)


def test_configuration_mistakes_are_refused(key_ring: KeyRing) -> None:
    with pytest.raises(ValueError, match="either base_url"):
        IamClient(issuer=ISSUER, audience=AUDIENCE)
    with pytest.raises(ValueError, match="either base_url"):
        IamClient(
            "http://iam.test", issuer=ISSUER, audience=AUDIENCE, jwks=key_ring.jwks()
        )
    with pytest.raises(ValueError, match="go together"):
        IamClient("http://iam.test", issuer=ISSUER, audience=AUDIENCE, client_id="x")


async def test_the_client_closes_the_http_client_it_made() -> None:
    async with IamClient("http://iam.test", issuer=ISSUER, audience=AUDIENCE) as client:
        http = client._http
    assert http.is_closed
