"""Validating a license key (hand-written: the decision no spec says), answered with one
precise code, after Keygen's validation codes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from licensing.application.issuing import node_locked_limit
from licensing.application.ports.inbound import (
    LicenseUseCases,
    MachineUseCases,
    PolicyUseCases,
)
from licensing.application.ports.outbound import Clock
from licensing.domain.model import License, Machine, Policy
from licensing.domain.types import LicenseStatus

__all__ = ["Code", "Validation", "Validator"]


class Code(StrEnum):
    """Why a license is valid or not, checked in this order."""

    NOT_FOUND = "NOT_FOUND"
    REVOKED = "REVOKED"
    SUSPENDED = "SUSPENDED"
    EXPIRED = "EXPIRED"
    NO_MACHINE = "NO_MACHINE"
    FINGERPRINT_SCOPE_MISMATCH = "FINGERPRINT_SCOPE_MISMATCH"
    HEARTBEAT_DEAD = "HEARTBEAT_DEAD"
    TOO_MANY_MACHINES = "TOO_MANY_MACHINES"
    ENTITLEMENTS_MISSING = "ENTITLEMENTS_MISSING"
    VALID = "VALID"


@dataclass(frozen=True)
class Validation:
    """The answer: its code and why, and the license (with its policy) when one was found."""

    code: Code
    detail: str
    license: License | None = None
    policy: Policy | None = None
    machine: Machine | None = None
    entitlements: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return self.code is Code.VALID


class Validator:
    """Validates keys of the current tenant (another tenant's key is NOT_FOUND)."""

    def __init__(
        self,
        licenses: LicenseUseCases,
        policies: PolicyUseCases,
        machines: MachineUseCases,
        clock: Clock,
    ) -> None:
        self._licenses = licenses
        self._policies = policies
        self._machines = machines
        self._clock = clock

    async def validate(
        self,
        key: str,
        *,
        fingerprint: str | None = None,
        entitlements: Sequence[str] = (),
    ) -> Validation:
        """The code of ``key``, scoped to the machine ``fingerprint`` and requiring
        ``entitlements`` when given (read from the event store, not a read model)."""
        license = await self._licenses.get_by_key(key) if key else None
        if license is None:
            return Validation(Code.NOT_FOUND, "No license has this key")
        policy = await self._policies.get(str(license.policy_id))
        granted = tuple(policy.entitlements) if policy is not None else ()

        def answer(
            code: Code, detail: str, machine: Machine | None = None
        ) -> Validation:
            return Validation(code, detail, license, policy, machine, granted)

        now = self._clock.now()
        if license.status is LicenseStatus.REVOKED:
            return answer(Code.REVOKED, "The license is revoked")
        if license.status is LicenseStatus.SUSPENDED:
            return answer(Code.SUSPENDED, "The license is suspended")
        grace = timedelta(days=policy.grace_period_days if policy is not None else 0)
        if license.expires_at is not None and license.expires_at + grace <= now:
            return answer(
                Code.EXPIRED, f"The license expired at {_iso(license.expires_at)}"
            )
        node_locked = policy is None or not policy.floating
        machine = (
            await self._machines.get_by_fingerprint(fingerprint)
            if fingerprint
            else None
        )
        if machine is not None and str(machine.license_id) != license.id:
            machine = None
        if license.machine_count == 0 and (node_locked or fingerprint):
            return answer(Code.NO_MACHINE, "The license has no machine activated")
        if fingerprint and machine is None:
            return answer(
                Code.FINGERPRINT_SCOPE_MISMATCH,
                "No machine of the license has this fingerprint",
            )
        if machine is not None and _dead(machine, policy, now):
            return answer(
                Code.HEARTBEAT_DEAD, "The machine's heartbeat stopped", machine
            )
        limit = _machine_limit(license, policy)
        if limit is not None and license.machine_count > limit:
            return answer(
                Code.TOO_MANY_MACHINES,
                f"The license has {license.machine_count} machines, {limit} allowed",
                machine,
            )
        missing = sorted(set(entitlements) - set(granted))
        if missing:
            return answer(
                Code.ENTITLEMENTS_MISSING,
                f"Not entitled to: {', '.join(missing)}",
                machine,
            )
        detail = "The license is valid"
        if license.expires_at is not None and license.expires_at <= now:
            detail += " (expired, within its grace period)"
        return answer(Code.VALID, detail, machine)


def _machine_limit(license: License, policy: Policy | None) -> int | None:
    """The lower of the license's limit (set when issued) and its policy's today (which
    may have been lowered since): activation refuses beyond the first, validation
    reports a license over either."""
    limits = [license.max_machines]
    if policy is not None:
        limits.append(node_locked_limit(policy))
    found = [limit for limit in limits if limit is not None]
    return min(found) if found else None


def _dead(machine: Machine, policy: Policy | None, now: datetime) -> bool:
    """Whether a policy requiring heartbeats has not heard from ``machine`` in time."""
    if policy is None or policy.heartbeat_interval_seconds is None:
        return False
    last = machine.last_heartbeat_at or machine.created_at
    return last + timedelta(seconds=policy.heartbeat_interval_seconds) < now


def _iso(instant: datetime) -> str:
    return instant.isoformat().replace("+00:00", "Z")
