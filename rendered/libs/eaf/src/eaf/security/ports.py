"""The ports of eaf.security."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from eaf.security.jwks import PublicKeys


class JwksProvider(Protocol):
    """Where a verifier gets the issuer's public keys.

    ``keys()`` is called on every verification and should answer from a cache;
    ``keys(refresh=True)`` is a request to reload, made when a token names an unknown kid
    (a provider may decline, e.g. to rate-limit reloads, and answer from its cache).
    """

    async def keys(self, *, refresh: bool = False) -> PublicKeys: ...
