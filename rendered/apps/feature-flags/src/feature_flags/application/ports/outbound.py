# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Output ports: what the feature flags use cases need from the outside. The
transactions over the event store are the runtime's (the same for every service)."""

from datetime import datetime
from typing import Protocol

from eaf.eventsourcing import Idempotency, Transaction, Transactions

from feature_flags.domain.model import Flag, Project, Segment, UsageReport
from feature_flags.domain.ports import (
    FlagRepository,
    ProjectRepository,
    SegmentRepository,
    UsageReportRepository,
)

__all__ = [
    "Clock",
    "Idempotency",
    "Transaction",
    "Transactions",
    "ProjectRepository",
    "ProjectListing",
    "SegmentRepository",
    "SegmentListing",
    "FlagRepository",
    "FlagListing",
    "UsageReportRepository",
    "UsageReportListing",
]


class Clock(Protocol):
    """Tells the current time (UTC)."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class ProjectListing(Protocol):
    """The read side of Project: a projection of its events, for the current tenant."""

    async def list(self) -> list[Project]:
        """Every project of the tenant, as of the projection's last batch."""
        ...


class SegmentListing(Protocol):
    """The read side of Segment: a projection of its events, for the current tenant."""

    async def list(self) -> list[Segment]:
        """Every segment of the tenant, as of the projection's last batch."""
        ...


class FlagListing(Protocol):
    """The read side of Flag: a projection of its events, for the current tenant."""

    async def list(self) -> list[Flag]:
        """Every flag of the tenant, as of the projection's last batch."""
        ...


class UsageReportListing(Protocol):
    """The read side of UsageReport: a projection of its events, for the current tenant."""

    async def list(self) -> list[UsageReport]:
        """Every usage report of the tenant, as of the projection's last batch."""
        ...
