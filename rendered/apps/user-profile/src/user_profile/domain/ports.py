# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Ports the user profile domain needs from the outside: where aggregates are kept."""

from typing import Protocol

from user_profile.domain.model import SampleUserProfile


class SampleUserProfileRepository(Protocol):
    """Keeps SampleUserProfile aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> SampleUserProfile | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: SampleUserProfile) -> SampleUserProfile:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[SampleUserProfile]:
        """Every SampleUserProfile of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[SampleUserProfile]:
        """Every SampleUserProfile of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...
