# Generated from spec iam by `generate`; edits are merged on re-render.

"""The use cases of the iam service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

from datetime import datetime

from iam.application.ports.outbound import (
    Clock,
    Idempotency,
    PolicyListing,
    RoleListing,
    ServiceAccountListing,
    TenantListing,
    Transaction,
    Transactions,
    UserListing,
)
from iam.domain.errors import NotFoundError
from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    Role,
    ServiceAccount,
    Tenant,
    User,
)


class TenantService:
    """Runs the Tenant use cases (implements ``TenantUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: TenantListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self, *, name: str, admin_user_id: str, idempotency: Idempotency | None = None
    ) -> Tenant:
        async def work(tx: Transaction) -> Tenant:
            now = self._clock.now()
            created = Tenant.create(name=name, admin_user_id=admin_user_id, now=now)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                name,
                admin_user_id,
            ),
            kind=Tenant,
        )

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Tenant:
        async def work(tx: Transaction) -> Tenant:
            now = self._clock.now()
            current = await tx.get(Tenant, id)
            if current is None:
                raise NotFoundError("Tenant not found")
            tx.expect(current, expected_version)
            changed = current.change_status(status=status, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
            kind=Tenant,
        )

    async def get(self, id: str) -> Tenant | None:
        return await self._transactions.load(Tenant, id)

    async def list(self) -> list[Tenant]:
        return await self._listing.list()


class UserService:
    """Runs the User use cases (implements ``UserUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: UserListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        username: str,
        email: str,
        password_hash: str,
        roles: list[str],
        attributes: dict[str, str],
        idempotency: Idempotency | None = None,
    ) -> User:
        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            created = User.create(
                username=username,
                email=email,
                password_hash=password_hash,
                roles=roles,
                attributes=attributes,
                now=now,
            )
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                username,
                email,
                password_hash,
                roles,
                attributes,
            ),
            kind=User,
        )

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            current = await tx.get(User, id)
            if current is None:
                raise NotFoundError("User not found")
            tx.expect(current, expected_version)
            changed = current.change_status(status=status, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
            kind=User,
        )

    async def change_roles(
        self,
        id: str,
        *,
        roles: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            current = await tx.get(User, id)
            if current is None:
                raise NotFoundError("User not found")
            tx.expect(current, expected_version)
            changed = current.change_roles(roles=roles, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeRoles",
                id,
                roles,
            ),
            kind=User,
        )

    async def change_attributes(
        self,
        id: str,
        *,
        attributes: dict[str, str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            current = await tx.get(User, id)
            if current is None:
                raise NotFoundError("User not found")
            tx.expect(current, expected_version)
            changed = current.change_attributes(attributes=attributes, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeAttributes",
                id,
                attributes,
            ),
            kind=User,
        )

    async def change_password(
        self,
        id: str,
        *,
        password_hash: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            current = await tx.get(User, id)
            if current is None:
                raise NotFoundError("User not found")
            tx.expect(current, expected_version)
            changed = current.change_password(password_hash=password_hash, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changePassword",
                id,
                password_hash,
            ),
            kind=User,
        )

    async def get(self, id: str) -> User | None:
        return await self._transactions.load(User, id)

    async def list(self) -> list[User]:
        return await self._listing.list()


class RoleService:
    """Runs the Role use cases (implements ``RoleUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: RoleListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        name: str,
        permissions: list[str],
        idempotency: Idempotency | None = None,
    ) -> Role:
        async def work(tx: Transaction) -> Role:
            now = self._clock.now()
            created = Role.create(name=name, permissions=permissions, now=now)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                name,
                permissions,
            ),
            kind=Role,
        )

    async def change_permissions(
        self,
        id: str,
        *,
        permissions: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        async def work(tx: Transaction) -> Role:
            now = self._clock.now()
            current = await tx.get(Role, id)
            if current is None:
                raise NotFoundError("Role not found")
            tx.expect(current, expected_version)
            changed = current.change_permissions(permissions=permissions, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changePermissions",
                id,
                permissions,
            ),
            kind=Role,
        )

    async def describe(
        self,
        id: str,
        *,
        description: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        async def work(tx: Transaction) -> Role:
            now = self._clock.now()
            current = await tx.get(Role, id)
            if current is None:
                raise NotFoundError("Role not found")
            tx.expect(current, expected_version)
            changed = current.describe(description=description, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "describe",
                id,
                description,
            ),
            kind=Role,
        )

    async def get(self, id: str) -> Role | None:
        return await self._transactions.load(Role, id)

    async def list(self) -> list[Role]:
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
        name: str,
        effect: str,
        permissions: list[str],
        conditions: str,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        async def work(tx: Transaction) -> Policy:
            now = self._clock.now()
            created = Policy.create(
                name=name,
                effect=effect,
                permissions=permissions,
                conditions=conditions,
                now=now,
            )
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                name,
                effect,
                permissions,
                conditions,
            ),
            kind=Policy,
        )

    async def change(
        self,
        id: str,
        *,
        name: str,
        effect: str,
        permissions: list[str],
        conditions: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        async def work(tx: Transaction) -> Policy:
            now = self._clock.now()
            current = await tx.get(Policy, id)
            if current is None:
                raise NotFoundError("Policy not found")
            tx.expect(current, expected_version)
            changed = current.change(
                name=name,
                effect=effect,
                permissions=permissions,
                conditions=conditions,
                now=now,
            )
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "change",
                id,
                name,
                effect,
                permissions,
                conditions,
            ),
            kind=Policy,
        )

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        async def work(tx: Transaction) -> Policy:
            now = self._clock.now()
            current = await tx.get(Policy, id)
            if current is None:
                raise NotFoundError("Policy not found")
            tx.expect(current, expected_version)
            changed = current.change_status(status=status, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
            kind=Policy,
        )

    async def get(self, id: str) -> Policy | None:
        return await self._transactions.load(Policy, id)

    async def list(self) -> list[Policy]:
        return await self._listing.list()


class ServiceAccountService:
    """Runs the ServiceAccount use cases (implements ``ServiceAccountUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: ServiceAccountListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        client_id: str,
        secret_hash: str,
        roles: list[str],
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        async def work(tx: Transaction) -> ServiceAccount:
            now = self._clock.now()
            created = ServiceAccount.create(
                client_id=client_id, secret_hash=secret_hash, roles=roles, now=now
            )
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                client_id,
                secret_hash,
                roles,
            ),
            kind=ServiceAccount,
        )

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        async def work(tx: Transaction) -> ServiceAccount:
            now = self._clock.now()
            current = await tx.get(ServiceAccount, id)
            if current is None:
                raise NotFoundError("Service account not found")
            tx.expect(current, expected_version)
            changed = current.change_status(status=status, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
            kind=ServiceAccount,
        )

    async def change_secret(
        self,
        id: str,
        *,
        secret_hash: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        async def work(tx: Transaction) -> ServiceAccount:
            now = self._clock.now()
            current = await tx.get(ServiceAccount, id)
            if current is None:
                raise NotFoundError("Service account not found")
            tx.expect(current, expected_version)
            changed = current.change_secret(secret_hash=secret_hash, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeSecret",
                id,
                secret_hash,
            ),
            kind=ServiceAccount,
        )

    async def get(self, id: str) -> ServiceAccount | None:
        return await self._transactions.load(ServiceAccount, id)

    async def list(self) -> list[ServiceAccount]:
        return await self._listing.list()


class RefreshTokenFamilyService:
    """Runs the RefreshTokenFamily use cases (implements ``RefreshTokenFamilyUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
    ) -> None:
        self._transactions = transactions
        self._clock = clock

    async def issue(
        self,
        *,
        subject: str,
        client_id: str,
        scope: str,
        current_hash: str,
        idempotency: Idempotency | None = None,
    ) -> RefreshTokenFamily:
        async def work(tx: Transaction) -> RefreshTokenFamily:
            now = self._clock.now()
            created = RefreshTokenFamily.issue(
                subject=subject,
                client_id=client_id,
                scope=scope,
                current_hash=current_hash,
                now=now,
            )
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "issue",
                subject,
                client_id,
                scope,
                current_hash,
            ),
            kind=RefreshTokenFamily,
        )

    async def rotate(
        self,
        id: str,
        *,
        current_hash: str,
        used_hashes: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> RefreshTokenFamily:
        async def work(tx: Transaction) -> RefreshTokenFamily:
            now = self._clock.now()
            current = await tx.get(RefreshTokenFamily, id)
            if current is None:
                raise NotFoundError("Refresh token not found")
            tx.expect(current, expected_version)
            changed = current.rotate(
                current_hash=current_hash, used_hashes=used_hashes, now=now
            )
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "rotate",
                id,
                current_hash,
                used_hashes,
            ),
            kind=RefreshTokenFamily,
        )

    async def revoke(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> RefreshTokenFamily:
        async def work(tx: Transaction) -> RefreshTokenFamily:
            now = self._clock.now()
            current = await tx.get(RefreshTokenFamily, id)
            if current is None:
                raise NotFoundError("Refresh token not found")
            tx.expect(current, expected_version)
            changed = current.revoke(status=status, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "revoke",
                id,
                status,
            ),
            kind=RefreshTokenFamily,
        )

    async def get(self, id: str) -> RefreshTokenFamily | None:
        return await self._transactions.load(RefreshTokenFamily, id)


class AccessTokenRevocationService:
    """Runs the AccessTokenRevocation use cases (implements ``AccessTokenRevocationUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
    ) -> None:
        self._transactions = transactions
        self._clock = clock

    async def create(
        self, *, jti: str, expires_at: datetime, idempotency: Idempotency | None = None
    ) -> AccessTokenRevocation:
        async def work(tx: Transaction) -> AccessTokenRevocation:
            now = self._clock.now()
            created = AccessTokenRevocation.create(
                jti=jti, expires_at=expires_at, now=now
            )
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                jti,
                expires_at,
            ),
            kind=AccessTokenRevocation,
        )

    async def get(self, id: str) -> AccessTokenRevocation | None:
        return await self._transactions.load(AccessTokenRevocation, id)
