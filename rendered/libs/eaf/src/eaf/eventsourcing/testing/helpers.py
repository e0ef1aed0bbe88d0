"""Small helpers shared by the contract suites."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass

from eaf.context import SecurityContext, use
from eaf.eventsourcing.ports import EventStore, SagaStore, SnapshotStore
from eaf.eventsourcing.records import NewEvent


@dataclass(frozen=True)
class Backend:
    """The event, snapshot and saga stores of one adapter family, for tests that run
    against each family."""

    name: str
    events: EventStore
    snapshots: SnapshotStore
    sagas: SagaStore


def as_tenant(
    tenant_id: str, *, user_id: str = "user-1", causation_id: str | None = None
) -> AbstractContextManager[SecurityContext]:
    """Run the enclosed block as ``user_id`` of ``tenant_id``."""
    return use(
        SecurityContext(tenant_id=tenant_id, user_id=user_id, causation_id=causation_id)
    )


def new_events(
    count: int, *, event_type: str = "Happened", start: int = 1
) -> list[NewEvent]:
    """``count`` distinct events whose payloads number them from ``start``."""
    return [NewEvent(event_type, {"n": n}) for n in range(start, start + count)]
