"""A tenant's LDAP / Active Directory user store: its settings, password sign-in by bind,
and the sync of its users into the tenant."""

import logging
from dataclasses import dataclass, fields
from typing import Any
from uuid import uuid5

from eaf.context import in_tenant
from eaf.domain import Violation
from eaf.security import SecretBox, SecretError

from iam.application.access import AccessControl
from iam.application.federation import ExternalIdentity, Federation, Outcome
from iam.application.identity import ACTIVE, NAMESPACE, ConflictError
from iam.application.ports.federation import (
    IdentitySourceUnavailableError,
    LdapDirectory,
    LdapEntry,
    LdapProviderRepository,
)
from iam.application.ports.outbound import Clock
from iam.domain.errors import DomainValidationError, NotFoundError
from iam.domain.federation import (
    ACTIVE_DIRECTORY,
    CREATE,
    OTHER,
    LdapProvider,
    LdapSettings,
    SealedSecret,
)
from iam.domain.model import User

logger = logging.getLogger(__name__)

SOURCE = "ldap"
FULL, CHANGED = "full", "changed"

#: What each vendor preset fills in for the fields a request leaves out.
PRESETS: dict[str, dict[str, Any]] = {
    OTHER: {
        "user_object_class": "inetOrgPerson",
        "username_attribute": "uid",
        "login_attributes": [],
        "uuid_attribute": "entryUUID",
        "email_attribute": "mail",
        "name_attribute": "cn",
        "group_object_class": "groupOfNames",
        "membership_attribute": "member",
    },
    ACTIVE_DIRECTORY: {
        "user_object_class": "user",
        "username_attribute": "sAMAccountName",
        "login_attributes": ["userPrincipalName"],
        "uuid_attribute": "objectGUID",
        "email_attribute": "mail",
        "name_attribute": "displayName",
        "group_object_class": "group",
        "membership_attribute": "memberOf",
    },
}
DEFAULTS: dict[str, Any] = {
    "start_tls": False,
    "ca_certificate": "",
    "groups_dn": "",
    "group_roles": {},
    "connect_timeout_seconds": 5.0,
    "read_timeout_seconds": 10.0,
    "first_sign_in": CREATE,
}


def provider_id_for(tenant_id: str) -> str:
    return str(uuid5(NAMESPACE, f"{tenant_id}/ldap"))


def credential_place(tenant_id: str) -> bytes:
    """The associated data of a tenant's bind credential: it opens there only."""
    return f"{tenant_id}\x1fldap\x1fbindCredential".encode()


@dataclass(frozen=True)
class LdapRequest:
    """A tenant's LDAP settings as asked for: ``None`` takes the vendor preset (or the
    current value on an update of the same vendor)."""

    urls: list[str]
    bind_dn: str
    bind_credential: str
    users_dn: str
    vendor: str = OTHER
    start_tls: bool | None = None
    ca_certificate: str | None = None
    user_object_class: str | None = None
    username_attribute: str | None = None
    login_attributes: list[str] | None = None
    uuid_attribute: str | None = None
    email_attribute: str | None = None
    name_attribute: str | None = None
    groups_dn: str | None = None
    group_object_class: str | None = None
    membership_attribute: str | None = None
    group_roles: dict[str, list[str]] | None = None
    connect_timeout_seconds: float | None = None
    read_timeout_seconds: float | None = None
    first_sign_in: str | None = None


@dataclass(frozen=True)
class SyncReport:
    """What a sync did."""

    mode: str
    seen: int
    created: int
    updated: int
    disabled: int
    skipped: int
    watermark: str


class LdapProviders:
    """Configures a tenant's LDAP provider and syncs its users."""

    def __init__(
        self,
        *,
        providers: LdapProviderRepository,
        directory: LdapDirectory,
        federation: Federation,
        access: AccessControl,
        secrets: SecretBox,
        clock: Clock,
    ) -> None:
        self._providers = providers
        self._directory = directory
        self._federation = federation
        self._access = access
        self._secrets = secrets
        self._clock = clock

    async def configure(
        self, tenant_id: str, request: LdapRequest
    ) -> tuple[LdapProvider, bool]:
        """Create or replace the tenant's provider; whether it was created."""
        current = await self._current(tenant_id)
        settings, problems = self._settings(tenant_id, request, current)
        unknown = await self._access.unknown_roles(
            tenant_id,
            sorted({r for roles in settings.group_roles.values() for r in roles}),
        )
        if unknown:
            problems.append(
                Violation("groupRoles", f"Unknown roles: {', '.join(unknown)}")
            )
        DomainValidationError.raise_for([*settings.problems(), *problems])
        now = self._clock.now()
        with in_tenant(tenant_id):
            stored = await self._providers.get(provider_id_for(tenant_id))
            if stored is None:
                provider = LdapProvider.configure_new(
                    id=provider_id_for(tenant_id), settings=settings, now=now
                )
            else:
                provider = stored.configure(settings=settings, now=now)
            return await self._providers.save(provider), current is None

    async def provider(self, tenant_id: str) -> LdapProvider:
        provider = await self._current(tenant_id)
        if provider is None:
            raise NotFoundError("No LDAP provider is configured")
        return provider

    async def remove(self, tenant_id: str) -> None:
        provider = await self.provider(tenant_id)
        with in_tenant(tenant_id):
            await self._providers.save(provider.remove(now=self._clock.now()))

    async def sync(self, tenant_id: str, mode: str) -> SyncReport:
        """Import the directory's users (``full``: all of them, disabling the users it
        no longer has; ``changed``: those modified since the last sync)."""
        if mode not in (FULL, CHANGED):
            raise DomainValidationError("mode", "Mode is full or changed")
        provider = await self.provider(tenant_id)
        settings = provider.settings
        since = provider.watermark if mode == CHANGED else ""
        entries = await self._directory.users(
            settings, self._credential(tenant_id, settings), since
        )
        counts = {"created": 0, "updated": 0, "disabled": 0, "skipped": 0}
        for entry in entries:
            try:
                outcome = await self._federation.sign_in(
                    tenant_id,
                    identity_of(settings, entry),
                    first_sign_in=settings.first_sign_in,
                )
            except (DomainValidationError, ConflictError):
                counts["skipped"] += 1
                continue
            if outcome.created:
                counts["created"] += 1
            elif outcome.updated or outcome.linked:
                counts["updated"] += 1
        if mode == FULL:
            present = {entry.external_id for entry in entries}
            for identity in await self._federation.identities(tenant_id, SOURCE):
                if identity.created_user and identity.external_id not in present:
                    counts["disabled"] += await self._federation.disable(
                        tenant_id, identity.user_id
                    )
        watermark = max(
            [provider.watermark, *(entry.modified for entry in entries)], default=""
        )
        with in_tenant(tenant_id):
            await self._providers.save(
                provider.synced(
                    mode=mode,
                    watermark=watermark,
                    created=counts["created"],
                    updated=counts["updated"],
                    disabled=counts["disabled"],
                    now=self._clock.now(),
                )
            )
        return SyncReport(mode=mode, seen=len(entries), watermark=watermark, **counts)

    async def sign_in(
        self, tenant_id: str, username: str, password: str
    ) -> User | None:
        """The user of a directory entry ``username`` names whose bind with ``password``
        succeeds (None otherwise); see :class:`ExternalPasswords`."""
        if not password or not username:
            # an empty password makes an unauthenticated bind, which always succeeds
            return None
        provider = await self._current(tenant_id)
        if provider is None:
            return None
        settings = provider.settings
        entry = await self._directory.find_user(
            settings, self._credential(tenant_id, settings), username
        )
        if entry is None or not await self._directory.check_password(
            settings, entry.dn, password
        ):
            return None
        try:
            outcome: Outcome = await self._federation.sign_in(
                tenant_id,
                identity_of(settings, entry),
                first_sign_in=settings.first_sign_in,
            )
        except (DomainValidationError, ConflictError) as error:
            logger.warning("LDAP user %s cannot sign in: %s", entry.dn, error)
            return None
        return outcome.user if outcome.user.status == ACTIVE else None

    async def _current(self, tenant_id: str) -> LdapProvider | None:
        with in_tenant(tenant_id):
            provider = await self._providers.get(provider_id_for(tenant_id))
        return None if provider is None or provider.removed else provider

    def _settings(
        self, tenant_id: str, request: LdapRequest, current: LdapProvider | None
    ) -> tuple[LdapSettings, list[Violation]]:
        problems: list[Violation] = []
        preset = PRESETS.get(request.vendor, PRESETS[OTHER])
        base = {**DEFAULTS, **preset}
        if current is not None and current.settings.vendor == request.vendor:
            base.update(
                {
                    item.name: getattr(current.settings, item.name)
                    for item in fields(LdapSettings)
                }
            )
        given = {
            name: value
            for name, value in vars(request).items()
            if value is not None and name != "bind_credential"
        }
        if not request.bind_credential:
            problems.append(
                Violation("bindCredential", "The bind credential cannot be empty")
            )
        sealed, key_id = self._secrets.seal(
            request.bind_credential, credential_place(tenant_id)
        )
        credential = SealedSecret(ciphertext=sealed, key_id=key_id)
        values = {**base, **given, "bind_credential": credential}
        return LdapSettings(**values), problems

    def _credential(self, tenant_id: str, settings: LdapSettings) -> str:
        sealed = settings.bind_credential
        try:
            return self._secrets.open(
                sealed.ciphertext, sealed.key_id, credential_place(tenant_id)
            )
        except SecretError as error:
            raise IdentitySourceUnavailableError(
                "the LDAP bind credential does not open with this key ring"
            ) from error


def identity_of(settings: LdapSettings, entry: LdapEntry) -> ExternalIdentity:
    """What a directory entry asserts: its directory-managed email counts as verified."""
    attributes = {"email": entry.email} if entry.email else {}
    if entry.name:
        attributes["name"] = entry.name
    return ExternalIdentity(
        source=SOURCE,
        external_id=entry.external_id,
        username=entry.username,
        email=entry.email or f"{entry.username}@ldap.invalid",
        email_verified=bool(entry.email),
        attributes=attributes,
        roles=settings.roles_of(entry.groups),
        managed_roles=frozenset(settings.managed_roles),
    )
