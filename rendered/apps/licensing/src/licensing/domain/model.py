# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Licensing aggregates: event-sourced state, rules, and the events their
commands emit (the state is the fold of those events)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import ClassVar, Self
from uuid import UUID, uuid4

from eaf.domain import AggregateRoot

from licensing.domain.errors import (
    CommandNotAllowedError,
    LicenseNotActive,
    LicenseNotSuspended,
    LicenseRevoked,
    NotRenewable,
    TooManyMachines,
    Violation,
    computing,
    is_blank,
    matches,
)
from licensing.domain.events import (
    DomainEvent,
    LicenseCreated,
    LicenseReinstated,
    LicenseRenewed,
    LicenseRevokedEvent,
    LicenseSuspended,
    LicenseUpdated,
    MachineActivated,
    MachineClaimed,
    MachineDeactivated,
    MachineHeartbeat,
    MachineReleased,
    PolicyCreated,
    PolicyRemoved,
    PolicyUpdated,
    ProductCreated,
    ProductRemoved,
    ProductUpdated,
)
from licensing.domain.types import LicenseStatus


@dataclass(frozen=True, kw_only=True)
class Product(AggregateRoot[DomainEvent]):
    """A product."""

    UNIQUE: ClassVar[tuple[str, ...]] = ("code",)

    code: str
    name: str
    url: str = ""
    metadata: dict[str, str] = field(default_factory=dict)

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case ProductCreated():
                return cls(
                    id=str(event.product_id),
                    code=event.code,
                    name=event.name,
                    url=event.url,
                    metadata=event.metadata,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Product")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case ProductUpdated():
                return replace(
                    self,
                    name=event.name,
                    url=event.url,
                    metadata=event.metadata,
                    updated_at=event.occurred_at,
                )
            case ProductRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Product")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_code(self.code))
        found.extend(self.check_name(self.name))
        found.extend(self.check_url(self.url))
        found.extend(self.check_metadata(self.metadata))
        return found

    @classmethod
    def create(
        cls,
        *,
        code: str,
        name: str,
        url: str,
        metadata: dict[str, str],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new product; fails when a value breaks a rule."""
        event = ProductCreated(
            product_id=UUID(id) if id is not None else uuid4(),
            code=code,
            name=name,
            url=url,
            metadata=metadata,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def update(
        self, *, name: str, url: str, metadata: dict[str, str], now: datetime
    ) -> Self:
        """Apply update to this product; fails when a value breaks a rule or its guard."""
        event = ProductUpdated(
            product_id=UUID(self.id),
            name=name,
            url=url,
            metadata=metadata,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this product; fails when a value breaks a rule or its guard."""
        event = ProductRemoved(
            product_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_code(value: str, path: str = "code") -> list[Violation]:
        """The rules of ``code`` that ``value`` breaks."""
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
        if len(value) > 200:
            found.append(Violation(path, "Name allows at most 200 characters"))
        return found

    @staticmethod
    def check_url(value: str, path: str = "url") -> list[Violation]:
        """The rules of ``url`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 2000:
            found.append(Violation(path, "Url allows at most 2000 characters"))
        return found

    @staticmethod
    def check_metadata(
        value: dict[str, str], path: str = "metadata"
    ) -> list[Violation]:
        """The rules of ``metadata`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 50:
            found.append(Violation(path, "Metadata allows at most 50 items"))
        return found


@dataclass(frozen=True, kw_only=True)
class Policy(AggregateRoot[DomainEvent]):
    """The terms licenses are issued under"""

    product_id: UUID
    name: str
    duration_days: int | None = None
    max_machines: int | None = None
    floating: bool = False
    entitlements: list[str] = field(default_factory=list)
    grace_period_days: int = 0
    heartbeat_interval_seconds: int | None = None

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case PolicyCreated():
                return cls(
                    id=str(event.policy_id),
                    product_id=event.product_id,
                    name=event.name,
                    duration_days=event.duration_days,
                    max_machines=event.max_machines,
                    floating=event.floating,
                    entitlements=event.entitlements,
                    grace_period_days=event.grace_period_days,
                    heartbeat_interval_seconds=event.heartbeat_interval_seconds,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Policy")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case PolicyUpdated():
                return replace(
                    self,
                    name=event.name,
                    duration_days=event.duration_days,
                    max_machines=event.max_machines,
                    floating=event.floating,
                    entitlements=event.entitlements,
                    grace_period_days=event.grace_period_days,
                    heartbeat_interval_seconds=event.heartbeat_interval_seconds,
                    updated_at=event.occurred_at,
                )
            case PolicyRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Policy")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_name(self.name))
        found.extend(self.check_duration_days(self.duration_days))
        found.extend(self.check_max_machines(self.max_machines))
        found.extend(self.check_entitlements(self.entitlements))
        found.extend(self.check_grace_period_days(self.grace_period_days))
        found.extend(
            self.check_heartbeat_interval_seconds(self.heartbeat_interval_seconds)
        )
        if found:
            return found
        if not (
            self.floating or (self.max_machines is None) or (self.max_machines == 1)
        ):
            found.append(
                Violation("maxMachines", "A node-locked policy allows one machine")
            )
        return found

    @classmethod
    def create(
        cls,
        *,
        product_id: UUID,
        name: str,
        duration_days: int | None,
        max_machines: int | None,
        floating: bool,
        entitlements: list[str],
        grace_period_days: int,
        heartbeat_interval_seconds: int | None,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new policy; fails when a value breaks a rule."""
        event = PolicyCreated(
            policy_id=UUID(id) if id is not None else uuid4(),
            product_id=product_id,
            name=name,
            duration_days=duration_days,
            max_machines=max_machines,
            floating=floating,
            entitlements=entitlements,
            grace_period_days=grace_period_days,
            heartbeat_interval_seconds=heartbeat_interval_seconds,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def update(
        self,
        *,
        name: str,
        duration_days: int | None,
        max_machines: int | None,
        floating: bool,
        entitlements: list[str],
        grace_period_days: int,
        heartbeat_interval_seconds: int | None,
        now: datetime,
    ) -> Self:
        """Apply update to this policy; fails when a value breaks a rule or its guard."""
        event = PolicyUpdated(
            policy_id=UUID(self.id),
            name=name,
            duration_days=duration_days,
            max_machines=max_machines,
            floating=floating,
            entitlements=entitlements,
            grace_period_days=grace_period_days,
            heartbeat_interval_seconds=heartbeat_interval_seconds,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this policy; fails when a value breaks a rule or its guard."""
        event = PolicyRemoved(
            policy_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Name must not be blank"))
        if len(value) > 200:
            found.append(Violation(path, "Name allows at most 200 characters"))
        return found

    @staticmethod
    def check_duration_days(
        value: int | None, path: str = "durationDays"
    ) -> list[Violation]:
        """The rules of ``durationDays`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        if value < 1:
            found.append(Violation(path, "Duration days must be at least 1"))
        if value > 36500:
            found.append(Violation(path, "Duration days must be at most 36500"))
        return found

    @staticmethod
    def check_max_machines(
        value: int | None, path: str = "maxMachines"
    ) -> list[Violation]:
        """The rules of ``maxMachines`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        if value < 1:
            found.append(Violation(path, "Max machines must be at least 1"))
        if value > 100000:
            found.append(Violation(path, "Max machines must be at most 100000"))
        return found

    @staticmethod
    def check_entitlements(
        value: list[str], path: str = "entitlements"
    ) -> list[Violation]:
        """The rules of ``entitlements`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Entitlements allows at most 100 items"))
        return found

    @staticmethod
    def check_grace_period_days(
        value: int, path: str = "gracePeriodDays"
    ) -> list[Violation]:
        """The rules of ``gracePeriodDays`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 0:
            found.append(Violation(path, "Grace period days must be at least 0"))
        if value > 365:
            found.append(Violation(path, "Grace period days must be at most 365"))
        return found

    @staticmethod
    def check_heartbeat_interval_seconds(
        value: int | None, path: str = "heartbeatIntervalSeconds"
    ) -> list[Violation]:
        """The rules of ``heartbeatIntervalSeconds`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        if value < 60:
            found.append(
                Violation(path, "Heartbeat interval seconds must be at least 60")
            )
        if value > 31536000:
            found.append(
                Violation(path, "Heartbeat interval seconds must be at most 31536000")
            )
        return found


@dataclass(frozen=True, kw_only=True)
class License(AggregateRoot[DomainEvent]):
    """A license."""

    UNIQUE: ClassVar[tuple[str, ...]] = ("key_",)

    key_: str = ""
    policy_id: UUID
    product_id: UUID
    name: str = ""
    owner: str = ""
    expires_at: datetime | None = None
    duration_days: int = 0
    max_machines: int | None = None
    status: LicenseStatus = LicenseStatus.ACTIVE
    machine_count: int = 0
    metadata: dict[str, str] = field(default_factory=dict)

    def expired(self, now: datetime) -> bool:
        """Computed: expired"""
        return (self.expires_at is not None) and (self.expires_at <= now)

    def effective_status(self, now: datetime) -> LicenseStatus:
        """Computed: effectiveStatus"""
        return (
            LicenseStatus.EXPIRED
            if (
                (self.status == LicenseStatus.ACTIVE)
                and (self.expires_at is not None)
                and (self.expires_at <= now)
            )
            else self.status
        )

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case LicenseCreated():
                return cls(
                    id=str(event.license_id),
                    key_=event.key_,
                    policy_id=event.policy_id,
                    product_id=event.product_id,
                    name=event.name,
                    owner=event.owner,
                    expires_at=event.expires_at,
                    duration_days=event.duration_days,
                    max_machines=event.max_machines,
                    status=event.status,
                    machine_count=event.machine_count,
                    metadata=event.metadata,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a License")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case LicenseUpdated():
                return replace(
                    self,
                    name=event.name,
                    owner=event.owner,
                    metadata=event.metadata,
                    updated_at=event.occurred_at,
                )
            case LicenseSuspended():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
            case LicenseReinstated():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
            case LicenseRevokedEvent():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
            case LicenseRenewed():
                return replace(
                    self,
                    expires_at=event.expires_at,
                    updated_at=event.occurred_at,
                )
            case MachineClaimed():
                return replace(
                    self,
                    machine_count=event.machine_count,
                    updated_at=event.occurred_at,
                )
            case MachineReleased():
                return replace(
                    self,
                    machine_count=event.machine_count,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started License")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_key_(self.key_))
        found.extend(self.check_name(self.name))
        found.extend(self.check_owner(self.owner))
        found.extend(self.check_duration_days(self.duration_days))
        found.extend(self.check_max_machines(self.max_machines))
        found.extend(self.check_machine_count(self.machine_count))
        found.extend(self.check_metadata(self.metadata))
        return found

    @classmethod
    def create(
        cls,
        *,
        key_: str,
        policy_id: UUID,
        product_id: UUID,
        name: str,
        owner: str,
        expires_at: datetime | None,
        duration_days: int,
        max_machines: int | None,
        metadata: dict[str, str],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new license; fails when a value breaks a rule."""
        event = LicenseCreated(
            license_id=UUID(id) if id is not None else uuid4(),
            key_=key_,
            policy_id=policy_id,
            product_id=product_id,
            name=name,
            owner=owner,
            expires_at=expires_at,
            duration_days=duration_days,
            max_machines=max_machines,
            metadata=metadata,
            status=LicenseStatus.ACTIVE,
            machine_count=0,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def update(
        self, *, name: str, owner: str, metadata: dict[str, str], now: datetime
    ) -> Self:
        """Apply update to this license; fails when a value breaks a rule or its guard."""
        event = LicenseUpdated(
            license_id=UUID(self.id),
            name=name,
            owner=owner,
            metadata=metadata,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def suspend(self, *, now: datetime) -> Self:
        """Apply suspend to this license; fails when a value breaks a rule or its guard."""
        if self.status != LicenseStatus.ACTIVE:
            raise LicenseNotActive()
        status = LicenseStatus.SUSPENDED
        event = LicenseSuspended(
            license_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def reinstate(self, *, now: datetime) -> Self:
        """Apply reinstate to this license; fails when a value breaks a rule or its guard."""
        if self.status != LicenseStatus.SUSPENDED:
            raise LicenseNotSuspended()
        status = LicenseStatus.ACTIVE
        event = LicenseReinstated(
            license_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def revoke(self, *, now: datetime) -> Self:
        """Apply revoke to this license; fails when a value breaks a rule or its guard."""
        if self.status == LicenseStatus.REVOKED:
            raise LicenseRevoked()
        status = LicenseStatus.REVOKED
        event = LicenseRevokedEvent(
            license_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def renew(self, *, now: datetime) -> Self:
        """Apply renew to this license; fails when a value breaks a rule or its guard."""
        if not ((self.status != LicenseStatus.REVOKED) and (self.duration_days > 0)):
            raise NotRenewable()
        with computing("expiresAt", "Expires at"):
            expires_at = now + timedelta(days=self.duration_days)
        event = LicenseRenewed(
            license_id=UUID(self.id),
            expires_at=expires_at,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def claim_machine(self, *, now: datetime) -> Self:
        """Apply claimMachine to this license; fails when a value breaks a rule or its guard."""
        if not (
            (self.max_machines is None) or (self.machine_count < self.max_machines)
        ):
            raise TooManyMachines()
        machine_count = self.machine_count + 1
        event = MachineClaimed(
            license_id=UUID(self.id),
            machine_count=machine_count,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def release_machine(self, *, now: datetime) -> Self:
        """Apply releaseMachine to this license; fails when a value breaks a rule or its guard."""
        if not (self.machine_count > 0):
            raise CommandNotAllowedError(
                "License.releaseMachine is not allowed in the current state"
            )
        machine_count = self.machine_count - 1
        event = MachineReleased(
            license_id=UUID(self.id),
            machine_count=machine_count,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_key_(value: str, path: str = "key") -> list[Violation]:
        """The rules of ``key`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:([A-Z0-9]{4,8}(-[A-Z0-9]{4,8}){1,7})?)$", value):
            found.append(
                Violation(
                    path, "Groups of 4 to 8 capital letters or digits joined by dashes"
                )
            )
        return found

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 200:
            found.append(Violation(path, "Name allows at most 200 characters"))
        return found

    @staticmethod
    def check_owner(value: str, path: str = "owner") -> list[Violation]:
        """The rules of ``owner`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 320:
            found.append(Violation(path, "Owner allows at most 320 characters"))
        return found

    @staticmethod
    def check_duration_days(value: int, path: str = "durationDays") -> list[Violation]:
        """The rules of ``durationDays`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 0:
            found.append(Violation(path, "Duration days must be at least 0"))
        if value > 36500:
            found.append(Violation(path, "Duration days must be at most 36500"))
        return found

    @staticmethod
    def check_max_machines(
        value: int | None, path: str = "maxMachines"
    ) -> list[Violation]:
        """The rules of ``maxMachines`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        if value < 1:
            found.append(Violation(path, "Max machines must be at least 1"))
        if value > 100000:
            found.append(Violation(path, "Max machines must be at most 100000"))
        return found

    @staticmethod
    def check_machine_count(value: int, path: str = "machineCount") -> list[Violation]:
        """The rules of ``machineCount`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 0:
            found.append(Violation(path, "Machine count must be at least 0"))
        return found

    @staticmethod
    def check_metadata(
        value: dict[str, str], path: str = "metadata"
    ) -> list[Violation]:
        """The rules of ``metadata`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 50:
            found.append(Violation(path, "Metadata allows at most 50 items"))
        return found


@dataclass(frozen=True, kw_only=True)
class Machine(AggregateRoot[DomainEvent]):
    """A device a license is activated on, known by its fingerprint"""

    UNIQUE: ClassVar[tuple[str, ...]] = ("fingerprint",)

    license_id: UUID
    fingerprint: str
    name: str = ""
    platform: str = ""
    last_heartbeat_at: datetime | None = None

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case MachineActivated():
                return cls(
                    id=str(event.machine_id),
                    license_id=event.license_id,
                    fingerprint=event.fingerprint,
                    name=event.name,
                    platform=event.platform,
                    last_heartbeat_at=event.last_heartbeat_at,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Machine")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case MachineHeartbeat():
                return replace(
                    self,
                    last_heartbeat_at=event.last_heartbeat_at,
                    updated_at=event.occurred_at,
                )
            case MachineDeactivated():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Machine")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_fingerprint(self.fingerprint))
        found.extend(self.check_name(self.name))
        found.extend(self.check_platform(self.platform))
        return found

    @classmethod
    def activate(
        cls,
        *,
        license_id: UUID,
        fingerprint: str,
        name: str,
        platform: str,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """activate a new machine; fails when a value breaks a rule."""
        last_heartbeat_at = now
        event = MachineActivated(
            machine_id=UUID(id) if id is not None else uuid4(),
            license_id=license_id,
            fingerprint=fingerprint,
            name=name,
            platform=platform,
            last_heartbeat_at=last_heartbeat_at,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def heartbeat(self, *, now: datetime) -> Self:
        """Apply heartbeat to this machine; fails when a value breaks a rule or its guard."""
        last_heartbeat_at = now
        event = MachineHeartbeat(
            machine_id=UUID(self.id),
            last_heartbeat_at=last_heartbeat_at,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def deactivate(self, *, now: datetime) -> Self:
        """Apply deactivate to this machine; fails when a value breaks a rule or its guard."""
        event = MachineDeactivated(
            machine_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_fingerprint(value: str, path: str = "fingerprint") -> list[Violation]:
        """The rules of ``fingerprint`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9:._-]{1,200})$", value):
            found.append(Violation(path, "Letters, digits and : . _ -, at most 200"))
        return found

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 200:
            found.append(Violation(path, "Name allows at most 200 characters"))
        return found

    @staticmethod
    def check_platform(value: str, path: str = "platform") -> list[Violation]:
        """The rules of ``platform`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Platform allows at most 100 characters"))
        return found
