# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The use cases of the user profile service."""

from user_profile.application.ports.outbound import (
    Clock,
    SampleUserProfileListing,
    SampleUserProfileRepository,
)
from user_profile.domain.errors import NotFoundError
from user_profile.domain.model import SampleUserProfile


class SampleUserProfileService:
    """Runs the SampleUserProfile use cases against a repository and a clock."""

    def __init__(
        self,
        repository: SampleUserProfileRepository,
        clock: Clock,
        listing: SampleUserProfileListing,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._listing = listing

    async def create(self, *, name: str, email: str) -> SampleUserProfile:
        created = SampleUserProfile.create(
            name=name, email=email, now=self._clock.now()
        )
        return await self._repository.save(created)

    async def update_profile(
        self, id: str, *, name: str, email: str
    ) -> SampleUserProfile:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Profile not found")
        changed = current.update_profile(name=name, email=email, now=self._clock.now())
        return await self._repository.save(changed)

    async def get(self, id: str) -> SampleUserProfile | None:
        return await self._repository.get(id)

    async def list(self) -> list[SampleUserProfile]:
        return await self._listing.list()
