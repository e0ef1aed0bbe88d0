# Generated from spec iam by `generate`; edits are merged on re-render.

"""The use cases of the iam service."""

from datetime import datetime

from iam.application.ports.outbound import (
    AccessTokenRevocationRepository,
    Clock,
    PolicyListing,
    PolicyRepository,
    RefreshTokenFamilyRepository,
    RoleListing,
    RoleRepository,
    ServiceAccountListing,
    ServiceAccountRepository,
    TenantListing,
    TenantRepository,
    UserListing,
    UserRepository,
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
    """Runs the Tenant use cases against a repository and a clock."""

    def __init__(
        self,
        repository: TenantRepository,
        clock: Clock,
        listing: TenantListing,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._listing = listing

    async def create(self, *, name: str, admin_user_id: str) -> Tenant:
        created = Tenant.create(
            name=name, admin_user_id=admin_user_id, now=self._clock.now()
        )
        return await self._repository.save(created)

    async def change_status(self, id: str, *, status: str) -> Tenant:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Tenant not found")
        changed = current.change_status(status=status, now=self._clock.now())
        return await self._repository.save(changed)

    async def get(self, id: str) -> Tenant | None:
        return await self._repository.get(id)

    async def list(self) -> list[Tenant]:
        return await self._listing.list()


class UserService:
    """Runs the User use cases against a repository and a clock."""

    def __init__(
        self,
        repository: UserRepository,
        clock: Clock,
        listing: UserListing,
    ) -> None:
        self._repository = repository
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
    ) -> User:
        created = User.create(
            username=username,
            email=email,
            password_hash=password_hash,
            roles=roles,
            attributes=attributes,
            now=self._clock.now(),
        )
        return await self._repository.save(created)

    async def change_status(self, id: str, *, status: str) -> User:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("User not found")
        changed = current.change_status(status=status, now=self._clock.now())
        return await self._repository.save(changed)

    async def change_roles(self, id: str, *, roles: list[str]) -> User:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("User not found")
        changed = current.change_roles(roles=roles, now=self._clock.now())
        return await self._repository.save(changed)

    async def change_attributes(self, id: str, *, attributes: dict[str, str]) -> User:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("User not found")
        changed = current.change_attributes(
            attributes=attributes, now=self._clock.now()
        )
        return await self._repository.save(changed)

    async def change_password(self, id: str, *, password_hash: str) -> User:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("User not found")
        changed = current.change_password(
            password_hash=password_hash, now=self._clock.now()
        )
        return await self._repository.save(changed)

    async def get(self, id: str) -> User | None:
        return await self._repository.get(id)

    async def list(self) -> list[User]:
        return await self._listing.list()


class RoleService:
    """Runs the Role use cases against a repository and a clock."""

    def __init__(
        self,
        repository: RoleRepository,
        clock: Clock,
        listing: RoleListing,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._listing = listing

    async def create(self, *, name: str, permissions: list[str]) -> Role:
        created = Role.create(name=name, permissions=permissions, now=self._clock.now())
        return await self._repository.save(created)

    async def change_permissions(self, id: str, *, permissions: list[str]) -> Role:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Role not found")
        changed = current.change_permissions(
            permissions=permissions, now=self._clock.now()
        )
        return await self._repository.save(changed)

    async def describe(self, id: str, *, description: str) -> Role:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Role not found")
        changed = current.describe(description=description, now=self._clock.now())
        return await self._repository.save(changed)

    async def get(self, id: str) -> Role | None:
        return await self._repository.get(id)

    async def list(self) -> list[Role]:
        return await self._listing.list()


class PolicyService:
    """Runs the Policy use cases against a repository and a clock."""

    def __init__(
        self,
        repository: PolicyRepository,
        clock: Clock,
        listing: PolicyListing,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._listing = listing

    async def create(
        self, *, name: str, effect: str, permissions: list[str], conditions: str
    ) -> Policy:
        created = Policy.create(
            name=name,
            effect=effect,
            permissions=permissions,
            conditions=conditions,
            now=self._clock.now(),
        )
        return await self._repository.save(created)

    async def change(
        self,
        id: str,
        *,
        name: str,
        effect: str,
        permissions: list[str],
        conditions: str,
    ) -> Policy:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Policy not found")
        changed = current.change(
            name=name,
            effect=effect,
            permissions=permissions,
            conditions=conditions,
            now=self._clock.now(),
        )
        return await self._repository.save(changed)

    async def change_status(self, id: str, *, status: str) -> Policy:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Policy not found")
        changed = current.change_status(status=status, now=self._clock.now())
        return await self._repository.save(changed)

    async def get(self, id: str) -> Policy | None:
        return await self._repository.get(id)

    async def list(self) -> list[Policy]:
        return await self._listing.list()


class ServiceAccountService:
    """Runs the ServiceAccount use cases against a repository and a clock."""

    def __init__(
        self,
        repository: ServiceAccountRepository,
        clock: Clock,
        listing: ServiceAccountListing,
    ) -> None:
        self._repository = repository
        self._clock = clock
        self._listing = listing

    async def create(
        self, *, client_id: str, secret_hash: str, roles: list[str]
    ) -> ServiceAccount:
        created = ServiceAccount.create(
            client_id=client_id,
            secret_hash=secret_hash,
            roles=roles,
            now=self._clock.now(),
        )
        return await self._repository.save(created)

    async def change_status(self, id: str, *, status: str) -> ServiceAccount:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Service account not found")
        changed = current.change_status(status=status, now=self._clock.now())
        return await self._repository.save(changed)

    async def change_secret(self, id: str, *, secret_hash: str) -> ServiceAccount:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Service account not found")
        changed = current.change_secret(secret_hash=secret_hash, now=self._clock.now())
        return await self._repository.save(changed)

    async def get(self, id: str) -> ServiceAccount | None:
        return await self._repository.get(id)

    async def list(self) -> list[ServiceAccount]:
        return await self._listing.list()


class RefreshTokenFamilyService:
    """Runs the RefreshTokenFamily use cases against a repository and a clock."""

    def __init__(
        self,
        repository: RefreshTokenFamilyRepository,
        clock: Clock,
    ) -> None:
        self._repository = repository
        self._clock = clock

    async def issue(
        self, *, subject: str, client_id: str, scope: str, current_hash: str
    ) -> RefreshTokenFamily:
        created = RefreshTokenFamily.issue(
            subject=subject,
            client_id=client_id,
            scope=scope,
            current_hash=current_hash,
            now=self._clock.now(),
        )
        return await self._repository.save(created)

    async def rotate(
        self, id: str, *, current_hash: str, used_hashes: list[str]
    ) -> RefreshTokenFamily:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Refresh token not found")
        changed = current.rotate(
            current_hash=current_hash, used_hashes=used_hashes, now=self._clock.now()
        )
        return await self._repository.save(changed)

    async def revoke(self, id: str, *, status: str) -> RefreshTokenFamily:
        current = await self._repository.get(id)
        if current is None:
            raise NotFoundError("Refresh token not found")
        changed = current.revoke(status=status, now=self._clock.now())
        return await self._repository.save(changed)

    async def get(self, id: str) -> RefreshTokenFamily | None:
        return await self._repository.get(id)


class AccessTokenRevocationService:
    """Runs the AccessTokenRevocation use cases against a repository and a clock."""

    def __init__(
        self,
        repository: AccessTokenRevocationRepository,
        clock: Clock,
    ) -> None:
        self._repository = repository
        self._clock = clock

    async def create(self, *, jti: str, expires_at: datetime) -> AccessTokenRevocation:
        created = AccessTokenRevocation.create(
            jti=jti, expires_at=expires_at, now=self._clock.now()
        )
        return await self._repository.save(created)

    async def get(self, id: str) -> AccessTokenRevocation | None:
        return await self._repository.get(id)
