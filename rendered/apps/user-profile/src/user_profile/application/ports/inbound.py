# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Input ports: the use cases the user profile service offers."""

from __future__ import annotations

from typing import Protocol

from eaf.eventsourcing import Idempotency

from user_profile.application.consumed import TenantCreatedEvent
from user_profile.domain.model import SampleUserProfile


class SampleUserProfileUseCases(Protocol):
    """What callers can do with sample user profile aggregates."""

    async def create(
        self, *, name: str, email: str, idempotency: Idempotency | None = None
    ) -> SampleUserProfile:
        """Create a sample user profile (create)."""
        ...

    async def update_profile(
        self,
        id: str,
        *,
        name: str,
        email: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> SampleUserProfile:
        """Apply updateProfile to the sample user profile with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> SampleUserProfile:
        """Apply remove to the sample user profile with this id."""
        ...

    async def get(self, id: str) -> SampleUserProfile | None:
        """The sample user profile with this id, or None."""
        ...

    async def list(self) -> list[SampleUserProfile]:
        """Every sample user profile of the tenant (from the read model: eventually consistent)."""
        ...


class EventReactions(Protocol):
    """How this service reacts to other services' events (``application/reactions.py``).

    Each method runs in the security context the event was written in; raising makes the
    delivery retry, and after ``max_deliver`` attempts the event goes to the dead letters."""

    async def prepare_tenant(self, event: TenantCreatedEvent) -> None:
        """React to iam.TenantCreatedEvent."""
        ...
