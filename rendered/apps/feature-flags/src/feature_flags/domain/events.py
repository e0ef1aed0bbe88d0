# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Events of the feature flags domain, with their schema versions. A field with a
default is filled with it when a stored event predates the field."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeAlias
from uuid import UUID

from feature_flags.domain.types import (
    Constraint,
    Dependency,
    EnvironmentConfig,
    FlagType,
    ToggleUsage,
    Variant,
)


@dataclass(frozen=True, kw_only=True)
class ProjectCreated:
    """Project created (v1)."""

    project_id: UUID
    key_: str
    name: str
    description: str = ""
    environments: list[str] = field(
        default_factory=lambda: ["development", "production"]
    )
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ProjectUpdated:
    """Project updated (v1)."""

    project_id: UUID
    name: str
    description: str = ""
    environments: list[str] = field(
        default_factory=lambda: ["development", "production"]
    )
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ProjectRemoved:
    """Project removed (v1)."""

    project_id: UUID
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SegmentCreated:
    """Segment created (v1)."""

    segment_id: UUID
    name: str
    description: str = ""
    constraints: list[Constraint] = field(default_factory=list)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SegmentUpdated:
    """Segment updated (v1)."""

    segment_id: UUID
    name: str
    description: str = ""
    constraints: list[Constraint] = field(default_factory=list)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SegmentRemoved:
    """Segment removed (v1)."""

    segment_id: UUID
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagCreated:
    """Flag created (v1)."""

    flag_id: UUID
    key_: str
    project_id: UUID
    description: str = ""
    type_: FlagType = FlagType.RELEASE
    impression_data: bool = False
    environments: dict[str, EnvironmentConfig] = field(default_factory=dict)
    variants: list[Variant] = field(default_factory=list)
    dependencies: list[Dependency] = field(default_factory=list)
    stale: bool = False
    archived_: bool = False
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagDescribed:
    """Flag described (v1)."""

    flag_id: UUID
    description: str = ""
    type_: FlagType = FlagType.RELEASE
    impression_data: bool = False
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagConfigured:
    """Flag configured (v1)."""

    flag_id: UUID
    environments: dict[str, EnvironmentConfig] = field(default_factory=dict)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagVariantsSet:
    """Flag variants set (v1)."""

    flag_id: UUID
    variants: list[Variant] = field(default_factory=list)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagDependenciesSet:
    """Flag dependencies set (v1)."""

    flag_id: UUID
    dependencies: list[Dependency] = field(default_factory=list)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagStaleMarked:
    """Flag stale marked (v1)."""

    flag_id: UUID
    stale: bool = False
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagArchivedEvent:
    """Flag archived event (v1)."""

    flag_id: UUID
    archived_: bool = False
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagRevived:
    """Flag revived (v1)."""

    flag_id: UUID
    archived_: bool = False
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class FlagRemoved:
    """Flag removed (v1)."""

    flag_id: UUID
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UsageRecorded:
    """Usage recorded (v1)."""

    usage_report_id: UUID
    app_name: str
    instance_id: str = "unknown"
    environment: str
    start: datetime
    stop: datetime
    toggles: dict[str, ToggleUsage] = field(default_factory=dict)
    occurred_at: datetime


DomainEvent: TypeAlias = (
    ProjectCreated
    | ProjectUpdated
    | ProjectRemoved
    | SegmentCreated
    | SegmentUpdated
    | SegmentRemoved
    | FlagCreated
    | FlagDescribed
    | FlagConfigured
    | FlagVariantsSet
    | FlagDependenciesSet
    | FlagStaleMarked
    | FlagArchivedEvent
    | FlagRevived
    | FlagRemoved
    | UsageRecorded
)

SCHEMA_VERSIONS: dict[str, int] = {
    "ProjectCreated": 1,
    "ProjectUpdated": 1,
    "ProjectRemoved": 1,
    "SegmentCreated": 1,
    "SegmentUpdated": 1,
    "SegmentRemoved": 1,
    "FlagCreated": 1,
    "FlagDescribed": 1,
    "FlagConfigured": 1,
    "FlagVariantsSet": 1,
    "FlagDependenciesSet": 1,
    "FlagStaleMarked": 1,
    "FlagArchivedEvent": 1,
    "FlagRevived": 1,
    "FlagRemoved": 1,
    "UsageRecorded": 1,
}
