# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Ports the feature flags domain needs from the outside: where aggregates are kept."""

from typing import Protocol

from feature_flags.domain.model import Flag, Project, Segment, UsageReport


class ProjectRepository(Protocol):
    """Keeps Project aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Project | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Project) -> Project:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Project]:
        """Every Project of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Project]:
        """Every Project of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class SegmentRepository(Protocol):
    """Keeps Segment aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Segment | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Segment) -> Segment:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Segment]:
        """Every Segment of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Segment]:
        """Every Segment of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class FlagRepository(Protocol):
    """Keeps Flag aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Flag | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Flag) -> Flag:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Flag]:
        """Every Flag of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Flag]:
        """Every Flag of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class UsageReportRepository(Protocol):
    """Keeps UsageReport aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> UsageReport | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: UsageReport) -> UsageReport:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[UsageReport]:
        """Every UsageReport of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[UsageReport]:
        """Every UsageReport of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...
