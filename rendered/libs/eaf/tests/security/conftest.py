"""A key ring, an issuer and a verifier on one fake clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from eaf.security import KeyRing, KeyRingJwks, TokenIssuer, TokenVerifier
from eaf.security.testing import FakeClock

ISSUER = "https://iam.example.test"
AUDIENCE = "licensing-api"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def key_ring(clock: FakeClock) -> KeyRing:
    return KeyRing.generate(max_token_lifetime=timedelta(hours=1), clock=clock.datetime)


@pytest.fixture
def issuer(key_ring: KeyRing, clock: FakeClock) -> TokenIssuer:
    return TokenIssuer(
        key_ring,
        issuer=ISSUER,
        default_audience=AUDIENCE,
        access_ttl=timedelta(minutes=15),
        clock=clock.time,
    )


@pytest.fixture
def verifier(key_ring: KeyRing, clock: FakeClock) -> TokenVerifier:
    return TokenVerifier(
        KeyRingJwks(key_ring, clock=clock.time),
        issuer=ISSUER,
        audience=AUDIENCE,
        leeway=30,
        clock=clock.time,
    )
