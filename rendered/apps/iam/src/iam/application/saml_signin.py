"""Signing in at a realm's sign-in page through a SAML identity provider: the button
starts a SAML login for the page's form, the accepted response signs the identity in
(its user created or linked the first time), and the browser that showed the form gets
the session."""

import secrets
from dataclasses import dataclass
from datetime import timedelta

from eaf.context import in_tenant

from iam.application.federation import ExternalIdentity, Federation
from iam.application.identity import ACTIVE, DELETED
from iam.application.oauth import Realm
from iam.application.ports.saml import OutgoingRequest, SamlError, SamlProviderListing
from iam.application.ports.signin import Expiring, ExternalProvider
from iam.application.saml_login import SamlIdentity, SamlLogin, SamlLogins
from iam.application.saml_providers import SamlProviders, role_mappers_of
from iam.application.signin import digest
from iam.domain.model import SamlIdentityProvider

EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
ARRIVAL_TTL = timedelta(minutes=2)


@dataclass(frozen=True)
class SamlContinuation:
    """The sign-in form a SAML login was started from (kept under its RelayState)."""

    realm_name: str
    form_id: str


@dataclass(frozen=True)
class SamlArrival:
    """A user signed in by an accepted response, waiting for the browser that showed
    the form to come back for its session."""

    tenant_id: str
    user_id: str
    form_id: str


@dataclass(frozen=True)
class Arrived:
    """Where the browser goes on: its realm, with the one-time token of its arrival."""

    realm_name: str
    token: str


class SamlSignIn:
    """Connects SAML logins with the realms' sign-in pages and the first sign-in of
    external identities."""

    def __init__(
        self,
        *,
        logins: SamlLogins,
        providers: SamlProviders,
        federation: Federation,
        continuations: Expiring[SamlContinuation],
        arrivals: Expiring[SamlArrival],
        request_ttl: timedelta,
    ) -> None:
        self._logins = logins
        self._providers = providers
        self._federation = federation
        self._continuations = continuations
        self._arrivals = arrivals
        self._request_ttl = request_ttl

    async def start(self, realm: Realm, alias: str, form_id: str) -> OutgoingRequest:
        """An AuthnRequest whose response will answer the sign-in form ``form_id``
        (checked by the caller to be this browser's)."""
        relay_state = secrets.token_urlsafe(32)
        outgoing = await self._logins.start(realm.tenant_id, alias, relay_state)
        await self._continuations.put(
            digest(relay_state),
            SamlContinuation(realm.name, form_id),
            self._request_ttl,
        )
        return outgoing

    async def arrive(self, login: SamlLogin) -> Arrived | None:
        """Sign in the identity of an accepted response started from a sign-in form:
        its user, created or linked per the provider's first sign-in setting, with the
        roles of the role mappers. None for a login no sign-in form started."""
        continuation = await self._continuations.pop(digest(login.relay_state))
        if continuation is None:
            return None
        identity = login.identity
        provider = await self._providers.provider(
            identity.tenant_id, identity.provider_alias
        )
        outcome = await self._federation.sign_in(
            identity.tenant_id,
            external_identity(provider, identity),
            first_sign_in=provider.first_sign_in,
        )
        if outcome.user.status != ACTIVE:
            raise SamlError("this account is disabled")
        token = secrets.token_urlsafe(32)
        await self._arrivals.put(
            digest(token),
            SamlArrival(identity.tenant_id, outcome.user.id, continuation.form_id),
            ARRIVAL_TTL,
        )
        return Arrived(continuation.realm_name, token)

    async def resume(self, realm: Realm, token: str) -> SamlArrival | None:
        """The arrival of ``token`` at ``realm``, once."""
        arrival = await self._arrivals.pop(digest(token)) if token else None
        if arrival is None or arrival.tenant_id != realm.tenant_id:
            return None
        return arrival


def external_identity(
    provider: SamlIdentityProvider, identity: SamlIdentity
) -> ExternalIdentity:
    """What the first sign-in service needs of a SAML identity: the provider's alias as
    the source, the NameID as the stable id, the email it vouches for when trusted."""
    email = identity.email or (
        identity.name_id if identity.name_id_format == EMAIL_FORMAT else ""
    )
    return ExternalIdentity(
        source=f"saml:{provider.alias}",
        external_id=identity.name_id,
        username=identity.username,
        email=email,
        email_verified=provider.trust_email and bool(email),
        attributes={
            name: value
            for name, value in identity.attributes.items()
            if name not in ("username", "email")
        },
        roles=identity.roles,
        managed_roles=frozenset(mapper.role for mapper in role_mappers_of(provider)),
    )


class SamlExternalProviders:
    """An :class:`~iam.application.ports.signin.ExternalProviders` of the tenant's
    enabled SAML providers: a button each, to a URL relative to the realm's pages."""

    def __init__(self, listing: SamlProviderListing) -> None:
        self._listing = listing

    async def providers(self, tenant_id: str) -> list[ExternalProvider]:
        with in_tenant(tenant_id):
            found = await self._listing.list()
        return [
            ExternalProvider(name=provider.alias, url=f"saml/{provider.alias}/login")
            for provider in sorted(found, key=lambda p: p.alias)
            if provider.enabled and provider.status != DELETED
        ]
