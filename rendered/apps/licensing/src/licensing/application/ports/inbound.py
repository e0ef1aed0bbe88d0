# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Input ports: the use cases the licensing service offers."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol
from uuid import UUID

from eaf.eventsourcing import Idempotency

from licensing.domain.model import License, Machine, Policy, Product


class ProductUseCases(Protocol):
    """What callers can do with product aggregates."""

    async def create(
        self,
        *,
        code: str,
        name: str,
        url: str,
        metadata: dict[str, str],
        idempotency: Idempotency | None = None,
    ) -> Product:
        """Create a product (create)."""
        ...

    async def update(
        self,
        id: str,
        *,
        name: str,
        url: str,
        metadata: dict[str, str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Product:
        """Apply update to the product with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Product:
        """Apply remove to the product with this id."""
        ...

    async def get(self, id: str) -> Product | None:
        """The product with this id, or None."""
        ...

    async def get_by_code(self, code: str) -> Product | None:
        """The product with this code, or None."""
        ...

    async def list(self) -> list[Product]:
        """Every product of the tenant (from the read model: eventually consistent)."""
        ...


class PolicyUseCases(Protocol):
    """What callers can do with policy aggregates."""

    async def create(
        self,
        *,
        product_id: UUID,
        name: str,
        duration_days: int | None,
        max_machines: int | None,
        floating: bool,
        entitlements: list[str],
        grace_period_days: int,
        heartbeat_interval_seconds: int | None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Create a policy (create)."""
        ...

    async def update(
        self,
        id: str,
        *,
        name: str,
        duration_days: int | None,
        max_machines: int | None,
        floating: bool,
        entitlements: list[str],
        grace_period_days: int,
        heartbeat_interval_seconds: int | None,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Apply update to the policy with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Apply remove to the policy with this id."""
        ...

    async def get(self, id: str) -> Policy | None:
        """The policy with this id, or None."""
        ...

    async def list(self) -> list[Policy]:
        """Every policy of the tenant (from the read model: eventually consistent)."""
        ...


class LicenseUseCases(Protocol):
    """What callers can do with license aggregates."""

    async def create(
        self,
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
        idempotency: Idempotency | None = None,
    ) -> License:
        """Create a license (create)."""
        ...

    async def update(
        self,
        id: str,
        *,
        name: str,
        owner: str,
        metadata: dict[str, str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        """Apply update to the license with this id."""
        ...

    async def suspend(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        """Apply suspend to the license with this id."""
        ...

    async def reinstate(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        """Apply reinstate to the license with this id."""
        ...

    async def revoke(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        """Apply revoke to the license with this id."""
        ...

    async def renew(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        """Apply renew to the license with this id."""
        ...

    async def claim_machine(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        """Apply claimMachine to the license with this id."""
        ...

    async def release_machine(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        """Apply releaseMachine to the license with this id."""
        ...

    async def get(self, id: str) -> License | None:
        """The license with this id, or None."""
        ...

    async def get_by_key(self, key_: str) -> License | None:
        """The license with this key, or None."""
        ...

    async def list(self) -> list[License]:
        """Every license of the tenant (from the read model: eventually consistent)."""
        ...


class MachineUseCases(Protocol):
    """What callers can do with machine aggregates."""

    async def activate(
        self,
        *,
        license_id: UUID,
        fingerprint: str,
        name: str,
        platform: str,
        idempotency: Idempotency | None = None,
    ) -> Machine:
        """Create a machine (activate)."""
        ...

    async def heartbeat(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Machine:
        """Apply heartbeat to the machine with this id."""
        ...

    async def deactivate(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Machine:
        """Apply deactivate to the machine with this id."""
        ...

    async def get(self, id: str) -> Machine | None:
        """The machine with this id, or None."""
        ...

    async def get_by_fingerprint(self, fingerprint: str) -> Machine | None:
        """The machine with this fingerprint, or None."""
        ...

    async def list(self) -> list[Machine]:
        """Every machine of the tenant (from the read model: eventually consistent)."""
        ...
