"""Public verification keys imported once from a JWKS, and the static providers of them."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from joserfc.errors import JoseError
from joserfc.jwk import ECKey, OKPKey
from joserfc.jws import JWSRegistry

from eaf.security.keys import KeyRing

logger = logging.getLogger(__name__)

#: Only asymmetric signatures: with a symmetric one the public key would be the secret.
ASYMMETRIC_ALGORITHMS = frozenset({"ES256", "EdDSA", "Ed25519"})

_CURVE_ALGORITHMS = {
    ("EC", "P-256"): frozenset({"ES256"}),
    ("OKP", "Ed25519"): frozenset({"EdDSA", "Ed25519"}),
}


@dataclass(frozen=True, slots=True)
class VerificationKey:
    """A public key and the algorithms it may verify."""

    kid: str
    key: ECKey | OKPKey
    algorithms: frozenset[str]

    def verify(self, algorithm: str, signing_input: bytes, signature: bytes) -> bool:
        """Whether ``signature`` over ``signing_input`` is valid for this key."""
        if algorithm not in self.algorithms:
            return False
        return JWSRegistry.algorithms[algorithm].verify(
            signing_input, signature, self.key
        )


@dataclass(frozen=True, slots=True)
class PublicKeys:
    """The usable keys of one JWKS document, by kid."""

    by_kid: Mapping[str, VerificationKey]

    def get(self, kid: str) -> VerificationKey | None:
        return self.by_kid.get(kid)

    @classmethod
    def from_jwks(cls, jwks: Mapping[str, Any]) -> PublicKeys:
        """Import the signing keys of ``jwks``.

        Keys without a kid, for another use than ``sig``, of a symmetric or unsupported
        type are skipped (and logged): they can never verify a token.
        """
        by_kid: dict[str, VerificationKey] = {}
        entries = jwks.get("keys")
        if not isinstance(entries, list):
            raise ValueError("a JWKS needs a 'keys' list")
        for entry in entries:
            imported = _import(entry)
            if imported is not None:
                by_kid[imported.kid] = imported
        return cls(by_kid)


def _import(entry: object) -> VerificationKey | None:
    if not isinstance(entry, dict):
        logger.warning("skipping a JWKS entry that is not an object")
        return None
    kid = entry.get("kid")
    algorithms = _CURVE_ALGORITHMS.get((str(entry.get("kty")), str(entry.get("crv"))))
    if not isinstance(kid, str) or not kid or algorithms is None:
        logger.warning("skipping JWK %r: no kid or not an EC P-256/Ed25519 key", kid)
        return None
    if entry.get("use", "sig") != "sig":
        return None
    if isinstance(entry.get("alg"), str):
        algorithms = algorithms & {entry["alg"]}
    public = {name: value for name, value in entry.items() if name != "d"}
    key_type = ECKey if entry["kty"] == "EC" else OKPKey
    try:
        key = key_type.import_key(public)
    except (JoseError, ValueError, TypeError) as error:
        logger.warning("skipping JWK %r: %s", kid, error)
        return None
    return VerificationKey(kid, key, algorithms & ASYMMETRIC_ALGORITHMS)


class StaticJwks:
    """A fixed JWKS document (tests, offline use, keys from configuration)."""

    def __init__(self, jwks: Mapping[str, Any]) -> None:
        self._keys = PublicKeys.from_jwks(jwks)

    async def keys(self, *, refresh: bool = False) -> PublicKeys:
        return self._keys


class KeyRingJwks:
    """The published keys of a :class:`KeyRing` in the same process (the issuer's side).

    The imported keys are reused until the ring rotates, ``max_age`` seconds pass (so
    retired keys drop out when their window closes), or a refresh is asked for.
    """

    def __init__(
        self,
        key_ring: KeyRing,
        *,
        max_age: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ring = key_ring
        self._max_age = max_age
        self._clock = clock
        self._cached: tuple[int, float, PublicKeys] | None = None

    async def keys(self, *, refresh: bool = False) -> PublicKeys:
        now = self._clock()
        cached = self._cached
        if (
            refresh
            or cached is None
            or cached[0] != self._ring.version
            or now - cached[1] >= self._max_age
        ):
            cached = (self._ring.version, now, PublicKeys.from_jwks(self._ring.jwks()))
            self._cached = cached
        return cached[2]
