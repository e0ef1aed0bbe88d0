# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any, Protocol

from eaf.eventsourcing import EventStore, Transactions, open_event_store
from eaf.messaging import EventRelay
from eaf.projectors import ProjectionStore, Projectors, projection_store

from user_profile.application.ports.inbound import (
    EventReactions,
    SampleUserProfileUseCases,
)
from user_profile.application.ports.outbound import Clock
from user_profile.application.reactions import Reactions
from user_profile.application.services import SampleUserProfileService
from user_profile.infrastructure.clock import SystemClock
from user_profile.infrastructure.config import SERVICE_DIR, Settings
from user_profile.infrastructure.consumers import EventConsumers
from user_profile.infrastructure.persistence import transactions as store_transactions
from user_profile.infrastructure.projections import (
    PROJECTIONS,
    ReadModelSampleUserProfileListing,
)


class Worker(Protocol):
    """A background part of the service: started before the first request, stopped at
    shutdown."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


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
    relay: EventRelay
    """Publishes stored events to the broker (its ``url`` is the broker's, embedded or not)."""
    workers: tuple[Worker, ...] = ()
    """What runs in the background, in start order (the relay first): stopped in reverse."""
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
    consumers: Worker | None = None,
    relay: EventRelay | None = None,
    projectors: Worker | None = None,
) -> Services:
    """Build the use cases and the background workers from real adapters, or from the ones
    given; a worker its setting turns off (``broker.relay``, ``broker.consume``,
    ``policies.run``) is built but not started."""
    store = store or await open_event_store(settings.event_store_url())
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
    publisher = relay or EventRelay(
        store,
        service=settings.name,
        url=settings.broker_url,
        embedded=bool(settings.get("broker.embedded", False)),
        data_dir=SERVICE_DIR / "data",
        replicas=settings.broker_replicas,
    )
    workers: list[Worker] = []
    if settings.get("broker.relay", True):
        workers.append(publisher)
    reactions = reactions or default_reactions(sample_user_profile)
    consumers = consumers or EventConsumers(
        reactions,
        service=settings.name,
        url=lambda: publisher.url,
        replicas=settings.broker_replicas,
    )
    if settings.get("broker.consume", True):
        workers.append(consumers)
    workers.append(projectors or Projectors(store, read_models, PROJECTIONS))
    return Services(
        store=store,
        transactions=transactions,
        clock=clock,
        relay=publisher,
        workers=tuple(workers),
        read_models=read_models,
        queries=queries,
        sample_user_profile=sample_user_profile,
        reactions=reactions,
    )
