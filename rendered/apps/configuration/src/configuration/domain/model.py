# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Configuration aggregates: event-sourced state, rules, and the events their
commands emit (the state is the fold of those events)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import ClassVar, Self
from uuid import UUID, uuid4

from eaf.domain import AggregateRoot

from configuration.domain.errors import (
    Violation,
    is_blank,
    matches,
    member_path,
)
from configuration.domain.events import (
    DomainEvent,
    PropertiesChanged,
    PropertiesCreated,
    PropertiesRemoved,
    SchemaDefined,
    SchemaRemoved,
    SchemaRevised,
)
from configuration.domain.types import Property


@dataclass(frozen=True, kw_only=True)
class ConfigSchema(AggregateRoot[DomainEvent]):
    """The JSON Schema the property sets of an application must satisfy"""

    UNIQUE: ClassVar[tuple[str, ...]] = ("application",)

    application: str
    document: str
    revision: int = 1

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case SchemaDefined():
                return cls(
                    id=str(event.config_schema_id),
                    application=event.application,
                    document=event.document,
                    revision=event.revision,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a ConfigSchema")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case SchemaRevised():
                return replace(
                    self,
                    document=event.document,
                    revision=event.revision,
                    updated_at=event.occurred_at,
                )
            case SchemaRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started ConfigSchema"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_application(self.application))
        found.extend(self.check_document(self.document))
        found.extend(self.check_revision(self.revision))
        return found

    @classmethod
    def define(
        cls, *, application: str, document: str, now: datetime, id: str | None = None
    ) -> Self:
        """define a new config schema; fails when a value breaks a rule."""
        event = SchemaDefined(
            config_schema_id=UUID(id) if id is not None else uuid4(),
            application=application,
            document=document,
            revision=1,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def revise(self, *, document: str, now: datetime) -> Self:
        """Apply revise to this config schema; fails when a value breaks a rule or its guard."""
        revision = self.revision + 1
        event = SchemaRevised(
            config_schema_id=UUID(self.id),
            document=document,
            revision=revision,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this config schema; fails when a value breaks a rule or its guard."""
        event = SchemaRemoved(
            config_schema_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_application(value: str, path: str = "application") -> list[Violation]:
        """The rules of ``application`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[a-z][a-z0-9-]{0,62})$", value):
            found.append(
                Violation(path, "Lowercase letters, digits and dashes, at most 63")
            )
        return found

    @staticmethod
    def check_document(value: str, path: str = "document") -> list[Violation]:
        """The rules of ``document`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Document must not be blank"))
        if len(value) > 65536:
            found.append(Violation(path, "Document allows at most 65536 characters"))
        return found

    @staticmethod
    def check_revision(value: int, path: str = "revision") -> list[Violation]:
        """The rules of ``revision`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 1:
            found.append(Violation(path, "Revision must be at least 1"))
        return found


@dataclass(frozen=True, kw_only=True)
class PropertySet(AggregateRoot[DomainEvent]):
    """The properties of one application in one profile and label; every change is a new revision"""

    UNIQUE: ClassVar[tuple[str, ...]] = ("key_",)

    key_: str
    application: str
    profile: str
    label: str = "main"
    properties: dict[str, Property] = field(default_factory=dict)
    revision: int = 1

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case PropertiesCreated():
                return cls(
                    id=str(event.property_set_id),
                    key_=event.key_,
                    application=event.application,
                    profile=event.profile,
                    label=event.label,
                    properties=event.properties,
                    revision=event.revision,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a PropertySet")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case PropertiesChanged():
                return replace(
                    self,
                    application=event.application,
                    profile=event.profile,
                    label=event.label,
                    properties=event.properties,
                    revision=event.revision,
                    updated_at=event.occurred_at,
                )
            case PropertiesRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started PropertySet"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_key_(self.key_))
        found.extend(self.check_application(self.application))
        found.extend(self.check_profile(self.profile))
        found.extend(self.check_label(self.label))
        found.extend(self.check_properties(self.properties))
        found.extend(self.check_revision(self.revision))
        return found

    @classmethod
    def create(
        cls,
        *,
        key_: str,
        application: str,
        profile: str,
        label: str,
        properties: dict[str, Property],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new property set; fails when a value breaks a rule."""
        event = PropertiesCreated(
            property_set_id=UUID(id) if id is not None else uuid4(),
            key_=key_,
            application=application,
            profile=profile,
            label=label,
            revision=1,
            properties=properties,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change(
        self,
        *,
        properties: dict[str, Property],
        rolled_back_to: int | None,
        now: datetime,
    ) -> Self:
        """Apply change to this property set; fails when a value breaks a rule or its guard."""
        revision = self.revision + 1
        event = PropertiesChanged(
            property_set_id=UUID(self.id),
            application=self.application,
            profile=self.profile,
            label=self.label,
            revision=revision,
            properties=properties,
            rolled_back_to=rolled_back_to,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this property set; fails when a value breaks a rule or its guard."""
        event = PropertiesRemoved(
            property_set_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_key_(value: str, path: str = "key") -> list[Violation]:
        """The rules of ``key`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches(
            "^(?:[a-z][a-z0-9-]{0,62}:[A-Za-z0-9][A-Za-z0-9_.-]{0,62}:[A-Za-z0-9][A-Za-z0-9_.-]{0,99})$",
            value,
        ):
            found.append(
                Violation(
                    path,
                    "Key must match ^[a-z][a-z0-9-]{0,62}:[A-Za-z0-9][A-Za-z0-9_.-]{0,62}:[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$",
                )
            )
        return found

    @staticmethod
    def check_application(value: str, path: str = "application") -> list[Violation]:
        """The rules of ``application`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[a-z][a-z0-9-]{0,62})$", value):
            found.append(
                Violation(path, "Application must match ^[a-z][a-z0-9-]{0,62}$")
            )
        return found

    @staticmethod
    def check_profile(value: str, path: str = "profile") -> list[Violation]:
        """The rules of ``profile`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,62})$", value):
            found.append(
                Violation(path, "Profile must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")
            )
        return found

    @staticmethod
    def check_label(value: str, path: str = "label") -> list[Violation]:
        """The rules of ``label`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,99})$", value):
            found.append(
                Violation(path, "Label must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
            )
        return found

    @staticmethod
    def check_properties(
        value: dict[str, Property], path: str = "properties", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``properties`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 1000:
            found.append(Violation(path, "Properties allows at most 1000 items"))
        for key, item in (value if nested else {}).items():
            found.extend(item.problems(member_path(path, key) + "."))
        return found

    @staticmethod
    def check_revision(value: int, path: str = "revision") -> list[Violation]:
        """The rules of ``revision`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 1:
            found.append(Violation(path, "Revision must be at least 1"))
        return found
