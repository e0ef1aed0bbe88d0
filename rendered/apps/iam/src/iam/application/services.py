# Generated from spec iam by `generate`; edits are merged on re-render.

"""The use cases of the iam service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

from eaf.eventsourcing import change_one, make_one

from iam.application.ports.outbound import Clock, Idempotency, Transactions
from iam.domain.errors import NotFoundError
from iam.domain.model import Role, ServiceAccount


class RoleService:
    """Runs the Role use cases (implements ``RoleUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
    ) -> None:
        self._transactions = transactions
        self._clock = clock

    async def create(
        self,
        *,
        name: str,
        permissions: list[str],
        idempotency: Idempotency | None = None,
    ) -> Role:
        return await make_one(
            self._transactions,
            Role,
            lambda now: Role.create(name=name, permissions=permissions, now=now),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                name,
                permissions,
            ),
        )

    async def change_permissions(
        self,
        id: str,
        *,
        permissions: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        return await change_one(
            self._transactions,
            Role,
            id,
            lambda current, now: current.change_permissions(
                permissions=permissions, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Role not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changePermissions",
                id,
                permissions,
            ),
        )

    async def describe(
        self,
        id: str,
        *,
        description: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        return await change_one(
            self._transactions,
            Role,
            id,
            lambda current, now: current.describe(description=description, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Role not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "describe",
                id,
                description,
            ),
        )

    async def get(self, id: str) -> Role | None:
        return await self._transactions.load(Role, id)


class ServiceAccountService:
    """Runs the ServiceAccount use cases (implements ``ServiceAccountUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
    ) -> None:
        self._transactions = transactions
        self._clock = clock

    async def create(
        self,
        *,
        client_id: str,
        secret_hash: str,
        roles: list[str],
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        return await make_one(
            self._transactions,
            ServiceAccount,
            lambda now: ServiceAccount.create(
                client_id=client_id, secret_hash=secret_hash, roles=roles, now=now
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                client_id,
                secret_hash,
                roles,
            ),
        )

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        return await change_one(
            self._transactions,
            ServiceAccount,
            id,
            lambda current, now: current.change_status(status=status, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Service account not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
        )

    async def change_secret(
        self,
        id: str,
        *,
        secret_hash: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        return await change_one(
            self._transactions,
            ServiceAccount,
            id,
            lambda current, now: current.change_secret(
                secret_hash=secret_hash, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Service account not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changeSecret",
                id,
                secret_hash,
            ),
        )

    async def get(self, id: str) -> ServiceAccount | None:
        return await self._transactions.load(ServiceAccount, id)
