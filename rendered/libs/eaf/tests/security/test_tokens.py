"""Every way an access token can be wrong is rejected, each with its own reason."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

import pytest
from joserfc.jwk import ECKey, OKPKey
from joserfc.jws import JWSRegistry

from eaf.security import (
    InvalidTokenError,
    KeyRing,
    KeyRingJwks,
    PublicKeys,
    StaticJwks,
    TokenIssuer,
    TokenVerifier,
)
from eaf.security.testing import FakeClock

ISSUER = "https://iam.example.test"
AUDIENCE = "licensing-api"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def segment(value: dict[str, Any]) -> str:
    return b64(json.dumps(value).encode())


def signed(header: dict[str, Any], claims: dict[str, Any], key: ECKey | OKPKey) -> str:
    signing_input = f"{segment(header)}.{segment(claims)}"
    signature = JWSRegistry.algorithms[header["alg"]].sign(signing_input.encode(), key)
    return f"{signing_input}.{b64(signature)}"


@pytest.fixture
def claims(issuer: TokenIssuer) -> dict[str, Any]:
    """Valid claims, as the issuer makes them."""
    return issuer.issue(subject="u1", client_id="web", tenant_id="acme").claims


@pytest.fixture
def header(key_ring: KeyRing) -> dict[str, Any]:
    return {"alg": "ES256", "typ": "at+jwt", "kid": key_ring.active.kid}


@pytest.fixture
def sign(key_ring: KeyRing) -> Callable[[dict[str, Any], dict[str, Any]], str]:
    return lambda header, claims: signed(header, claims, key_ring.active.key)


async def rejected(verifier: TokenVerifier, token: str) -> str:
    with pytest.raises(InvalidTokenError) as caught:
        await verifier.verify(token)
    return caught.value.reason


async def test_a_valid_token_gives_its_claims(
    issuer: TokenIssuer, verifier: TokenVerifier
) -> None:
    issued = issuer.issue(
        subject="u1",
        client_id="web",
        tenant_id="acme",
        roles=["admin", "auditor"],
        permissions=["license:*", "user-profile:read"],
        scope=["openid", "licenses"],
        username="alice",
        email="alice@acme.test",
    )
    header = json.loads(base64.urlsafe_b64decode(issued.token.split(".")[0] + "=="))
    assert header == {"alg": "ES256", "typ": "at+jwt", "kid": header["kid"]}
    claims = await verifier.verify(issued.token)
    assert claims.subject == "u1"
    assert claims.tenant_id == "acme"
    assert claims.client_id == "web"
    assert claims.roles == {"admin", "auditor"}
    assert claims.permissions == {"license:*", "user-profile:read"}
    assert claims.scope == {"openid", "licenses"}
    assert claims.username == "alice" and claims.email == "alice@acme.test"
    assert claims.issuer == ISSUER and claims.audience == (AUDIENCE,)
    assert claims.exp - claims.iat == 900 == issued.expires_in
    assert claims.jti == issued.claims["jti"] and not claims.platform
    assert claims.raw["nbf"] == claims.iat


def test_every_token_has_a_new_jti(issuer: TokenIssuer) -> None:
    jtis = {
        issuer.issue(subject="u", client_id="c", tenant_id="t").claims["jti"]
        for _ in range(50)
    }
    assert len(jtis) == 50


async def test_alg_none_is_rejected(
    verifier: TokenVerifier, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    token = f"{segment({**header, 'alg': 'none'})}.{segment(claims)}."
    assert await rejected(verifier, token) == "algorithm 'none' is not allowed"


async def test_hs256_signed_with_the_public_key_is_rejected(
    verifier: TokenVerifier,
    key_ring: KeyRing,
    claims: dict[str, Any],
    header: dict[str, Any],
) -> None:
    """The classic key confusion: the public key (known to everyone) as HMAC secret."""
    public = key_ring.jwks()["keys"][0]
    for secret in (
        json.dumps(public).encode(),
        ECKey.import_key(public).as_pem(private=False),
    ):
        signing_input = f"{segment({**header, 'alg': 'HS256'})}.{segment(claims)}"
        mac = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
        token = f"{signing_input}.{b64(mac)}"
        assert await rejected(verifier, token) == "algorithm 'HS256' is not allowed"


def test_symmetric_algorithms_cannot_be_configured(key_ring: KeyRing) -> None:
    with pytest.raises(ValueError, match="HS256"):
        TokenVerifier(
            StaticJwks(key_ring.jwks()),
            issuer=ISSUER,
            audience=AUDIENCE,
            algorithms=["ES256", "HS256"],
        )


async def test_missing_kid_is_rejected(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    del header["kid"]
    assert await rejected(verifier, sign(header, claims)) == "token has no kid"


class CountingJwks:
    """A provider that remembers how often it was asked to refresh."""

    def __init__(self, jwks: dict[str, Any]) -> None:
        self.keys_ = PublicKeys.from_jwks(jwks)
        self.refreshes = 0

    async def keys(self, *, refresh: bool = False) -> PublicKeys:
        self.refreshes += refresh
        return self.keys_


async def test_unknown_kid_is_rejected_after_one_refresh(
    key_ring: KeyRing,
    clock: FakeClock,
    sign: Any,
    claims: dict[str, Any],
    header: dict[str, Any],
) -> None:
    provider = CountingJwks(key_ring.jwks())
    verifier = TokenVerifier(
        provider, issuer=ISSUER, audience=AUDIENCE, clock=clock.time
    )
    token = sign({**header, "kid": "no-such-key"}, claims)
    assert await rejected(verifier, token) == "unknown signing key 'no-such-key'"
    assert provider.refreshes == 1
    await verifier.verify(sign(header, claims))
    assert provider.refreshes == 1


async def test_a_key_published_after_start_is_found_by_refreshing(
    key_ring: KeyRing, issuer: TokenIssuer, verifier: TokenVerifier
) -> None:
    await verifier.verify(issuer.issue(subject="u", client_id="c", tenant_id="t").token)
    key_ring.rotate()
    claims = await verifier.verify(
        issuer.issue(subject="u", client_id="c", tenant_id="t").token
    )
    assert claims.subject == "u"


@pytest.mark.parametrize("typ", ["JWT", "at+jwe", None])
async def test_other_token_types_are_rejected(
    verifier: TokenVerifier,
    sign: Any,
    claims: dict[str, Any],
    header: dict[str, Any],
    typ: str | None,
) -> None:
    header = (
        {**header, "typ": typ}
        if typ
        else {k: v for k, v in header.items() if k != "typ"}
    )
    assert (
        await rejected(verifier, sign(header, claims))
        == f"token type {typ!r} is not at+jwt"
    )


async def test_media_type_form_of_at_jwt_is_accepted(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    token = sign({**header, "typ": "application/AT+JWT"}, claims)
    assert (await verifier.verify(token)).subject == "u1"


async def test_a_signature_by_another_key_is_rejected(
    verifier: TokenVerifier, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    stranger = ECKey.generate_key("P-256")
    assert await rejected(verifier, signed(header, claims, stranger)) == "bad signature"


async def test_a_tampered_payload_is_rejected(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    head, _, signature = sign(header, claims).split(".")
    forged = segment({**claims, "permissions": ["*"]})
    assert await rejected(verifier, f"{head}.{forged}.{signature}") == "bad signature"


async def test_a_tampered_header_is_rejected(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    _, payload, signature = sign(header, claims).split(".")
    forged = segment({**header, "typ": "AT+JWT"})
    assert (
        await rejected(verifier, f"{forged}.{payload}.{signature}") == "bad signature"
    )


async def test_an_expired_token_is_rejected_after_the_leeway(
    issuer: TokenIssuer, verifier: TokenVerifier, clock: FakeClock
) -> None:
    token = issuer.issue(subject="u1", client_id="web", tenant_id="acme").token
    clock.advance(900 + 29)
    assert (await verifier.verify(token)).subject == "u1"
    clock.advance(1)
    assert await rejected(verifier, token) == "token expired"


async def test_a_token_not_yet_valid_is_rejected(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    assert (
        await verifier.verify(sign(header, {**claims, "nbf": claims["nbf"] + 30}))
    ).subject
    later = {**claims, "nbf": claims["nbf"] + 31}
    assert await rejected(verifier, sign(header, later)) == "token not yet valid"


async def test_a_token_issued_in_the_future_is_rejected(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    future = {**claims, "iat": claims["iat"] + 120}
    assert (
        await rejected(verifier, sign(header, future)) == "token issued in the future"
    )


async def test_a_wrong_issuer_is_rejected(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    token = sign(header, {**claims, "iss": "https://evil.test"})
    assert await rejected(verifier, token) == "wrong issuer 'https://evil.test'"


async def test_a_wrong_audience_is_rejected(
    verifier: TokenVerifier, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    assert (
        await rejected(verifier, sign(header, {**claims, "aud": "billing-api"}))
        == "wrong audience 'billing-api'"
    )
    both = sign(header, {**claims, "aud": ["billing-api", AUDIENCE]})
    assert (await verifier.verify(both)).audience == ("billing-api", AUDIENCE)


@pytest.mark.parametrize(
    "claim", ["iss", "aud", "sub", "exp", "iat", "jti", "client_id", "tenant_id"]
)
async def test_a_missing_required_claim_is_rejected(
    verifier: TokenVerifier,
    sign: Any,
    claims: dict[str, Any],
    header: dict[str, Any],
    claim: str,
) -> None:
    del claims[claim]
    assert await rejected(verifier, sign(header, claims)) == f"missing claim {claim!r}"


@pytest.mark.parametrize(
    ("claim", "value", "reason"),
    [
        ("exp", "tomorrow", "claim 'exp' must be a NumericDate"),
        ("exp", True, "claim 'exp' must be a NumericDate"),
        ("sub", "", "claim 'sub' must be a non-empty string"),
        ("tenant_id", 42, "claim 'tenant_id' must be a non-empty string"),
        ("roles", "admin", "claim 'roles' must be a list of strings"),
        ("permissions", [1], "claim 'permissions' must be a list of strings"),
        ("scope", ["openid"], "claim 'scope' must be a space separated string"),
        ("aud", [1], "claim 'aud' must be a string or a list of strings"),
        ("platform", "yes", "claim 'platform' must be a boolean"),
    ],
)
async def test_a_malformed_claim_is_rejected(
    verifier: TokenVerifier,
    sign: Any,
    claims: dict[str, Any],
    header: dict[str, Any],
    claim: str,
    value: Any,
    reason: str,
) -> None:
    assert await rejected(verifier, sign(header, {**claims, claim: value})) == reason


async def test_platform_tokens_have_no_tenant(
    issuer: TokenIssuer, verifier: TokenVerifier, sign: Any, header: dict[str, Any]
) -> None:
    issued = issuer.issue(
        subject="operator", client_id="console", tenant_id=None, platform=True
    )
    claims = await verifier.verify(issued.token)
    assert claims.platform and claims.tenant_id is None
    both = sign(header, {**issued.claims, "tenant_id": "acme"})
    assert (
        await rejected(verifier, both) == "a platform token must not carry a tenant_id"
    )
    with pytest.raises(ValueError, match="either a tenant_id or platform"):
        issuer.issue(
            subject="operator", client_id="console", tenant_id="acme", platform=True
        )


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("", "no token"),
        ("not-a-token", "not a signed JWT (compact JWS with three parts)"),
        ("a.b.c.d.e", "not a signed JWT (compact JWS with three parts)"),
        ("!!!.e30.c2ln", "malformed token header"),
        (f"{b64(b'[1]')}.e30.c2ln", "token header is not a JSON object"),
        ("x" * 20_000, "token too long"),
    ],
)
async def test_garbage_is_rejected(
    verifier: TokenVerifier, token: str, reason: str
) -> None:
    assert await rejected(verifier, token) == reason


async def test_a_payload_that_is_no_json_object_is_rejected(
    verifier: TokenVerifier, key_ring: KeyRing, header: dict[str, Any]
) -> None:
    signing_input = f"{segment(header)}.{b64(b'[]')}"
    signature = JWSRegistry.algorithms["ES256"].sign(
        signing_input.encode(), key_ring.active.key
    )
    token = f"{signing_input}.{b64(signature)}"
    assert await rejected(verifier, token) == "token payload is not a JSON object"


async def test_unexpected_failures_fail_closed(
    key_ring: KeyRing, sign: Any, claims: dict[str, Any], header: dict[str, Any]
) -> None:
    class BrokenJwks:
        async def keys(self, *, refresh: bool = False) -> PublicKeys:
            raise ConnectionError("iam is down")

    verifier = TokenVerifier(BrokenJwks(), issuer=ISSUER, audience=AUDIENCE)
    reason = await rejected(verifier, sign(header, claims))
    assert reason.startswith("token could not be verified") and "iam is down" in reason


async def test_ed25519_keys_verify_and_cannot_be_used_with_another_algorithm(
    clock: FakeClock, claims: dict[str, Any]
) -> None:
    okp = OKPKey.generate_key("Ed25519")
    jwks = {"keys": [okp.as_dict(private=False, kid="ed", use="sig")]}
    verifier = TokenVerifier(
        StaticJwks(jwks), issuer=ISSUER, audience=AUDIENCE, clock=clock.time
    )
    header = {"alg": "EdDSA", "typ": "at+jwt", "kid": "ed"}
    assert (await verifier.verify(signed(header, claims, okp))).subject == "u1"
    mismatched = signed({**header, "alg": "ES256"}, claims, ECKey.generate_key("P-256"))
    assert (
        await rejected(verifier, mismatched)
        == "algorithm 'ES256' does not match key 'ed'"
    )


def test_symmetric_and_unusable_jwks_entries_are_skipped(key_ring: KeyRing) -> None:
    jwks = key_ring.jwks()
    jwks["keys"] += [
        {"kty": "oct", "k": b64(b"secret"), "kid": "hmac"},
        {"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA", "kid": "broken"},
        {**jwks["keys"][0], "kid": "encryption", "use": "enc"},
        {**jwks["keys"][0], "kid": None},
        "not a key",
    ]
    assert set(PublicKeys.from_jwks(jwks).by_kid) == {key_ring.active.kid}


async def test_realm_issuers_are_accepted_only_when_asked_and_only_for_tenant_tokens(
    key_ring: KeyRing,
    clock: FakeClock,
    verifier: TokenVerifier,
    sign: Any,
    claims: dict[str, Any],
    header: dict[str, Any],
) -> None:
    realms = TokenVerifier(
        KeyRingJwks(key_ring, clock=clock.time),
        issuer=ISSUER,
        audience=AUDIENCE,
        clock=clock.time,
        realms=True,
    )
    of_acme = sign(header, {**claims, "iss": f"{ISSUER}/realms/acme"})
    assert (await realms.verify(of_acme)).issuer == f"{ISSUER}/realms/acme"
    assert (await realms.verify(sign(header, claims))).issuer == ISSUER
    assert await rejected(verifier, of_acme) == f"wrong issuer '{ISSUER}/realms/acme'"
    for wrong in (
        f"{ISSUER}/realms/",
        f"{ISSUER}/realms/acme/x",
        f"{ISSUER}/realms/acme?x",
        f"{ISSUER}/realm/acme",
        f"{ISSUER}x/realms/acme",
        "https://evil.test/realms/acme",
    ):
        token = sign(header, {**claims, "iss": wrong})
        assert await rejected(realms, token) == f"wrong issuer {wrong!r}"
    platform = {key: value for key, value in claims.items() if key != "tenant_id"}
    platform_of_realm = sign(
        header, {**platform, "platform": True, "iss": f"{ISSUER}/realms/acme"}
    )
    assert (
        await rejected(realms, platform_of_realm)
        == f"wrong issuer '{ISSUER}/realms/acme'"
    )


async def test_an_issuer_at_another_url_signs_with_the_same_keys(
    issuer: TokenIssuer, key_ring: KeyRing, clock: FakeClock
) -> None:
    realm = "https://iam.example.test/realms/acme"
    at_realm = issuer.at(realm)
    token = at_realm.issue(subject="alice", client_id="app", tenant_id="t1")
    verifier = TokenVerifier(
        KeyRingJwks(key_ring, clock=clock.time),
        issuer=realm,
        audience=AUDIENCE,
        clock=clock.time,
    )

    claims = await verifier.verify(token.token)

    assert claims.issuer == realm
    assert tuple(claims.audience) == (AUDIENCE,)
    assert token.claims["exp"] - token.claims["iat"] == 15 * 60
    assert issuer.at(realm) is at_realm
    assert issuer.at(ISSUER) is issuer
    assert (issuer.issuer, at_realm.issuer) == (ISSUER, realm)
