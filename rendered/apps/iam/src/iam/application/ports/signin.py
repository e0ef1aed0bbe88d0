"""Output ports of browser sign-in: short-lived server-side state, and the external
identity providers a sign-in page offers."""

from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol, TypeVar

T = TypeVar("T")


class Expiring(Protocol[T]):
    """Values kept for a while under an unguessable key (authorization codes, browser
    sessions, sign-in forms waiting for their answer)."""

    async def put(self, key: str, value: T, ttl: timedelta) -> None:
        """Keep ``value`` for ``ttl``."""
        ...

    async def get(self, key: str) -> T | None:
        """The value, unless it expired or was never put."""
        ...

    async def pop(self, key: str) -> T | None:
        """The value, removed: of two callers, only one gets it."""
        ...


@dataclass(frozen=True)
class ExternalProvider:
    """An identity provider a user may sign in with instead of a password."""

    name: str
    url: str


class ExternalProviders(Protocol):
    """The external identity providers configured for a tenant."""

    async def providers(self, tenant_id: str) -> list[ExternalProvider]:
        """One button each on the sign-in page."""
        ...
