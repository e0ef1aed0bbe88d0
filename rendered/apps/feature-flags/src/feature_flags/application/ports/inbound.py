# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Input ports: the use cases the feature flags service offers."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol
from uuid import UUID

from eaf.eventsourcing import Idempotency

from feature_flags.domain.model import Flag, Project, Segment, UsageReport
from feature_flags.domain.types import (
    Constraint,
    Dependency,
    EnvironmentConfig,
    FlagType,
    ToggleUsage,
    Variant,
)


class ProjectUseCases(Protocol):
    """What callers can do with project aggregates."""

    async def create(
        self,
        *,
        key_: str,
        name: str,
        description: str,
        environments: list[str],
        idempotency: Idempotency | None = None,
    ) -> Project:
        """Create a project (create)."""
        ...

    async def update(
        self,
        id: str,
        *,
        name: str,
        description: str,
        environments: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Project:
        """Apply update to the project with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Project:
        """Apply remove to the project with this id."""
        ...

    async def get(self, id: str) -> Project | None:
        """The project with this id, or None."""
        ...

    async def get_by_key(self, key_: str) -> Project | None:
        """The project with this key, or None."""
        ...

    async def list(self) -> list[Project]:
        """Every project of the tenant (from the read model: eventually consistent)."""
        ...


class SegmentUseCases(Protocol):
    """What callers can do with segment aggregates."""

    async def create(
        self,
        *,
        name: str,
        description: str,
        constraints: list[Constraint],
        idempotency: Idempotency | None = None,
    ) -> Segment:
        """Create a segment (create)."""
        ...

    async def update(
        self,
        id: str,
        *,
        name: str,
        description: str,
        constraints: list[Constraint],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Segment:
        """Apply update to the segment with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Segment:
        """Apply remove to the segment with this id."""
        ...

    async def get(self, id: str) -> Segment | None:
        """The segment with this id, or None."""
        ...

    async def get_by_name(self, name: str) -> Segment | None:
        """The segment with this name, or None."""
        ...

    async def list(self) -> list[Segment]:
        """Every segment of the tenant (from the read model: eventually consistent)."""
        ...


class FlagUseCases(Protocol):
    """What callers can do with flag aggregates."""

    async def create(
        self,
        *,
        key_: str,
        project_id: UUID,
        description: str,
        type_: FlagType,
        impression_data: bool,
        environments: dict[str, EnvironmentConfig],
        variants: list[Variant],
        dependencies: list[Dependency],
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Create a flag (create)."""
        ...

    async def describe(
        self,
        id: str,
        *,
        description: str,
        type_: FlagType,
        impression_data: bool,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply describe to the flag with this id."""
        ...

    async def configure(
        self,
        id: str,
        *,
        environments: dict[str, EnvironmentConfig],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply configure to the flag with this id."""
        ...

    async def set_variants(
        self,
        id: str,
        *,
        variants: list[Variant],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply setVariants to the flag with this id."""
        ...

    async def set_dependencies(
        self,
        id: str,
        *,
        dependencies: list[Dependency],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply setDependencies to the flag with this id."""
        ...

    async def mark_stale(
        self,
        id: str,
        *,
        stale: bool,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply markStale to the flag with this id."""
        ...

    async def archive(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply archive to the flag with this id."""
        ...

    async def revive(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply revive to the flag with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        """Apply remove to the flag with this id."""
        ...

    async def get(self, id: str) -> Flag | None:
        """The flag with this id, or None."""
        ...

    async def get_by_key(self, key_: str) -> Flag | None:
        """The flag with this key, or None."""
        ...

    async def list(self) -> list[Flag]:
        """Every flag of the tenant (from the read model: eventually consistent)."""
        ...


class UsageReportUseCases(Protocol):
    """What callers can do with usage report aggregates."""

    async def submit(
        self,
        *,
        app_name: str,
        instance_id: str,
        environment: str,
        start: datetime,
        stop: datetime,
        toggles: dict[str, ToggleUsage],
        idempotency: Idempotency | None = None,
    ) -> UsageReport:
        """Create a usage report (submit)."""
        ...

    async def get(self, id: str) -> UsageReport | None:
        """The usage report with this id, or None."""
        ...

    async def list(self) -> list[UsageReport]:
        """Every usage report of the tenant (from the read model: eventually consistent)."""
        ...
