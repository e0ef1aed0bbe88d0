# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The use cases of the user profile service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

from eaf.eventsourcing import change_one, make_one

from user_profile.application.ports.outbound import (
    Clock,
    Idempotency,
    SampleUserProfileListing,
    Transactions,
)
from user_profile.domain.errors import NotFoundError
from user_profile.domain.model import SampleUserProfile


class SampleUserProfileService:
    """Runs the SampleUserProfile use cases (implements ``SampleUserProfileUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: SampleUserProfileListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self, *, name: str, email: str, idempotency: Idempotency | None = None
    ) -> SampleUserProfile:
        return await make_one(
            self._transactions,
            SampleUserProfile,
            lambda now: SampleUserProfile.create(name=name, email=email, now=now),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                name,
                email,
            ),
        )

    async def update_profile(
        self,
        id: str,
        *,
        name: str,
        email: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> SampleUserProfile:
        return await change_one(
            self._transactions,
            SampleUserProfile,
            id,
            lambda current, now: current.update_profile(
                name=name, email=email, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Profile not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "updateProfile",
                id,
                name,
                email,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> SampleUserProfile:
        return await change_one(
            self._transactions,
            SampleUserProfile,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Profile not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> SampleUserProfile | None:
        return await self._transactions.load(SampleUserProfile, id)

    async def list(self) -> list[SampleUserProfile]:
        return await self._listing.list()
