# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass

from user_profile.application.ports.inbound import SampleUserProfileUseCases
from user_profile.application.ports.outbound import Clock, SampleUserProfileRepository
from user_profile.application.services import SampleUserProfileService
from user_profile.infrastructure.clock import SystemClock
from user_profile.infrastructure.config import Settings, database_path
from user_profile.infrastructure.database import Database
from user_profile.infrastructure.persistence import SqliteSampleUserProfileRepository


@dataclass(frozen=True)
class Services:
    """The wired use cases, and the database they share."""

    database: Database
    sample_user_profile: SampleUserProfileUseCases


def bootstrap(
    settings: Settings,
    *,
    database: Database | None = None,
    clock: Clock | None = None,
    sample_user_profile_repository: SampleUserProfileRepository | None = None,
) -> Services:
    """Build the use cases from real adapters, or from the ones given."""
    database = database or Database(database_path(settings))
    clock = clock or SystemClock()
    return Services(
        database=database,
        sample_user_profile=SampleUserProfileService(
            sample_user_profile_repository
            or SqliteSampleUserProfileRepository(database),
            clock,
        ),
    )
