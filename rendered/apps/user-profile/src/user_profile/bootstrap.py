# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any

from eaf.eventsourcing import EventStore, Transactions
from eaf.projectors import ProjectionStore

from user_profile.application.ports.inbound import (
    EventReactions,
    SampleUserProfileUseCases,
)
from user_profile.application.ports.outbound import Clock
from user_profile.application.reactions import Reactions
from user_profile.application.services import SampleUserProfileService
from user_profile.infrastructure.clock import SystemClock
from user_profile.infrastructure.config import Settings, event_store_url
from user_profile.infrastructure.persistence import open_event_store
from user_profile.infrastructure.persistence import transactions as store_transactions
from user_profile.infrastructure.projections import (
    ReadModelSampleUserProfileListing,
    projection_store,
)


@dataclass(frozen=True)
class Services:
    """The wired use cases, the read models' queries, the clock, and the event store they
    share."""

    store: EventStore
    transactions: Transactions
    clock: Clock
    read_models: ProjectionStore
    sample_user_profile: SampleUserProfileUseCases
    reactions: EventReactions
    queries: dict[str, Any] = field(default_factory=dict)


def default_reactions(sample_user_profile: SampleUserProfileUseCases) -> EventReactions:
    """The reactions of ``application/reactions.py`` (yours), given the use cases."""
    return Reactions(sample_user_profile=sample_user_profile)


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    transactions: Transactions | None = None,
    sample_user_profile: SampleUserProfileUseCases | None = None,
    reactions: EventReactions | None = None,
) -> Services:
    """Build the use cases from real adapters, or from the ones given."""
    store = store or await open_event_store(event_store_url(settings))
    clock = clock or SystemClock()
    transactions = transactions or store_transactions(store)
    read_models = projection_store(store)
    queries: dict[str, Any] = {
        "SampleUserProfileList": ReadModelSampleUserProfileListing(read_models),
    }
    sample_user_profile = sample_user_profile or SampleUserProfileService(
        transactions,
        clock,
        queries["SampleUserProfileList"],
    )
    return Services(
        store=store,
        transactions=transactions,
        clock=clock,
        read_models=read_models,
        queries=queries,
        sample_user_profile=sample_user_profile,
        reactions=reactions or default_reactions(sample_user_profile),
    )
