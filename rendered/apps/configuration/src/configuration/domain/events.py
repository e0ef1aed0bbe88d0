# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Events of the configuration domain, with their schema versions. A field with a
default is filled with it when a stored event predates the field."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypeAlias
from uuid import UUID

from configuration.domain.types import Property


@dataclass(frozen=True, kw_only=True)
class PropertiesCreated:
    """Properties created (v1)."""

    property_set_id: UUID
    key_: str
    application: str
    profile: str
    label: str
    revision: int
    properties: dict[str, Property]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PropertiesChanged:
    """Properties changed (v1)."""

    property_set_id: UUID
    application: str
    profile: str
    label: str
    revision: int
    properties: dict[str, Property]
    rolled_back_to: int | None = None
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SchemaDefined:
    """Schema defined (v1)."""

    config_schema_id: UUID
    application: str
    document: str
    revision: int = 1
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SchemaRevised:
    """Schema revised (v1)."""

    config_schema_id: UUID
    document: str
    revision: int = 1
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SchemaRemoved:
    """Schema removed (v1)."""

    config_schema_id: UUID
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PropertiesRemoved:
    """Properties removed (v1)."""

    property_set_id: UUID
    occurred_at: datetime


DomainEvent: TypeAlias = (
    PropertiesCreated
    | PropertiesChanged
    | SchemaDefined
    | SchemaRevised
    | SchemaRemoved
    | PropertiesRemoved
)

SCHEMA_VERSIONS: dict[str, int] = {
    "PropertiesCreated": 1,
    "PropertiesChanged": 1,
    "SchemaDefined": 1,
    "SchemaRevised": 1,
    "SchemaRemoved": 1,
    "PropertiesRemoved": 1,
}
