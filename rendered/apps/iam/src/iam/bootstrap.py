# Generated from spec iam by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any

from eaf.eventsourcing import EventStore, Transactions
from eaf.projectors import ProjectionStore

from iam.application.ports.outbound import Clock
from iam.infrastructure.clock import SystemClock
from iam.infrastructure.config import Settings, event_store_url
from iam.infrastructure.persistence import open_event_store
from iam.infrastructure.persistence import transactions as store_transactions
from iam.infrastructure.projections import (
    ReadModelPolicyListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelTenantListing,
    ReadModelUserListing,
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
    queries: dict[str, Any] = field(default_factory=dict)


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    transactions: Transactions | None = None,
) -> Services:
    """Build the use cases from real adapters, or from the ones given."""
    store = store or await open_event_store(event_store_url(settings))
    clock = clock or SystemClock()
    transactions = transactions or store_transactions(store)
    read_models = projection_store(store)
    queries: dict[str, Any] = {
        "TenantList": ReadModelTenantListing(read_models),
        "UserList": ReadModelUserListing(read_models),
        "RoleList": ReadModelRoleListing(read_models),
        "PolicyList": ReadModelPolicyListing(read_models),
        "ServiceAccountList": ReadModelServiceAccountListing(read_models),
    }
    return Services(
        store=store,
        transactions=transactions,
        clock=clock,
        read_models=read_models,
        queries=queries,
    )
