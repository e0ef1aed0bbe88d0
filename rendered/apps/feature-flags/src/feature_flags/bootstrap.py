# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any, Protocol

from eaf.eventsourcing import EventStore, Transactions, open_event_store
from eaf.messaging import EventRelay
from eaf.projectors import ProjectionStore, Projectors, projection_store

import feature_flags.application.evaluation
import feature_flags.application.usage
from feature_flags.application.ports.inbound import (
    FlagUseCases,
    ProjectUseCases,
    SegmentUseCases,
    UsageReportUseCases,
)
from feature_flags.application.ports.outbound import Clock
from feature_flags.application.services import (
    FlagService,
    ProjectService,
    SegmentService,
    UsageReportService,
)
from feature_flags.infrastructure.clock import SystemClock
from feature_flags.infrastructure.config import SERVICE_DIR, Settings
from feature_flags.infrastructure.persistence import transactions as store_transactions
from feature_flags.infrastructure.projections import (
    PROJECTIONS,
    ReadModelFlagListing,
    ReadModelProjectListing,
    ReadModelSegmentListing,
    ReadModelUsageReportListing,
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
    project: ProjectUseCases
    segment: SegmentUseCases
    flag: FlagUseCases
    usage_report: UsageReportUseCases
    relay: EventRelay
    """Publishes stored events to the broker (its ``url`` is the broker's, embedded or not)."""
    evaluations: feature_flags.application.evaluation.Evaluations
    """Evaluation of a tenant's flags over the flag and segment read models"""
    ofrep_usage: feature_flags.application.usage.OfrepUsage
    """The OFREP evaluations counted in memory, written as usage reports"""
    workers: tuple[Worker, ...] = ()
    """What runs in the background, in start order (the relay first): stopped in reverse."""
    queries: dict[str, Any] = field(default_factory=dict)


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    transactions: Transactions | None = None,
    project: ProjectUseCases | None = None,
    segment: SegmentUseCases | None = None,
    flag: FlagUseCases | None = None,
    usage_report: UsageReportUseCases | None = None,
    relay: EventRelay | None = None,
    projectors: Worker | None = None,
    evaluations: feature_flags.application.evaluation.Evaluations | None = None,
    ofrep_usage: feature_flags.application.usage.OfrepUsage | None = None,
) -> Services:
    """Build the use cases, the hand-written components (each by its factory or type,
    given the parts it needs) and the background workers from real adapters, or from
    the ones given; a worker its setting turns off (``broker.relay``,
    ``broker.consume``, ``policies.run``) is built but not started."""
    store = store or await open_event_store(settings.event_store_url())
    clock = clock or SystemClock()
    transactions = transactions or store_transactions(store)
    read_models = projection_store(store)
    queries: dict[str, Any] = {
        "UsageReports": ReadModelUsageReportListing(read_models),
        "Projects": ReadModelProjectListing(read_models),
        "Segments": ReadModelSegmentListing(read_models),
        "Flags": ReadModelFlagListing(read_models),
    }
    project = project or ProjectService(
        transactions,
        clock,
        queries["Projects"],
    )
    segment = segment or SegmentService(
        transactions,
        clock,
        queries["Segments"],
    )
    flag = flag or FlagService(
        transactions,
        clock,
        queries["Flags"],
    )
    usage_report = usage_report or UsageReportService(
        transactions,
        clock,
        queries["UsageReports"],
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
    workers.append(projectors or Projectors(store, read_models, PROJECTIONS))
    if evaluations is None:
        evaluations = feature_flags.application.evaluation.Evaluations(
            flags=queries["Flags"], segments=queries["Segments"]
        )
    if ofrep_usage is None:
        ofrep_usage = feature_flags.application.usage.OfrepUsage(reports=usage_report)
    return Services(
        store=store,
        transactions=transactions,
        clock=clock,
        relay=publisher,
        workers=tuple(workers),
        read_models=read_models,
        queries=queries,
        project=project,
        segment=segment,
        flag=flag,
        usage_report=usage_report,
        evaluations=evaluations,
        ofrep_usage=ofrep_usage,
    )
