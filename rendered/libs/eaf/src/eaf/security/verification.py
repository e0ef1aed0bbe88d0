"""Verification of RFC 9068 access tokens; every failure is an :class:`InvalidTokenError`."""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Any

from eaf.security.jwks import ASYMMETRIC_ALGORITHMS, VerificationKey
from eaf.security.ports import JwksProvider
from eaf.security.tokens import AccessClaims, InvalidTokenError

MAX_TOKEN_LENGTH = 16_384
VERIFIED_CACHE_SIZE = 4096
"""Tokens whose verified signature is remembered (least recently used go first)."""
_ACCESS_TOKEN_TYPES = frozenset({"at+jwt", "application/at+jwt"})
# One path segment (RFC 3986 pchar): a realm's issuer is ``{issuer}/realms/{realm}``.
_REALM = re.compile(r"[A-Za-z0-9._~%!$&'()*+,;=:@-]{1,300}")


class TokenVerifier:
    """Checks signature, type, issuer, audience, lifetime and required claims of a token.

    It fails closed: anything unexpected while verifying is a rejection too. Keys come
    only from the provider, never from the token (``jwk``, ``jku`` and ``x5u`` headers are
    ignored), and only asymmetric algorithms are accepted, so ``alg: none`` and HMAC
    tokens signed with the public key as secret are rejected before any key is used.

    Required claims: ``iss``, ``aud``, ``sub``, ``exp``, ``iat``, ``jti``, ``client_id``,
    and ``tenant_id``, except in a platform token (``platform: true``), which must not
    carry one.

    With ``realms``, the issuer's realms are accepted too: ``iss`` may be
    ``{issuer}/realms/{realm}`` (one path segment), in tenant tokens only.
    """

    def __init__(
        self,
        keys: JwksProvider,
        *,
        issuer: str,
        audience: str | Collection[str],
        leeway: int = 30,
        algorithms: Collection[str] = ASYMMETRIC_ALGORITHMS,
        clock: Callable[[], float] = time.time,
        realms: bool = False,
    ) -> None:
        unsafe = set(algorithms) - ASYMMETRIC_ALGORITHMS
        if unsafe:
            raise ValueError(f"not asymmetric signature algorithms: {sorted(unsafe)}")
        self._keys = keys
        self._issuer = issuer
        self._realm_prefix = issuer.rstrip("/") + "/realms/" if realms else None
        self._audiences = frozenset(
            [audience] if isinstance(audience, str) else audience
        )
        self._leeway = leeway
        self._algorithms = frozenset(algorithms)
        self._clock = clock
        # Tokens whose signature verified, with the key that verified it and their
        # payload: the same token again (a session's next request) skips the signature
        # and decoding, never the claim checks (lifetime, issuer, audience...), and only
        # while that very key is still one the provider serves.
        self._verified: OrderedDict[str, tuple[VerificationKey, dict[str, Any]]] = (
            OrderedDict()
        )

    async def verify(self, token: str) -> AccessClaims:
        """The claims of ``token``, or :class:`InvalidTokenError` naming the problem."""
        try:
            return await self._verify(token)
        except InvalidTokenError:
            raise
        except Exception as error:
            raise InvalidTokenError(
                f"token could not be verified ({error!r})"
            ) from error

    async def _verify(self, token: str) -> AccessClaims:
        if not isinstance(token, str) or not token:
            raise InvalidTokenError("no token")
        cached = self._verified.get(token)
        if cached is not None:
            key, payload = cached
            if (await self._keys.keys()).get(key.kid) is key:
                self._verified.move_to_end(token)
                return self._claims(dict(payload))
            del self._verified[token]
        if len(token) > MAX_TOKEN_LENGTH:
            raise InvalidTokenError("token too long")
        segments = token.split(".")
        if len(segments) != 3:
            raise InvalidTokenError("not a signed JWT (compact JWS with three parts)")
        header_segment, payload_segment, signature_segment = segments
        header = _json_object(header_segment, "header")

        algorithm = header.get("alg")
        if algorithm not in self._algorithms:
            raise InvalidTokenError(f"algorithm {algorithm!r} is not allowed")
        if "crit" in header:
            raise InvalidTokenError("unsupported critical header parameters")
        token_type = header.get("typ")
        if (
            not isinstance(token_type, str)
            or token_type.lower() not in _ACCESS_TOKEN_TYPES
        ):
            raise InvalidTokenError(f"token type {token_type!r} is not at+jwt")
        kid = header.get("kid")
        if not isinstance(kid, str) or not kid:
            raise InvalidTokenError("token has no kid")

        key = await self._key(kid)
        if algorithm not in key.algorithms:
            raise InvalidTokenError(
                f"algorithm {algorithm!r} does not match key {kid!r}"
            )
        signing_input = f"{header_segment}.{payload_segment}".encode("ascii")
        if not key.verify(
            algorithm, signing_input, _decode(signature_segment, "signature")
        ):
            raise InvalidTokenError("bad signature")
        payload = _json_object(payload_segment, "payload")
        claims = self._claims(dict(payload))
        self._verified[token] = (key, payload)
        if len(self._verified) > VERIFIED_CACHE_SIZE:
            self._verified.popitem(last=False)
        return claims

    async def _key(self, kid: str) -> VerificationKey:
        key = (await self._keys.keys()).get(kid)
        if key is None:
            key = (await self._keys.keys(refresh=True)).get(kid)
        if key is None:
            raise InvalidTokenError(f"unknown signing key {kid!r}")
        return key

    def _claims(self, claims: dict[str, Any]) -> AccessClaims:
        for name in ("iss", "aud", "sub", "exp", "iat", "jti", "client_id"):
            if claims.get(name) is None:
                raise InvalidTokenError(f"missing claim {name!r}")
        now = self._clock()
        if claims["iss"] != self._issuer and not self._of_a_realm(claims):
            raise InvalidTokenError(f"wrong issuer {claims['iss']!r}")
        audience = _audience(claims["aud"])
        if self._audiences.isdisjoint(audience):
            raise InvalidTokenError(f"wrong audience {claims['aud']!r}")
        if _time(claims, "exp") <= now - self._leeway:
            raise InvalidTokenError("token expired")
        if _time(claims, "iat") > now + self._leeway:
            raise InvalidTokenError("token issued in the future")
        if "nbf" in claims and _time(claims, "nbf") > now + self._leeway:
            raise InvalidTokenError("token not yet valid")

        platform = claims.get("platform", False)
        if not isinstance(platform, bool):
            raise InvalidTokenError("claim 'platform' must be a boolean")
        tenant_id = claims.get("tenant_id")
        if platform:
            if tenant_id is not None:
                raise InvalidTokenError("a platform token must not carry a tenant_id")
        elif tenant_id is None:
            raise InvalidTokenError("missing claim 'tenant_id'")
        scope = claims.get("scope", "")
        if not isinstance(scope, str):
            raise InvalidTokenError("claim 'scope' must be a space separated string")
        return AccessClaims(
            subject=_string(claims, "sub"),
            tenant_id=None if platform else _string(claims, "tenant_id"),
            client_id=_string(claims, "client_id"),
            roles=_strings(claims, "roles"),
            permissions=_strings(claims, "permissions"),
            scope=frozenset(scope.split()),
            jti=_string(claims, "jti"),
            exp=int(claims["exp"]),
            iat=int(claims["iat"]),
            issuer=claims["iss"],
            audience=audience,
            username=_optional_string(claims, "username"),
            email=_optional_string(claims, "email"),
            platform=platform,
            raw=claims,
        )

    def _of_a_realm(self, claims: dict[str, Any]) -> bool:
        """Whether a tenant token's ``iss`` is one of the issuer's realms."""
        issuer, prefix = claims["iss"], self._realm_prefix
        return (
            prefix is not None
            and isinstance(issuer, str)
            and issuer.startswith(prefix)
            and _REALM.fullmatch(issuer[len(prefix) :]) is not None
            and claims.get("platform") is not True
        )


def _decode(segment: str, part: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (binascii.Error, ValueError) as error:
        raise InvalidTokenError(f"malformed token {part}") from error


def _json_object(segment: str, part: str) -> dict[str, Any]:
    try:
        value = json.loads(_decode(segment, part))
    except ValueError as error:
        raise InvalidTokenError(f"malformed token {part}") from error
    if not isinstance(value, dict):
        raise InvalidTokenError(f"token {part} is not a JSON object")
    return value


def _audience(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise InvalidTokenError("claim 'aud' must be a string or a list of strings")


def _time(claims: dict[str, Any], name: str) -> float:
    value = claims[name]
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
    ):
        raise InvalidTokenError(f"claim {name!r} must be a NumericDate")
    return value


def _string(claims: dict[str, Any], name: str) -> str:
    value = claims.get(name)
    if not isinstance(value, str) or not value:
        raise InvalidTokenError(f"claim {name!r} must be a non-empty string")
    return value


def _optional_string(claims: dict[str, Any], name: str) -> str | None:
    return None if claims.get(name) is None else _string(claims, name)


def _strings(claims: dict[str, Any], name: str) -> frozenset[str]:
    value = claims.get(name, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidTokenError(f"claim {name!r} must be a list of strings")
    return frozenset(value)
