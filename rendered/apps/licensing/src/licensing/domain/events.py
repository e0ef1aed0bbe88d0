# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Events of the licensing domain, with their schema versions. A field with a
default is filled with it when a stored event predates the field."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeAlias
from uuid import UUID

from licensing.domain.types import LicenseStatus


@dataclass(frozen=True, kw_only=True)
class ProductCreated:
    """Product created (v1)."""

    product_id: UUID
    code: str
    name: str
    url: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ProductUpdated:
    """Product updated (v1)."""

    product_id: UUID
    name: str
    url: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ProductRemoved:
    """Product removed (v1)."""

    product_id: UUID
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PolicyCreated:
    """Policy created (v1)."""

    policy_id: UUID
    product_id: UUID
    name: str
    duration_days: int | None = None
    max_machines: int | None = None
    floating: bool = False
    entitlements: list[str] = field(default_factory=list)
    grace_period_days: int = 0
    heartbeat_interval_seconds: int | None = None
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PolicyUpdated:
    """Policy updated (v1)."""

    policy_id: UUID
    name: str
    duration_days: int | None = None
    max_machines: int | None = None
    floating: bool = False
    entitlements: list[str] = field(default_factory=list)
    grace_period_days: int = 0
    heartbeat_interval_seconds: int | None = None
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PolicyRemoved:
    """Policy removed (v1)."""

    policy_id: UUID
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LicenseCreated:
    """License created (v1)."""

    license_id: UUID
    key_: str = ""
    policy_id: UUID
    product_id: UUID
    name: str = ""
    owner: str = ""
    expires_at: datetime | None = None
    duration_days: int = 0
    max_machines: int | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    status: LicenseStatus = LicenseStatus.ACTIVE
    machine_count: int = 0
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LicenseUpdated:
    """License updated (v1)."""

    license_id: UUID
    name: str = ""
    owner: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LicenseSuspended:
    """License suspended (v1)."""

    license_id: UUID
    status: LicenseStatus = LicenseStatus.ACTIVE
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LicenseReinstated:
    """License reinstated (v1)."""

    license_id: UUID
    status: LicenseStatus = LicenseStatus.ACTIVE
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LicenseRevokedEvent:
    """License revoked event (v1)."""

    license_id: UUID
    status: LicenseStatus = LicenseStatus.ACTIVE
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LicenseRenewed:
    """License renewed (v1)."""

    license_id: UUID
    expires_at: datetime | None = None
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class MachineClaimed:
    """Machine claimed (v1)."""

    license_id: UUID
    machine_count: int = 0
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class MachineReleased:
    """Machine released (v1)."""

    license_id: UUID
    machine_count: int = 0
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class MachineActivated:
    """Machine activated (v1)."""

    machine_id: UUID
    license_id: UUID
    fingerprint: str
    name: str = ""
    platform: str = ""
    last_heartbeat_at: datetime | None = None
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class MachineHeartbeat:
    """Machine heartbeat (v1)."""

    machine_id: UUID
    last_heartbeat_at: datetime | None = None
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class MachineDeactivated:
    """Machine deactivated (v1)."""

    machine_id: UUID
    occurred_at: datetime


DomainEvent: TypeAlias = (
    ProductCreated
    | ProductUpdated
    | ProductRemoved
    | PolicyCreated
    | PolicyUpdated
    | PolicyRemoved
    | LicenseCreated
    | LicenseUpdated
    | LicenseSuspended
    | LicenseReinstated
    | LicenseRevokedEvent
    | LicenseRenewed
    | MachineClaimed
    | MachineReleased
    | MachineActivated
    | MachineHeartbeat
    | MachineDeactivated
)

SCHEMA_VERSIONS: dict[str, int] = {
    "ProductCreated": 1,
    "ProductUpdated": 1,
    "ProductRemoved": 1,
    "PolicyCreated": 1,
    "PolicyUpdated": 1,
    "PolicyRemoved": 1,
    "LicenseCreated": 1,
    "LicenseUpdated": 1,
    "LicenseSuspended": 1,
    "LicenseReinstated": 1,
    "LicenseRevokedEvent": 1,
    "LicenseRenewed": 1,
    "MachineClaimed": 1,
    "MachineReleased": 1,
    "MachineActivated": 1,
    "MachineHeartbeat": 1,
    "MachineDeactivated": 1,
}
