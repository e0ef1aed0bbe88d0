# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Feature flags aggregates: event-sourced state, rules, and the events their
commands emit (the state is the fold of those events)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import ClassVar, Self
from uuid import UUID, uuid4

from eaf.domain import AggregateRoot

from feature_flags.domain.errors import (
    CommandNotAllowedError,
    DomainValidationError,
    FlagArchived,
    Violation,
    is_blank,
    matches,
    member_path,
)
from feature_flags.domain.events import (
    DomainEvent,
    FlagArchivedEvent,
    FlagConfigured,
    FlagCreated,
    FlagDependenciesSet,
    FlagDescribed,
    FlagRemoved,
    FlagRevived,
    FlagStaleMarked,
    FlagVariantsSet,
    ProjectCreated,
    ProjectRemoved,
    ProjectUpdated,
    SegmentCreated,
    SegmentRemoved,
    SegmentUpdated,
    UsageRecorded,
)
from feature_flags.domain.types import (
    Constraint,
    Dependency,
    EnvironmentConfig,
    FlagType,
    ToggleUsage,
    Variant,
)


@dataclass(frozen=True, kw_only=True)
class Project(AggregateRoot[DomainEvent]):
    """A project."""

    UNIQUE: ClassVar[tuple[str, ...]] = ("key_",)

    key_: str
    name: str
    description: str = ""
    environments: list[str] = field(
        default_factory=lambda: ["development", "production"]
    )

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case ProjectCreated():
                return cls(
                    id=str(event.project_id),
                    key_=event.key_,
                    name=event.name,
                    description=event.description,
                    environments=event.environments,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Project")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case ProjectUpdated():
                return replace(
                    self,
                    name=event.name,
                    description=event.description,
                    environments=event.environments,
                    updated_at=event.occurred_at,
                )
            case ProjectRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Project")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_key_(self.key_))
        found.extend(self.check_name(self.name))
        found.extend(self.check_description(self.description))
        found.extend(self.check_environments(self.environments))
        return found

    @classmethod
    def create(
        cls,
        *,
        key_: str,
        name: str,
        description: str,
        environments: list[str],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new project; fails when a value breaks a rule."""
        event = ProjectCreated(
            project_id=UUID(id) if id is not None else uuid4(),
            key_=key_,
            name=name,
            description=description,
            environments=environments,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def update(
        self, *, name: str, description: str, environments: list[str], now: datetime
    ) -> Self:
        """Apply update to this project; fails when a value breaks a rule or its guard."""
        event = ProjectUpdated(
            project_id=UUID(self.id),
            name=name,
            description=description,
            environments=environments,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this project; fails when a value breaks a rule or its guard."""
        event = ProjectRemoved(
            project_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_key_(value: str, path: str = "key") -> list[Violation]:
        """The rules of ``key`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[a-z0-9][a-z0-9-]{0,62})$", value):
            found.append(
                Violation(path, "Lowercase letters, digits and dashes, at most 63")
            )
        return found

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Name must not be blank"))
        if len(value) > 100:
            found.append(Violation(path, "Name allows at most 100 characters"))
        return found

    @staticmethod
    def check_description(value: str, path: str = "description") -> list[Violation]:
        """The rules of ``description`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 1000:
            found.append(Violation(path, "Description allows at most 1000 characters"))
        return found

    @staticmethod
    def check_environments(
        value: list[str], path: str = "environments"
    ) -> list[Violation]:
        """The rules of ``environments`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) < 1:
            found.append(Violation(path, "Environments needs at least 1 item"))
        if len(value) > 20:
            found.append(Violation(path, "Environments allows at most 20 items"))
        return found


@dataclass(frozen=True, kw_only=True)
class Segment(AggregateRoot[DomainEvent]):
    """A segment."""

    UNIQUE: ClassVar[tuple[str, ...]] = ("name",)

    name: str
    description: str = ""
    constraints: list[Constraint] = field(default_factory=list)

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case SegmentCreated():
                return cls(
                    id=str(event.segment_id),
                    name=event.name,
                    description=event.description,
                    constraints=event.constraints,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Segment")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case SegmentUpdated():
                return replace(
                    self,
                    name=event.name,
                    description=event.description,
                    constraints=event.constraints,
                    updated_at=event.occurred_at,
                )
            case SegmentRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Segment")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_name(self.name))
        found.extend(self.check_description(self.description))
        found.extend(self.check_constraints(self.constraints))
        return found

    @classmethod
    def create(
        cls,
        *,
        name: str,
        description: str,
        constraints: list[Constraint],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new segment; fails when a value breaks a rule."""
        event = SegmentCreated(
            segment_id=UUID(id) if id is not None else uuid4(),
            name=name,
            description=description,
            constraints=constraints,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def update(
        self,
        *,
        name: str,
        description: str,
        constraints: list[Constraint],
        now: datetime,
    ) -> Self:
        """Apply update to this segment; fails when a value breaks a rule or its guard."""
        event = SegmentUpdated(
            segment_id=UUID(self.id),
            name=name,
            description=description,
            constraints=constraints,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this segment; fails when a value breaks a rule or its guard."""
        event = SegmentRemoved(
            segment_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Name must not be blank"))
        if len(value) > 100:
            found.append(Violation(path, "Name allows at most 100 characters"))
        return found

    @staticmethod
    def check_description(value: str, path: str = "description") -> list[Violation]:
        """The rules of ``description`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 1000:
            found.append(Violation(path, "Description allows at most 1000 characters"))
        return found

    @staticmethod
    def check_constraints(
        value: list[Constraint], path: str = "constraints", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``constraints`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Constraints allows at most 100 items"))
        for index, item in enumerate(value if nested else []):
            found.extend(item.problems(f"{path}.{index}."))
        return found


@dataclass(frozen=True, kw_only=True)
class Flag(AggregateRoot[DomainEvent]):
    """A flag."""

    UNIQUE: ClassVar[tuple[str, ...]] = ("key_",)

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

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case FlagCreated():
                return cls(
                    id=str(event.flag_id),
                    key_=event.key_,
                    project_id=event.project_id,
                    description=event.description,
                    type_=event.type_,
                    impression_data=event.impression_data,
                    environments=event.environments,
                    variants=event.variants,
                    dependencies=event.dependencies,
                    stale=event.stale,
                    archived_=event.archived_,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Flag")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case FlagDescribed():
                return replace(
                    self,
                    description=event.description,
                    type_=event.type_,
                    impression_data=event.impression_data,
                    updated_at=event.occurred_at,
                )
            case FlagConfigured():
                return replace(
                    self,
                    environments=event.environments,
                    updated_at=event.occurred_at,
                )
            case FlagVariantsSet():
                return replace(
                    self,
                    variants=event.variants,
                    updated_at=event.occurred_at,
                )
            case FlagDependenciesSet():
                return replace(
                    self,
                    dependencies=event.dependencies,
                    updated_at=event.occurred_at,
                )
            case FlagStaleMarked():
                return replace(
                    self,
                    stale=event.stale,
                    updated_at=event.occurred_at,
                )
            case FlagArchivedEvent():
                return replace(
                    self,
                    archived_=event.archived_,
                    updated_at=event.occurred_at,
                )
            case FlagRevived():
                return replace(
                    self,
                    archived_=event.archived_,
                    updated_at=event.occurred_at,
                )
            case FlagRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Flag")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_key_(self.key_))
        found.extend(self.check_description(self.description))
        found.extend(self.check_environments(self.environments))
        found.extend(self.check_variants(self.variants))
        found.extend(self.check_dependencies(self.dependencies))
        if found:
            return found
        if not (sum(item_v.weight for item_v in self.variants) <= 1000):
            found.append(
                Violation("variants", "Variant weights add up to at most 1000")
            )
        if not (all((item_d.feature != self.key_) for item_d in self.dependencies)):
            found.append(Violation("dependencies", "A flag cannot depend on itself"))
        return found

    @classmethod
    def create(
        cls,
        *,
        key_: str,
        project_id: UUID,
        description: str,
        type_: FlagType,
        impression_data: bool,
        environments: dict[str, EnvironmentConfig],
        variants: list[Variant],
        dependencies: list[Dependency],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new flag; fails when a value breaks a rule."""
        event = FlagCreated(
            flag_id=UUID(id) if id is not None else uuid4(),
            key_=key_,
            project_id=project_id,
            description=description,
            type_=type_,
            impression_data=impression_data,
            environments=environments,
            variants=variants,
            dependencies=dependencies,
            stale=False,
            archived_=False,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def describe(
        self, *, description: str, type_: FlagType, impression_data: bool, now: datetime
    ) -> Self:
        """Apply describe to this flag; fails when a value breaks a rule or its guard."""
        DomainValidationError.raise_for(
            [
                *self.check_description(description),
            ]
        )
        if self.archived_:
            raise FlagArchived()
        event = FlagDescribed(
            flag_id=UUID(self.id),
            description=description,
            type_=type_,
            impression_data=impression_data,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def configure(
        self, *, environments: dict[str, EnvironmentConfig], now: datetime
    ) -> Self:
        """Apply configure to this flag; fails when a value breaks a rule or its guard."""
        DomainValidationError.raise_for(
            [
                *self.check_environments(environments),
            ]
        )
        if self.archived_:
            raise FlagArchived()
        event = FlagConfigured(
            flag_id=UUID(self.id),
            environments=environments,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def set_variants(self, *, variants: list[Variant], now: datetime) -> Self:
        """Apply setVariants to this flag; fails when a value breaks a rule or its guard."""
        DomainValidationError.raise_for(
            [
                *self.check_variants(variants),
            ]
        )
        if self.archived_:
            raise FlagArchived()
        event = FlagVariantsSet(
            flag_id=UUID(self.id),
            variants=variants,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def set_dependencies(
        self, *, dependencies: list[Dependency], now: datetime
    ) -> Self:
        """Apply setDependencies to this flag; fails when a value breaks a rule or its guard."""
        DomainValidationError.raise_for(
            [
                *self.check_dependencies(dependencies),
            ]
        )
        if self.archived_:
            raise FlagArchived()
        event = FlagDependenciesSet(
            flag_id=UUID(self.id),
            dependencies=dependencies,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def mark_stale(self, *, stale: bool, now: datetime) -> Self:
        """Apply markStale to this flag; fails when a value breaks a rule or its guard."""
        event = FlagStaleMarked(
            flag_id=UUID(self.id),
            stale=stale,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def archive(self, *, now: datetime) -> Self:
        """Apply archive to this flag; fails when a value breaks a rule or its guard."""
        if self.archived_:
            raise FlagArchived()
        archived_ = True
        event = FlagArchivedEvent(
            flag_id=UUID(self.id),
            archived_=archived_,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def revive(self, *, now: datetime) -> Self:
        """Apply revive to this flag; fails when a value breaks a rule or its guard."""
        if not (self.archived_):
            raise CommandNotAllowedError(
                "Flag.revive is not allowed in the current state"
            )
        archived_ = False
        event = FlagRevived(
            flag_id=UUID(self.id),
            archived_=archived_,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this flag; fails when a value breaks a rule or its guard."""
        if not (self.archived_):
            raise CommandNotAllowedError(
                "Flag.remove is not allowed in the current state"
            )
        event = FlagRemoved(
            flag_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_key_(value: str, path: str = "key") -> list[Violation]:
        """The rules of ``key`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99})$", value):
            found.append(Violation(path, "Letters, digits and . _ -, at most 100"))
        return found

    @staticmethod
    def check_description(value: str, path: str = "description") -> list[Violation]:
        """The rules of ``description`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 1000:
            found.append(Violation(path, "Description allows at most 1000 characters"))
        return found

    @staticmethod
    def check_environments(
        value: dict[str, EnvironmentConfig],
        path: str = "environments",
        *,
        nested: bool = True,
    ) -> list[Violation]:
        """The rules of ``environments`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 20:
            found.append(Violation(path, "Environments allows at most 20 items"))
        for key, item in (value if nested else {}).items():
            found.extend(item.problems(member_path(path, key) + "."))
        return found

    @staticmethod
    def check_variants(
        value: list[Variant], path: str = "variants", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``variants`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Variants allows at most 100 items"))
        for index, item in enumerate(value if nested else []):
            found.extend(item.problems(f"{path}.{index}."))
        return found

    @staticmethod
    def check_dependencies(
        value: list[Dependency], path: str = "dependencies", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``dependencies`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 20:
            found.append(Violation(path, "Dependencies allows at most 20 items"))
        for index, item in enumerate(value if nested else []):
            found.extend(item.problems(f"{path}.{index}."))
        return found


@dataclass(frozen=True, kw_only=True)
class UsageReport(AggregateRoot[DomainEvent]):
    """What an SDK instance (or the OFREP endpoints) evaluated in a time window"""

    app_name: str
    instance_id: str = "unknown"
    environment: str
    start: datetime
    stop: datetime
    toggles: dict[str, ToggleUsage] = field(default_factory=dict)

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case UsageRecorded():
                return cls(
                    id=str(event.usage_report_id),
                    app_name=event.app_name,
                    instance_id=event.instance_id,
                    environment=event.environment,
                    start=event.start,
                    stop=event.stop,
                    toggles=event.toggles,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a UsageReport")

    def apply(self, event: DomainEvent) -> Self:
        raise ValueError(
            f"{type(event).__name__} does not apply to a started UsageReport"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_app_name(self.app_name))
        found.extend(self.check_instance_id(self.instance_id))
        found.extend(self.check_environment(self.environment))
        found.extend(self.check_toggles(self.toggles))
        if found:
            return found
        if not (self.start <= self.stop):
            found.append(Violation("stop", "A report stops after it starts"))
        return found

    @classmethod
    def submit(
        cls,
        *,
        app_name: str,
        instance_id: str,
        environment: str,
        start: datetime,
        stop: datetime,
        toggles: dict[str, ToggleUsage],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """submit a new usage report; fails when a value breaks a rule."""
        event = UsageRecorded(
            usage_report_id=UUID(id) if id is not None else uuid4(),
            app_name=app_name,
            instance_id=instance_id,
            environment=environment,
            start=start,
            stop=stop,
            toggles=toggles,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    @staticmethod
    def check_app_name(value: str, path: str = "appName") -> list[Violation]:
        """The rules of ``appName`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "App name must not be blank"))
        if len(value) > 200:
            found.append(Violation(path, "App name allows at most 200 characters"))
        return found

    @staticmethod
    def check_instance_id(value: str, path: str = "instanceId") -> list[Violation]:
        """The rules of ``instanceId`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 200:
            found.append(Violation(path, "Instance id allows at most 200 characters"))
        return found

    @staticmethod
    def check_environment(value: str, path: str = "environment") -> list[Violation]:
        """The rules of ``environment`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Environment must not be blank"))
        if len(value) > 100:
            found.append(Violation(path, "Environment allows at most 100 characters"))
        return found

    @staticmethod
    def check_toggles(
        value: dict[str, ToggleUsage], path: str = "toggles", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``toggles`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 5000:
            found.append(Violation(path, "Toggles allows at most 5000 items"))
        for key, item in (value if nested else {}).items():
            found.extend(item.problems(member_path(path, key) + "."))
        return found
