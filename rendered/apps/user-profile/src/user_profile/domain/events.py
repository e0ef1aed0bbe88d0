# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Events of the user profile domain, with their schema versions. A field with a
default is filled with it when a stored event predates the field."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypeAlias
from uuid import UUID


@dataclass(frozen=True, kw_only=True)
class SampleUserProfileCreated:
    """Sample user profile created (v1)."""

    profile_id: UUID
    name: str
    email: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SampleUserProfileUpdated:
    """Sample user profile updated (v1)."""

    profile_id: UUID
    name: str
    email: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SampleUserProfileRemoved:
    """Sample user profile removed (v1)."""

    profile_id: UUID
    occurred_at: datetime


DomainEvent: TypeAlias = (
    SampleUserProfileCreated | SampleUserProfileUpdated | SampleUserProfileRemoved
)

SCHEMA_VERSIONS: dict[str, int] = {
    "SampleUserProfileCreated": 1,
    "SampleUserProfileUpdated": 1,
    "SampleUserProfileRemoved": 1,
}
