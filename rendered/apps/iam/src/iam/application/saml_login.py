"""SAML 2.0 Web Browser SSO with a tenant's identity provider: the AuthnRequest, kept
until answered, and the response, verified once and turned into an external identity."""

import asyncio
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from uuid import uuid5

from eaf.context import in_tenant

from iam.application.identity import ACTIVE, NAMESPACE
from iam.application.ports.outbound import (
    Clock,
    SamlAssertionUseRepository,
    SamlLoginRequestRepository,
    TenantRepository,
)
from iam.application.ports.saml import (
    OutgoingRequest,
    SamlError,
    SamlProtocol,
    ServiceProvider,
    VerifiedAssertion,
)
from iam.application.saml_providers import (
    NOT_FOUND,
    SamlProviders,
    attribute_mappers_of,
    role_mappers_of,
)
from iam.domain.errors import ConcurrencyError, NotFoundError
from iam.domain.model import SamlAssertionUse, SamlIdentityProvider, SamlLoginRequest

PENDING, COMPLETED = "PENDING", "COMPLETED"
#: The rule of usernames (the spec's rule of ``User.username``).
USERNAME_PATTERN = r"^(?:[A-Za-z0-9._@-]{1,64})$"
USERNAME = re.compile(USERNAME_PATTERN.strip("^$"))


def saml_login_request_id_for(tenant_id: str, request_id: str) -> str:
    """The stream of an AuthnRequest: found by its ID in its own tenant only."""
    return str(uuid5(NAMESPACE, f"{tenant_id}/saml-login/{request_id}"))


def saml_assertion_use_id_for(tenant_id: str, issuer: str, assertion_id: str) -> str:
    return str(uuid5(NAMESPACE, f"{tenant_id}/saml-assertion/{issuer}/{assertion_id}"))


class ProviderDisabledError(Exception):
    """The identity provider exists but is disabled: no login through it."""


@dataclass(frozen=True)
class SamlIdentity:
    """Who an identity provider vouched for, with the mappers of the provider applied."""

    tenant_id: str
    provider_alias: str
    issuer: str
    name_id: str
    name_id_format: str
    attributes: dict[str, str]
    """User fields and attributes from the attribute mappers (``email``, ``username``,
    any other name), first value of each SAML attribute."""
    roles: list[str]
    """IAM roles from the role mappers."""

    @property
    def email(self) -> str:
        return self.attributes.get("email", "")

    @property
    def username(self) -> str:
        """The mapped username, else the NameID when it is a valid username, else a
        name derived from the provider and the NameID."""
        for candidate in (self.attributes.get("username", ""), self.name_id):
            if USERNAME.fullmatch(candidate):
                return candidate
        digest = hashlib.sha256(self.name_id.encode()).hexdigest()[:16]
        return f"{self.provider_alias[:40]}-{digest}"


@dataclass(frozen=True)
class SamlLogin:
    """An accepted response: the identity and the RelayState the login started with."""

    identity: SamlIdentity
    relay_state: str


class SamlLogins:
    """Starts logins at a tenant's identity providers and accepts their responses."""

    def __init__(
        self,
        *,
        providers: SamlProviders,
        requests: SamlLoginRequestRepository,
        assertion_uses: SamlAssertionUseRepository,
        tenants: TenantRepository,
        protocol: SamlProtocol,
        clock: Clock,
        public_url: str,
        issuer: str = "",
        request_ttl: timedelta = timedelta(minutes=10),
    ) -> None:
        """The service provider's URLs start with ``public_url``, else ``issuer``."""
        self._providers = providers
        self._requests = requests
        self._assertion_uses = assertion_uses
        self._tenants = tenants
        self._protocol = protocol
        self._clock = clock
        self._public_url = (public_url or issuer).rstrip("/")
        self._request_ttl = request_ttl

    def service_provider(self, tenant_id: str, alias: str) -> ServiceProvider:
        """The IAM's entity id and ACS URL towards the provider ``alias`` of the tenant."""
        base = f"{self._public_url}/api/v1/tenants/{tenant_id}/saml/{alias}"
        return ServiceProvider(entity_id=f"{base}/metadata", acs_url=f"{base}/acs")

    async def metadata(self, tenant_id: str, alias: str) -> str:
        provider = await self._provider(tenant_id, alias, enabled_only=False)
        return self._protocol.metadata(
            self.service_provider(tenant_id, alias),
            sign_requests=provider.sign_requests,
        )

    async def start(
        self, tenant_id: str, alias: str, relay_state: str = ""
    ) -> OutgoingRequest:
        """A new AuthnRequest, remembered with ``relay_state`` (a random one if empty)
        until it is answered or expires (``SamlLoginStarted``)."""
        provider = await self._provider(tenant_id, alias, enabled_only=True)
        relay_state = relay_state or secrets.token_urlsafe(24)
        # pysaml2 signs with the xmlsec1 binary: off the event loop
        outgoing = await asyncio.to_thread(
            self._protocol.authn_request,
            provider,
            self.service_provider(tenant_id, alias),
            relay_state,
        )
        now = self._clock.now()
        with in_tenant(tenant_id):
            await self._requests.save(
                SamlLoginRequest.start(
                    request_id=outgoing.request_id,
                    provider_alias=alias,
                    relay_state=relay_state,
                    expires_at=now + self._request_ttl,
                    now=now,
                    id=saml_login_request_id_for(tenant_id, outgoing.request_id),
                )
            )
        return outgoing

    async def complete(
        self, tenant_id: str, alias: str, saml_response: str, relay_state: str
    ) -> SamlLogin:
        """The identity of a response to a pending request of this tenant and provider
        (``SamlAssertionConsumed``, ``SamlLoginCompleted``); SamlError for anything
        else: unsigned, forged, expired, replayed, unsolicited, for another audience."""
        provider = await self._provider(tenant_id, alias, enabled_only=True)
        request_id = self._protocol.in_response_to(saml_response)
        if not request_id:
            raise SamlError("the response answers no request (unsolicited)")
        now = self._clock.now()
        with in_tenant(tenant_id):
            request = await self._requests.get(
                saml_login_request_id_for(tenant_id, request_id)
            )
        if request is None or request.provider_alias != alias:
            raise SamlError("the response answers no request of this provider")
        if request.status != PENDING:
            raise SamlError("the request was answered already")
        if request.expires_at <= now:
            raise SamlError("the request expired")
        if relay_state != request.relay_state:
            raise SamlError("the RelayState is not the request's")
        assertion = await asyncio.to_thread(
            self._protocol.verify,
            provider,
            self.service_provider(tenant_id, alias),
            saml_response,
            request_id,
        )
        await self._consume(tenant_id, assertion)
        with in_tenant(tenant_id):
            try:
                await self._requests.save(request.complete(status=COMPLETED, now=now))
            except ConcurrencyError:
                raise SamlError("the request was answered already") from None
        return SamlLogin(
            identity=saml_identity(tenant_id, provider, assertion),
            relay_state=request.relay_state,
        )

    async def _consume(self, tenant_id: str, assertion: VerifiedAssertion) -> None:
        """Record the assertion as used: a second use of its ID is a replay."""
        use_id = saml_assertion_use_id_for(
            tenant_id, assertion.issuer, assertion.assertion_id
        )
        with in_tenant(tenant_id):
            if await self._assertion_uses.get(use_id) is not None:
                raise SamlError("the assertion was used already")
            try:
                await self._assertion_uses.save(
                    SamlAssertionUse.create(
                        assertion_id=assertion.assertion_id,
                        issuer=assertion.issuer,
                        expires_at=assertion.expires_at,
                        now=self._clock.now(),
                        id=use_id,
                    )
                )
            except ConcurrencyError:
                raise SamlError("the assertion was used already") from None

    async def _provider(
        self, tenant_id: str, alias: str, *, enabled_only: bool
    ) -> SamlIdentityProvider:
        with in_tenant(tenant_id):
            tenant = await self._tenants.get(tenant_id)
        if tenant is None or tenant.status != ACTIVE:
            raise NotFoundError(NOT_FOUND)
        provider = await self._providers.provider(tenant_id, alias)
        if enabled_only and not provider.enabled:
            raise ProviderDisabledError(
                f"the SAML identity provider {alias} is disabled"
            )
        return provider


def saml_identity(
    tenant_id: str, provider: SamlIdentityProvider, assertion: VerifiedAssertion
) -> SamlIdentity:
    """The identity of ``assertion`` with the provider's attribute and role mappers."""
    attributes: dict[str, str] = {}
    for mapper in attribute_mappers_of(provider):
        values = assertion.attributes.get(mapper.saml_attribute)
        if values:
            attributes[mapper.user_attribute] = values[0]
    roles: list[str] = []
    for role_mapper in role_mappers_of(provider):
        values = assertion.attributes.get(role_mapper.saml_attribute, [])
        if role_mapper.value in values and role_mapper.role not in roles:
            roles.append(role_mapper.role)
    return SamlIdentity(
        tenant_id=tenant_id,
        provider_alias=provider.alias,
        issuer=assertion.issuer,
        name_id=assertion.name_id,
        name_id_format=assertion.name_id_format,
        attributes=attributes,
        roles=roles,
    )
