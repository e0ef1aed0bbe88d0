# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Output ports: what the user profile use cases need from the outside. The
transactions over the event store are the runtime's (the same for every service)."""

from datetime import datetime
from typing import Protocol

from eaf.eventsourcing import Idempotency, Transaction, Transactions

from user_profile.domain.model import SampleUserProfile
from user_profile.domain.ports import SampleUserProfileRepository

__all__ = [
    "Clock",
    "Idempotency",
    "Transaction",
    "Transactions",
    "SampleUserProfileRepository",
    "SampleUserProfileListing",
]


class Clock(Protocol):
    """Tells the current time (UTC)."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class SampleUserProfileListing(Protocol):
    """The read side of SampleUserProfile: a projection of its events, for the current tenant."""

    async def list(self) -> list[SampleUserProfile]:
        """Every sample user profile of the tenant, as of the projection's last batch."""
        ...
