"""The checks of an ID token a broker receives from an external OpenID provider
(OpenID Connect Core §3.1.3.7)."""

import hmac
import time
from typing import Any

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
from joserfc.jwt import JWTClaimsRegistry

CLOCK_LEEWAY_SECONDS = 60
#: Asymmetric signatures only: never ``none``, never a MAC keyed by the client secret.
SIGNING_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256",
                      "ES384", "ES512", "EdDSA")  # fmt: skip


class InvalidIdTokenError(Exception):
    """An ID token that must not be believed: its reason."""


def verify_id_token(
    id_token: str,
    jwks: dict[str, Any],
    *,
    issuer: str,
    client_id: str,
    nonce: str,
    algorithms: list[str],
) -> dict[str, Any]:
    """The claims of an ID token (OpenID Connect Core §3.1.3.7): signed by one of the
    provider's keys with an asymmetric algorithm, for this client, this login's nonce,
    not expired; :class:`InvalidIdTokenError` otherwise."""
    allowed = [alg for alg in algorithms if alg in SIGNING_ALGORITHMS]
    try:
        keys = KeySet.import_key_set(jwks)  # type: ignore[arg-type]
        token = jwt.decode(id_token, keys, algorithms=allowed or ["RS256"])
    except (JoseError, ValueError, TypeError) as error:
        raise InvalidIdTokenError(
            f"the ID token's signature is not valid: {error}"
        ) from None
    claims: dict[str, Any] = dict(token.claims)
    registry = JWTClaimsRegistry(
        leeway=CLOCK_LEEWAY_SECONDS,
        iss={"essential": True, "value": issuer},
        sub={"essential": True},
        aud={"essential": True, "value": client_id},
        exp={"essential": True},
        iat={"essential": True},
    )
    try:
        registry.validate(claims)
    except JoseError as error:
        raise InvalidIdTokenError(f"the ID token is not valid: {error}") from None
    audience = claims["aud"]
    if (
        isinstance(audience, list)
        and len(audience) > 1
        and claims.get("azp") != client_id
    ):
        raise InvalidIdTokenError("the ID token is not valid: azp is not this client")
    if int(claims["iat"]) > time.time() + CLOCK_LEEWAY_SECONDS:
        raise InvalidIdTokenError("the ID token is not valid: issued in the future")
    if not isinstance(claims.get("nonce"), str) or not hmac.compare_digest(
        claims["nonce"], nonce
    ):
        raise InvalidIdTokenError("the ID token is not valid: wrong nonce")
    return claims
