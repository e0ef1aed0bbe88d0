# Generated from spec licensing by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any, Protocol

from eaf.eventsourcing import EventStore, Transactions, open_event_store
from eaf.messaging import EventRelay
from eaf.projectors import ProjectionStore, Projectors, projection_store

import licensing.application.issuing
import licensing.application.signing
import licensing.application.validation
from licensing.application.ports.inbound import (
    LicenseUseCases,
    MachineUseCases,
    PolicyUseCases,
    ProductUseCases,
)
from licensing.application.ports.outbound import Clock
from licensing.application.services import (
    MachineService,
    PolicyService,
    ProductService,
)
from licensing.infrastructure.clock import SystemClock
from licensing.infrastructure.config import SERVICE_DIR, Settings
from licensing.infrastructure.persistence import transactions as store_transactions
from licensing.infrastructure.projections import (
    PROJECTIONS,
    ReadModelLicenseListing,
    ReadModelMachineListing,
    ReadModelPolicyListing,
    ReadModelProductListing,
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
    product: ProductUseCases
    policy: PolicyUseCases
    license: LicenseUseCases
    machine: MachineUseCases
    relay: EventRelay
    """Publishes stored events to the broker (its ``url`` is the broker's, embedded or not)."""
    license_keys: licensing.application.signing.LicenseKeyRing
    """The Ed25519 keys signing license files"""
    validator: licensing.application.validation.Validator
    """License validation by key or id, with its scope and machine checks"""
    check_outs: licensing.application.signing.CheckOuts
    """Signed offline license files"""
    workers: tuple[Worker, ...] = ()
    """What runs in the background, in start order (the relay first): stopped in reverse."""
    queries: dict[str, Any] = field(default_factory=dict)


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    transactions: Transactions | None = None,
    product: ProductUseCases | None = None,
    policy: PolicyUseCases | None = None,
    license: LicenseUseCases | None = None,
    machine: MachineUseCases | None = None,
    relay: EventRelay | None = None,
    projectors: Worker | None = None,
    license_keys: licensing.application.signing.LicenseKeyRing | None = None,
    validator: licensing.application.validation.Validator | None = None,
    check_outs: licensing.application.signing.CheckOuts | None = None,
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
        "Products": ReadModelProductListing(read_models),
        "Policies": ReadModelPolicyListing(read_models),
        "Licenses": ReadModelLicenseListing(read_models),
        "Machines": ReadModelMachineListing(read_models),
    }
    product = product or ProductService(
        transactions,
        clock,
        queries["Products"],
    )
    policy = policy or PolicyService(
        transactions,
        clock,
        queries["Policies"],
    )
    license = license or licensing.application.issuing.IssuingLicenseService(
        transactions,
        clock,
        queries["Licenses"],
    )
    machine = machine or MachineService(
        transactions,
        clock,
        queries["Machines"],
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
    if license_keys is None:
        license_keys = licensing.application.signing.LicenseKeyRing.load_or_create(
            path=settings.path("licensing.keys_file")
        )
    if validator is None:
        validator = licensing.application.validation.Validator(
            licenses=license, policies=policy, machines=machine, clock=clock
        )
    if check_outs is None:
        check_outs = licensing.application.signing.CheckOuts(
            licenses=license,
            policies=policy,
            machines=queries["Machines"],
            ring=license_keys,
            clock=clock,
        )
    return Services(
        store=store,
        transactions=transactions,
        clock=clock,
        relay=publisher,
        workers=tuple(workers),
        read_models=read_models,
        queries=queries,
        product=product,
        policy=policy,
        license=license,
        machine=machine,
        license_keys=license_keys,
        validator=validator,
        check_outs=check_outs,
    )
