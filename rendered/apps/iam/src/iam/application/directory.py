"""Tenants, made with their built-in roles and first administrator, and the platform
administrators (the users' and service accounts' use cases are the spec's)."""

import logging
from contextlib import suppress

from eaf.context import in_tenant
from eaf.eventsourcing import DuplicateKeyError

from iam.application.identity import (
    ACTIVE,
    BUILT_IN_ROLES,
    PLATFORM,
    PLATFORM_ADMIN_ROLE,
    PLATFORM_PERMISSIONS,
    TENANT_ADMIN_ROLE,
    AlreadyExistsError,
    tenant_id_for,
    user_id_for,
)
from iam.application.ports.inbound import RoleUseCases, UserUseCases
from iam.application.ports.outbound import Clock, TenantRepository
from iam.domain.errors import ConcurrencyError, DomainValidationError, NotFoundError
from iam.domain.model import Tenant, User

logger = logging.getLogger(__name__)


def platform_admin_email(username: str) -> str:
    """The email of a platform administrator given none: the username if it is one."""
    return username if "@" in username else f"{username}@platform.invalid"


class Directory:
    """Creates tenants with their administrator, and the platform administrators: users
    made and changed by the spec's use cases, in the tenant's scope (the platform's for
    its administrators, whose role is the platform's own)."""

    def __init__(
        self,
        *,
        tenants: TenantRepository,
        users: UserUseCases,
        roles: RoleUseCases,
        clock: Clock,
        admin_username: str = "",
        admin_password: str = "",
        admin_email: str = "",
    ) -> None:
        self._admin = (admin_username, admin_password, admin_email)
        self._tenants = tenants
        self._users = users
        self._roles = roles
        self._clock = clock

    async def create_tenant(
        self,
        *,
        name: str,
        admin_username: str,
        admin_email: str,
        admin_password: str,
    ) -> Tenant:
        """A new tenant (``TenantCreatedEvent`` in its own scope), its built-in roles and
        its first administrator; 409 when the name (case-insensitive) is taken."""
        if name.strip().casefold() == PLATFORM:
            # `tenant=platform` logs in platform administrators: no tenant may answer to it
            raise DomainValidationError("name", "platform is a reserved name")
        tenant_id = tenant_id_for(name)
        DomainValidationError.raise_for(
            [
                *User.check_username(admin_username),
                *User.check_email(admin_email),
                *User.check_password(admin_password),
            ]
        )
        tenant = Tenant.create(
            name=name,
            admin_user_id=user_id_for(tenant_id, admin_username),
            now=self._clock.now(),
            id=tenant_id,
        )
        with in_tenant(tenant_id):
            try:
                tenant = await self._tenants.save(tenant)
            except ConcurrencyError:
                raise AlreadyExistsError(f"A tenant named {name} exists") from None
            for role, permissions in BUILT_IN_ROLES.items():
                await self._roles.create(
                    name=role, permissions=permissions, description="built-in"
                )
            await self._users.create(
                username=admin_username,
                email=admin_email,
                password=admin_password,
                roles=[TENANT_ADMIN_ROLE],
                attributes={},
            )
        return tenant

    async def tenant(self, tenant_id: str) -> Tenant:
        with in_tenant(tenant_id):
            tenant = await self._tenants.get(tenant_id)
        if tenant is None:
            raise NotFoundError("Tenant not found")
        return tenant

    async def ensure_platform_admin(self) -> User | None:
        """The platform administrator of the settings (``IAM_PLATFORM_ADMIN_USERNAME`` and
        ``IAM_PLATFORM_ADMIN_PASSWORD``), created unless it exists (its password is then
        left as it is); None when it existed already or none is set (no default password)."""
        username, password, email = self._admin
        if not username or not password:
            logger.warning(
                "no platform administrator configured: set IAM_PLATFORM_ADMIN_USERNAME"
                " and IAM_PLATFORM_ADMIN_PASSWORD to create one"
            )
            return None
        DomainValidationError.raise_for(User.check_password(password))
        with in_tenant(PLATFORM):
            if await self._users.get(user_id_for(PLATFORM, username)) is not None:
                return None
            try:
                admin = await self._new_platform_admin(username, password, email)
            except DuplicateKeyError:
                return None
        logger.info("created platform administrator %s", username)
        return admin

    async def set_platform_admin(
        self, *, username: str, password: str, email: str | None = None
    ) -> str:
        """Create the platform administrator ``username``, or reset its password (and
        enable it again); what was done."""
        with in_tenant(PLATFORM):
            admin = await self._users.get(user_id_for(PLATFORM, username))
            if admin is None:
                await self._new_platform_admin(username, password, email)
                return f"created platform administrator {username}"
            await self._platform_role()
            await self._users.change(
                admin.id,
                status=ACTIVE,
                roles=admin.roles,
                attributes=admin.attributes,
                password=password,
            )
        return f"reset the password of platform administrator {username}"

    async def _new_platform_admin(
        self, username: str, password: str, email: str | None
    ) -> User:
        await self._platform_role()
        return await self._users.create(
            username=username,
            email=email or platform_admin_email(username),
            password=password,
            roles=[PLATFORM_ADMIN_ROLE],
            attributes={},
        )

    async def _platform_role(self) -> None:
        """The platform's one role, which its administrators hold (their tokens grant
        everything whatever their roles say: ``PLATFORM_PERMISSIONS``)."""
        with suppress(DuplicateKeyError):
            await self._roles.create(
                name=PLATFORM_ADMIN_ROLE,
                permissions=sorted(PLATFORM_PERMISSIONS),
                description="built-in",
            )
