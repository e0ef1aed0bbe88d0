"""Tenants, made with their built-in roles and first administrator, and the platform
administrators (the users' and service accounts' use cases are the spec's)."""

import logging

from eaf.security import PasswordHasher

from iam.application.identity import (
    ACTIVE,
    BUILT_IN_ROLES,
    PLATFORM,
    PLATFORM_ADMIN_ROLE,
    TENANT_ADMIN_ROLE,
    AlreadyExistsError,
    in_tenant,
    tenant_id_for,
    user_id_for,
)
from iam.application.ports.access import TenantCatalog
from iam.application.ports.inbound import RoleUseCases
from iam.application.ports.outbound import (
    Clock,
    TenantRepository,
    UserRepository,
)
from iam.domain.errors import ConcurrencyError, DomainValidationError, NotFoundError
from iam.domain.model import Tenant, User

logger = logging.getLogger(__name__)


def platform_admin_email(username: str) -> str:
    """The email of a platform administrator given none: the username if it is one."""
    return username if "@" in username else f"{username}@platform.invalid"


class Directory:
    """Creates tenants with their administrator, and manages users and clients."""

    def __init__(
        self,
        *,
        tenants: TenantRepository,
        tenant_catalog: TenantCatalog,
        users: UserRepository,
        roles: RoleUseCases,
        hasher: PasswordHasher,
        clock: Clock,
        admin_username: str = "",
        admin_password: str = "",
        admin_email: str = "",
    ) -> None:
        self._admin = (admin_username, admin_password, admin_email)
        self._tenants = tenants
        self._tenant_catalog = tenant_catalog
        self._users = users
        self._roles = roles
        self._hasher = hasher
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
        admin_id = user_id_for(tenant_id, admin_username)
        DomainValidationError.raise_for(User.check_username(admin_username))
        DomainValidationError.raise_for(User.check_email(admin_email))
        DomainValidationError.raise_for(User.check_password(admin_password))
        tenant = Tenant.create(
            name=name, admin_user_id=admin_id, now=self._clock.now(), id=tenant_id
        )
        with in_tenant(tenant_id):
            try:
                tenant = await self._tenants.save(tenant)
            except ConcurrencyError:
                raise AlreadyExistsError(f"A tenant named {name} exists") from None
        with in_tenant(tenant_id):
            for role, permissions in BUILT_IN_ROLES.items():
                await self._roles.create(
                    name=role, permissions=permissions, description="built-in"
                )
        await self._create_user(
            tenant_id,
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

    async def tenants(self) -> list[Tenant]:
        """Every tenant, by name (a platform-level read)."""
        tenants = await self._tenant_catalog.all_tenants()
        return sorted(tenants, key=lambda tenant: (tenant.name.casefold(), tenant.id))

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
        email = email or platform_admin_email(username)
        DomainValidationError.raise_for(User.check_password(password))
        with in_tenant(PLATFORM):
            if await self._users.get(user_id_for(PLATFORM, username)) is not None:
                return None
        try:
            admin = await self._create_user(
                PLATFORM,
                username=username,
                email=email,
                password=password,
                roles=[PLATFORM_ADMIN_ROLE],
                attributes={},
            )
        except AlreadyExistsError:
            return None
        logger.info("created platform administrator %s", username)
        return admin

    async def set_platform_admin(
        self, *, username: str, password: str, email: str | None = None
    ) -> str:
        """Create the platform administrator ``username``, or reset its password (and
        enable it again); what was done."""
        DomainValidationError.raise_for(User.check_username(username))
        DomainValidationError.raise_for(User.check_password(password))
        if email is not None:
            DomainValidationError.raise_for(User.check_email(email))
        with in_tenant(PLATFORM):
            admin = await self._users.get(user_id_for(PLATFORM, username))
        if admin is None:
            await self._create_user(
                PLATFORM,
                username=username,
                email=email or platform_admin_email(username),
                password=password,
                roles=[PLATFORM_ADMIN_ROLE],
                attributes={},
            )
            return f"created platform administrator {username}"
        now = self._clock.now()
        admin = admin.change_password(password=self._hasher.hash(password), now=now)
        if admin.status != ACTIVE:
            admin = admin.change_status(status=ACTIVE, now=now)
        with in_tenant(PLATFORM):
            await self._users.save(admin)
        return f"reset the password of platform administrator {username}"

    async def _create_user(
        self,
        tenant_id: str,
        *,
        username: str,
        email: str,
        password: str,
        roles: list[str],
        attributes: dict[str, str],
    ) -> User:
        DomainValidationError.raise_for(User.check_password(password))
        user = User.create(
            username=username,
            email=email,
            password=self._hasher.hash(password),
            roles=list(dict.fromkeys(roles)),
            attributes=attributes,
            now=self._clock.now(),
            id=user_id_for(tenant_id, username),
        )
        with in_tenant(tenant_id):
            try:
                return await self._users.save(user)
            except ConcurrencyError:
                raise AlreadyExistsError(f"A user named {username} exists") from None
