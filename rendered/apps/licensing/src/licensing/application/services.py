# Generated from spec licensing by `generate`; edits are merged on re-render.

"""The use cases of the licensing service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from eaf.eventsourcing import change_one, make_one

from licensing.application.ports.outbound import (
    Clock,
    Idempotency,
    LicenseListing,
    MachineListing,
    PolicyListing,
    ProductListing,
    Transaction,
    Transactions,
)
from licensing.domain.errors import (
    DomainValidationError,
    NotFoundError,
    Violation,
    every_violation,
    of_another,
)
from licensing.domain.model import License, Machine, Policy, Product


class ProductService:
    """Runs the Product use cases (implements ``ProductUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: ProductListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        code: str,
        name: str,
        url: str,
        metadata: dict[str, str],
        idempotency: Idempotency | None = None,
    ) -> Product:
        return await make_one(
            self._transactions,
            Product,
            lambda now: Product.create(
                code=code, name=name, url=url, metadata=metadata, now=now
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                code,
                name,
                url,
                metadata,
            ),
        )

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
        return await change_one(
            self._transactions,
            Product,
            id,
            lambda current, now: current.update(
                name=name, url=url, metadata=metadata, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Product not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "update",
                id,
                name,
                url,
                metadata,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Product:
        return await change_one(
            self._transactions,
            Product,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Product not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> Product | None:
        return await self._transactions.load(Product, id)

    async def get_by_code(self, code: str) -> Product | None:
        return await self._transactions.load_by(Product, "code", code)

    async def list(self) -> list[Product]:
        return await self._listing.list()


class PolicyService:
    """Runs the Policy use cases (implements ``PolicyUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: PolicyListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

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
        async def work(tx: Transaction) -> Policy:
            now = self._clock.now()
            product = await tx.get(Product, str(product_id))
            missing = [
                *(
                    [Violation("productId", "No product has this id")]
                    if product is None
                    else []
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                created = Policy.create(
                    product_id=product_id,
                    name=name,
                    duration_days=duration_days,
                    max_machines=max_machines,
                    floating=floating,
                    entitlements=entitlements,
                    grace_period_days=grace_period_days,
                    heartbeat_interval_seconds=heartbeat_interval_seconds,
                    now=now,
                )
            if missing or product is None:
                raise DomainValidationError.of(*missing)
            tx.keep(product)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                product_id,
                name,
                duration_days,
                max_machines,
                floating,
                entitlements,
                grace_period_days,
                heartbeat_interval_seconds,
            ),
            kind=Policy,
        )

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
        return await change_one(
            self._transactions,
            Policy,
            id,
            lambda current, now: current.update(
                name=name,
                duration_days=duration_days,
                max_machines=max_machines,
                floating=floating,
                entitlements=entitlements,
                grace_period_days=grace_period_days,
                heartbeat_interval_seconds=heartbeat_interval_seconds,
                now=now,
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Policy not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "update",
                id,
                name,
                duration_days,
                max_machines,
                floating,
                entitlements,
                grace_period_days,
                heartbeat_interval_seconds,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        return await change_one(
            self._transactions,
            Policy,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Policy not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> Policy | None:
        return await self._transactions.load(Policy, id)

    async def list(self) -> list[Policy]:
        return await self._listing.list()


class LicenseService:
    """Runs the License use cases (implements ``LicenseUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: LicenseListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

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
        async def work(tx: Transaction) -> License:
            now = self._clock.now()
            policy = await tx.get(Policy, str(policy_id))
            product = await tx.get(Product, str(product_id))
            missing = [
                *(
                    [Violation("policyId", "No policy has this id")]
                    if policy is None
                    else []
                ),
                *(
                    [Violation("productId", "No product has this id")]
                    if product is None
                    else []
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                created = License.create(
                    key_=key_,
                    policy_id=policy_id,
                    product_id=product_id,
                    name=name,
                    owner=owner,
                    expires_at=expires_at,
                    duration_days=duration_days,
                    max_machines=max_machines,
                    metadata=metadata,
                    now=now,
                )
            if missing or policy is None or product is None:
                raise DomainValidationError.of(*missing)
            tx.keep(policy)
            tx.keep(product)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                key_,
                policy_id,
                product_id,
                name,
                owner,
                expires_at,
                duration_days,
                max_machines,
                metadata,
            ),
            kind=License,
        )

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
        return await change_one(
            self._transactions,
            License,
            id,
            lambda current, now: current.update(
                name=name, owner=owner, metadata=metadata, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("License not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "update",
                id,
                name,
                owner,
                metadata,
            ),
        )

    async def suspend(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        return await change_one(
            self._transactions,
            License,
            id,
            lambda current, now: current.suspend(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("License not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "suspend",
                id,
            ),
        )

    async def reinstate(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        return await change_one(
            self._transactions,
            License,
            id,
            lambda current, now: current.reinstate(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("License not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "reinstate",
                id,
            ),
        )

    async def revoke(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        return await change_one(
            self._transactions,
            License,
            id,
            lambda current, now: current.revoke(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("License not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "revoke",
                id,
            ),
        )

    async def renew(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        return await change_one(
            self._transactions,
            License,
            id,
            lambda current, now: current.renew(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("License not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "renew",
                id,
            ),
        )

    async def claim_machine(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        return await change_one(
            self._transactions,
            License,
            id,
            lambda current, now: current.claim_machine(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("License not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "claimMachine",
                id,
            ),
        )

    async def release_machine(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> License:
        return await change_one(
            self._transactions,
            License,
            id,
            lambda current, now: current.release_machine(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("License not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "releaseMachine",
                id,
            ),
        )

    async def get(self, id: str) -> License | None:
        return await self._transactions.load(License, id)

    async def get_by_key(self, key_: str) -> License | None:
        return await self._transactions.load_by(License, "key_", key_)

    async def list(self) -> list[License]:
        return await self._listing.list()


class MachineService:
    """Runs the Machine use cases (implements ``MachineUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: MachineListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def activate(
        self,
        *,
        license_id: UUID,
        fingerprint: str,
        name: str,
        platform: str,
        idempotency: Idempotency | None = None,
    ) -> Machine:
        async def work(tx: Transaction) -> Machine:
            now = self._clock.now()
            license_ref = await tx.get(License, str(license_id))
            missing = [
                *(
                    [Violation("licenseId", "No license has this id")]
                    if license_ref is None
                    else []
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                created = Machine.activate(
                    license_id=license_id,
                    fingerprint=fingerprint,
                    name=name,
                    platform=platform,
                    now=now,
                )
            if missing or license_ref is None:
                raise DomainValidationError.of(*missing)
            with of_another("licenseId", "license"):
                tx.save(license_ref.claim_machine(now=now))
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "activate",
                license_id,
                fingerprint,
                name,
                platform,
            ),
            kind=Machine,
        )

    async def heartbeat(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Machine:
        return await change_one(
            self._transactions,
            Machine,
            id,
            lambda current, now: current.heartbeat(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Machine not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "heartbeat",
                id,
            ),
        )

    async def deactivate(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Machine:
        async def work(tx: Transaction) -> Machine:
            now = self._clock.now()
            current = await tx.get(Machine, id)
            if current is None:
                raise NotFoundError("Machine not found")
            tx.expect(current, expected_version)
            license_ref = await tx.get(License, str(current.license_id))
            missing = [
                *(
                    [Violation("licenseId", "No license has this id")]
                    if license_ref is None
                    else []
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                changed = current.deactivate(now=now)
            if missing or license_ref is None:
                raise DomainValidationError.of(*missing)
            with of_another("licenseId", "license"):
                tx.save(license_ref.release_machine(now=now))
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "deactivate",
                id,
            ),
            kind=Machine,
        )

    async def get(self, id: str) -> Machine | None:
        return await self._transactions.load(Machine, id)

    async def get_by_fingerprint(self, fingerprint: str) -> Machine | None:
        return await self._transactions.load_by(Machine, "fingerprint", fingerprint)

    async def list(self) -> list[Machine]:
        return await self._listing.list()
