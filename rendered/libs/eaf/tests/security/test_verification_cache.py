"""A token seen before skips its signature check, never its claim checks, and only while
the key that verified it is still served: the verifier keeps failing closed."""

from __future__ import annotations

from typing import Any

import pytest

from eaf.security import (
    InvalidTokenError,
    KeyRing,
    StaticJwks,
    TokenIssuer,
    TokenVerifier,
)
from eaf.security.testing import FakeClock

from .conftest import AUDIENCE, ISSUER


class SwappableJwks:
    """A key provider whose published keys the test replaces."""

    def __init__(self, jwks: dict[str, Any]) -> None:
        self.current = StaticJwks(jwks)

    async def keys(self, *, refresh: bool = False) -> Any:
        return await self.current.keys()


async def test_a_token_seen_before_is_still_checked_for_expiry(
    issuer: TokenIssuer, verifier: TokenVerifier, clock: FakeClock
) -> None:
    token = issuer.issue(subject="u1", client_id="web", tenant_id="acme").token
    first = await verifier.verify(token)
    again = await verifier.verify(token)
    assert again == first
    clock.advance(15 * 60 + 31)  # past exp and the leeway
    with pytest.raises(InvalidTokenError, match="expired"):
        await verifier.verify(token)


async def test_a_token_seen_before_is_refused_once_its_key_is_withdrawn(
    clock: FakeClock,
) -> None:
    ring, other = KeyRing.generate(clock=clock.datetime), KeyRing.generate()
    jwks = SwappableJwks(ring.jwks())
    verifier = TokenVerifier(jwks, issuer=ISSUER, audience=AUDIENCE, clock=clock.time)
    issuer = TokenIssuer(
        ring, issuer=ISSUER, default_audience=AUDIENCE, clock=clock.time
    )
    token = issuer.issue(subject="u1", client_id="web", tenant_id="acme").token
    assert (await verifier.verify(token)).subject == "u1"
    jwks.current = StaticJwks(other.jwks())  # the signing key is no longer published
    with pytest.raises(InvalidTokenError, match="unknown signing key"):
        await verifier.verify(token)


async def test_a_changed_token_is_never_taken_for_one_seen_before(
    issuer: TokenIssuer, verifier: TokenVerifier
) -> None:
    token = issuer.issue(subject="u1", client_id="web", tenant_id="acme").token
    await verifier.verify(token)
    header, payload, signature = token.split(".")
    forged = ".".join(
        [
            header,
            payload,
            signature[:-4] + ("AAAA" if signature[-4:] != "AAAA" else "BBBB"),
        ]
    )
    with pytest.raises(InvalidTokenError):
        await verifier.verify(forged)
