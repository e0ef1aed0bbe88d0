# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass

from eaf.eventsourcing import EventStore
from eaf.projectors import ProjectionStore

from user_profile.application.ports.inbound import (
    EventReactions,
    SampleUserProfileUseCases,
)
from user_profile.application.ports.outbound import Clock, SampleUserProfileRepository
from user_profile.application.reactions import Reactions
from user_profile.application.services import SampleUserProfileService
from user_profile.infrastructure.clock import SystemClock
from user_profile.infrastructure.config import Settings, event_store_url
from user_profile.infrastructure.persistence import (
    EventSourcedSampleUserProfileRepository,
    open_event_store,
)
from user_profile.infrastructure.projections import (
    ReadModelSampleUserProfileListing,
    projection_store,
)


@dataclass(frozen=True)
class Services:
    """The wired use cases, and the event store they share."""

    store: EventStore
    read_models: ProjectionStore
    sample_user_profile: SampleUserProfileUseCases
    reactions: EventReactions


def default_reactions(sample_user_profile: SampleUserProfileUseCases) -> EventReactions:
    """The reactions of ``application/reactions.py`` (yours), given the use cases."""
    return Reactions(sample_user_profile=sample_user_profile)


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    sample_user_profile_repository: SampleUserProfileRepository | None = None,
    reactions: EventReactions | None = None,
) -> Services:
    """Build the use cases from real adapters, or from the ones given."""
    store = store or await open_event_store(event_store_url(settings))
    clock = clock or SystemClock()
    read_models = projection_store(store)
    sample_user_profile = SampleUserProfileService(
        sample_user_profile_repository
        or EventSourcedSampleUserProfileRepository(store),
        clock,
        ReadModelSampleUserProfileListing(read_models),
    )
    return Services(
        store=store,
        read_models=read_models,
        sample_user_profile=sample_user_profile,
        reactions=reactions or default_reactions(sample_user_profile),
    )
