"""Output ports of the identity sources outside the IAM: where their settings and links
are kept, and the directory protocol."""

from dataclasses import dataclass, field
from typing import Protocol

from iam.domain.federation import FederatedIdentity, LdapProvider, LdapSettings
from iam.domain.model import User


class IdentitySourceUnavailableError(Exception):
    """An identity source could not answer (unreachable, timed out, TLS refused, its
    service account refused): nothing is decided, nothing is created."""


class LdapProviderRepository(Protocol):
    """Keeps the current tenant's LDAP provider as the events it emitted."""

    async def get(self, id: str) -> LdapProvider | None: ...

    async def save(self, aggregate: LdapProvider) -> LdapProvider: ...


class FederatedIdentities(Protocol):
    """Keeps the current tenant's links of external identities to users."""

    async def get(self, id: str) -> FederatedIdentity | None: ...

    async def save(self, aggregate: FederatedIdentity) -> FederatedIdentity: ...

    async def of_source(self, source: str) -> list[FederatedIdentity]:
        """Every identity of ``source`` linked in the tenant, as of the last event."""
        ...


class ExternalPasswords(Protocol):
    """Checks a username and password of a tenant against an identity source outside the
    IAM; the user they sign in as, created or linked on first sign-in."""

    async def sign_in(
        self, tenant_id: str, username: str, password: str
    ) -> User | None:
        """The active user, or None (no source, unknown user, wrong password, disabled
        user); :class:`IdentitySourceUnavailableError` when the source cannot answer."""
        ...


@dataclass(frozen=True)
class LdapEntry:
    """A user entry of a directory, read through the provider's attribute settings."""

    dn: str
    username: str
    external_id: str
    email: str
    name: str
    groups: list[str] = field(default_factory=list)
    modified: str = ""


class LdapDirectory(Protocol):
    """The LDAP protocol: searches with the service bind, password checks by bind."""

    async def find_user(
        self, settings: LdapSettings, credential: str, username: str
    ) -> LdapEntry | None:
        """The one user entry ``username`` names (None: none, or several)."""
        ...

    async def check_password(
        self, settings: LdapSettings, dn: str, password: str
    ) -> bool:
        """Whether a simple bind as ``dn`` with ``password`` succeeds."""
        ...

    async def users(
        self, settings: LdapSettings, credential: str, modified_since: str = ""
    ) -> list[LdapEntry]:
        """Every user entry, or those modified after ``modified_since`` (an LDAP
        generalized time)."""
        ...
