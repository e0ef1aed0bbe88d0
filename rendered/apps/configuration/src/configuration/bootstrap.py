# Generated from spec configuration by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any, Protocol

import eaf.security
from eaf.eventsourcing import EventStore, Transactions, open_event_store
from eaf.messaging import EventRelay
from eaf.projectors import ProjectionStore, Projectors, projection_store

import configuration.application.configurations
import configuration.application.watch
from configuration.application.ports.inbound import (
    ConfigSchemaUseCases,
    PropertySetUseCases,
)
from configuration.application.ports.outbound import Clock
from configuration.application.services import ConfigSchemaService, PropertySetService
from configuration.infrastructure.clock import SystemClock
from configuration.infrastructure.config import SERVICE_DIR, Settings
from configuration.infrastructure.persistence import EventSourcedPropertySetRepository
from configuration.infrastructure.persistence import transactions as store_transactions
from configuration.infrastructure.projections import (
    PROJECTIONS,
    ReadModelConfigSchemaListing,
    ReadModelPropertySetListing,
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
    config_schema: ConfigSchemaUseCases
    property_set: PropertySetUseCases
    relay: EventRelay
    """Publishes stored events to the broker (its ``url`` is the broker's, embedded or not)."""
    changes: configuration.application.watch.Changes
    """The changes of property sets this instance has seen (watch)"""
    secret_box: eaf.security.SecretBox
    """The key ring sealing secret property values"""
    configurations: configuration.application.configurations.Configurations
    """Layered configuration, schema validation, secrets, versions and watch"""
    workers: tuple[Worker, ...] = ()
    """What runs in the background, in start order (the relay first): stopped in reverse."""
    queries: dict[str, Any] = field(default_factory=dict)


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    transactions: Transactions | None = None,
    config_schema: ConfigSchemaUseCases | None = None,
    property_set: PropertySetUseCases | None = None,
    relay: EventRelay | None = None,
    projectors: Worker | None = None,
    changes: configuration.application.watch.Changes | None = None,
    secret_box: eaf.security.SecretBox | None = None,
    configurations: configuration.application.configurations.Configurations
    | None = None,
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
        "Schemas": ReadModelConfigSchemaListing(read_models),
        "PropertySets": ReadModelPropertySetListing(read_models),
    }
    config_schema = config_schema or ConfigSchemaService(
        transactions,
        clock,
        queries["Schemas"],
    )
    property_set = property_set or PropertySetService(
        transactions,
        clock,
        queries["PropertySets"],
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
    if changes is None:
        changes = configuration.application.watch.Changes()
    if secret_box is None:
        secret_box = eaf.security.SecretBox.load_or_create(
            path=settings.path("configuration.keys_file")
        )
    if configurations is None:
        configurations = configuration.application.configurations.Configurations(
            property_sets=property_set,
            schemas=config_schema,
            history=EventSourcedPropertySetRepository(store).history,
            box=secret_box,
            changes=changes,
        )
    return Services(
        store=store,
        transactions=transactions,
        clock=clock,
        relay=publisher,
        workers=tuple(workers),
        read_models=read_models,
        queries=queries,
        config_schema=config_schema,
        property_set=property_set,
        changes=changes,
        secret_box=secret_box,
        configurations=configurations,
    )
