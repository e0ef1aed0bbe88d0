"""Users whose identity another source asserts (LDAP today; SAML or an external OpenID
provider alike): their first sign-in creates the user just in time or links it to an
existing one by a verified attribute, and every later one brings its attributes and
roles up to date."""

from dataclasses import dataclass, field
from uuid import uuid5

from eaf.context import in_tenant

from iam.application.access import AccessControl
from iam.application.identity import (
    ACTIVE,
    DELETED,
    DISABLED,
    NAMESPACE,
    USER_ROLE,
    ConflictError,
    user_id_for,
)
from iam.application.ports.federation import FederatedIdentities
from iam.application.ports.outbound import Clock, UserListing, UserRepository
from iam.domain.errors import ConcurrencyError, DomainValidationError
from iam.domain.federation import CREATE, LINK_BY_EMAIL, FederatedIdentity
from iam.domain.model import User

#: The password hash of a user whose password only its identity source knows: no argon2
#: hash, so the IAM's own password check never accepts it.
EXTERNAL_PASSWORD = "!external"


def identity_id_for(tenant_id: str, source: str, external_id: str) -> str:
    return str(uuid5(NAMESPACE, f"{tenant_id}/identity/{source}/{external_id}"))


@dataclass(frozen=True)
class ExternalIdentity:
    """What an identity source asserts about a user: its stable id there, the username
    and email, whether the source vouches for the email, other attributes, and the roles
    its mappers grant out of ``managed_roles`` (the others are left as they are)."""

    source: str
    external_id: str
    username: str
    email: str
    email_verified: bool
    attributes: dict[str, str] = field(default_factory=dict)
    roles: list[str] = field(default_factory=list)
    managed_roles: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Outcome:
    """The user an identity signs in as, and what signing in did to it."""

    user: User
    created: bool = False
    linked: bool = False
    updated: bool = False


class FirstSignInRefusedError(ConflictError):
    """The identity matches no user it may take (its username belongs to a local user,
    or several users share its email)."""


class Federation:
    """Finds, creates or links the user of an external identity, and keeps it in step."""

    def __init__(
        self,
        *,
        users: UserRepository,
        user_listing: UserListing,
        identities: FederatedIdentities,
        access: AccessControl,
        clock: Clock,
    ) -> None:
        self._users = users
        self._user_listing = user_listing
        self._identities = identities
        self._access = access
        self._clock = clock

    async def sign_in(
        self, tenant_id: str, identity: ExternalIdentity, *, first_sign_in: str
    ) -> Outcome:
        """The user ``identity`` is (created or linked per ``first_sign_in`` the first
        time: ``create``, or ``link-by-email`` to the one user with its verified email,
        else created), with the source's attributes and roles; its status is left alone."""
        identity_id = identity_id_for(tenant_id, identity.source, identity.external_id)
        with in_tenant(tenant_id):
            known = await self._identities.get(identity_id)
            user = await self._users.get(known.user_id) if known else None
        if known is not None and user is not None and user.status != DELETED:
            return await self._update(tenant_id, user, identity)
        if first_sign_in == LINK_BY_EMAIL and identity.email_verified:
            existing = await self._user_with_email(tenant_id, identity.email)
            if existing is not None:
                return await self._link(tenant_id, identity_id, existing, identity)
        elif first_sign_in not in (CREATE, LINK_BY_EMAIL):
            raise DomainValidationError("firstSignIn", "Unknown first sign-in policy")
        return await self._create(tenant_id, identity_id, identity)

    async def identities(self, tenant_id: str, source: str) -> list[FederatedIdentity]:
        with in_tenant(tenant_id):
            return await self._identities.of_source(source)

    async def disable(self, tenant_id: str, user_id: str) -> bool:
        """Disable an active user (its source no longer knows it); whether it was."""
        with in_tenant(tenant_id):
            user = await self._users.get(user_id)
            if user is None or user.status != ACTIVE:
                return False
            await self._users.save(
                user.change_status(status=DISABLED, now=self._clock.now())
            )
        return True

    async def _create(
        self, tenant_id: str, identity_id: str, identity: ExternalIdentity
    ) -> Outcome:
        now = self._clock.now()
        roles = await self._known(tenant_id, [USER_ROLE, *identity.roles])
        user = User.create(
            username=identity.username,
            email=identity.email,
            password=EXTERNAL_PASSWORD,
            roles=roles,
            attributes=identity.attributes,
            now=now,
            id=user_id_for(tenant_id, identity.username),
        )
        with in_tenant(tenant_id):
            try:
                user = await self._users.save(user)
            except ConcurrencyError:
                raise FirstSignInRefusedError(
                    f"A user named {identity.username} exists already"
                ) from None
            await self._identities.save(
                FederatedIdentity.federate(
                    id=identity_id,
                    source=identity.source,
                    external_id=identity.external_id,
                    user_id=user.id,
                    username=identity.username,
                    now=now,
                )
            )
        return Outcome(user, created=True)

    async def _link(
        self,
        tenant_id: str,
        identity_id: str,
        user: User,
        identity: ExternalIdentity,
    ) -> Outcome:
        with in_tenant(tenant_id):
            await self._identities.save(
                FederatedIdentity.link(
                    id=identity_id,
                    source=identity.source,
                    external_id=identity.external_id,
                    user_id=user.id,
                    username=identity.username,
                    attribute="email",
                    now=self._clock.now(),
                )
            )
        outcome = await self._update(tenant_id, user, identity)
        return Outcome(outcome.user, linked=True, updated=outcome.updated)

    async def _update(
        self, tenant_id: str, user: User, identity: ExternalIdentity
    ) -> Outcome:
        now = self._clock.now()
        changed = user
        # User has no command that changes its email: the source's current one is kept
        # among the attributes it asserts
        attributes = {**user.attributes, **identity.attributes}
        if attributes != user.attributes:
            changed = changed.change_attributes(attributes=attributes, now=now)
        kept = [role for role in user.roles if role not in identity.managed_roles]
        roles = await self._known(tenant_id, [*kept, *identity.roles])
        if set(roles) != set(user.roles):
            changed = changed.change_roles(roles=roles, now=now)
        if changed is user:
            return Outcome(user)
        with in_tenant(tenant_id):
            return Outcome(await self._users.save(changed), updated=True)

    async def _known(self, tenant_id: str, roles: list[str]) -> list[str]:
        unique = list(dict.fromkeys(roles))
        unknown = set(await self._access.unknown_roles(tenant_id, unique))
        return [role for role in unique if role not in unknown]

    async def _user_with_email(self, tenant_id: str, email: str) -> User | None:
        wanted = email.strip().casefold()
        if not wanted:
            return None
        with in_tenant(tenant_id):
            users = await self._user_listing.list()
        matches = [
            user
            for user in users
            if user.status == ACTIVE and user.email.strip().casefold() == wanted
        ]
        if len(matches) > 1:
            raise FirstSignInRefusedError(f"Several users have the email {email}")
        if not matches:
            return None
        with in_tenant(tenant_id):
            return await self._users.get(matches[0].id)
