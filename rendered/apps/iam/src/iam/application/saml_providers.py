"""A tenant's SAML 2.0 identity providers: their configuration, checked field by field."""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import uuid5

from eaf.context import in_tenant

from iam.application.access import AccessControl
from iam.application.identity import (
    ACTIVE,
    DELETED,
    NAMESPACE,
    AlreadyExistsError,
)
from iam.application.ports.outbound import Clock, SamlIdentityProviderRepository
from iam.application.ports.saml import (
    POST_BINDING,
    REDIRECT_BINDING,
    SamlProtocol,
    SamlProviderListing,
)
from iam.domain.errors import (
    ConcurrencyError,
    DomainValidationError,
    NotFoundError,
    Violation,
)
from iam.domain.model import SamlIdentityProvider

ALIAS_PATTERN = r"^[a-z0-9][a-z0-9-]{0,62}$"
BINDINGS = (REDIRECT_BINDING, POST_BINDING)
NAME_ID_FORMATS = (
    "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
    "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
    "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
    "urn:oasis:names:tc:SAML:1.1:nameid-format:X509SubjectName",
    "urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos",
    "urn:oasis:names:tc:SAML:2.0:nameid-format:entity",
)
#: The user fields a SAML attribute may fill; any other name is a user attribute.
USER_FIELDS = ("username", "email")
#: What the first sign-in of an identity does: create its user, or link it to the one
#: active user with the email the provider vouches for (else create).
FIRST_SIGN_IN = ("create", "link-by-email")
USER_ATTRIBUTE_PATTERN = r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$"
"""Also the rule of ``username`` and ``email``."""
NOT_FOUND = "SAML identity provider not found"

BAD_ALIAS = "Alias is 1-63 lowercase letters, digits or dashes"
BOTH_GIVEN = "Give metadataXml or this, not both"
NO_IDP = "Give metadataXml, or entityId, ssoUrl and signingCertificate"
NO_SSO_FOR_BINDING = (
    "The identity provider has no single sign-on service for this binding"
)
BAD_BINDING = "Binding is HTTP-Redirect or HTTP-POST"
BAD_NAME_ID_FORMAT = "Not a SAML 2.0 NameID format URI"
BAD_SSO_URL = "The SSO URL is an http(s) URL"
BAD_CERTIFICATE = "Not a PEM or base64 X.509 certificate"
BLANK_ATTRIBUTE = "Cannot be blank"
BAD_FIRST_SIGN_IN = "First sign-in is create or link-by-email"
BAD_USER_ATTRIBUTE = (
    "username, email, or an attribute name (a letter, then letters, digits, _ . -)"
)
#: What a description of the identity provider's metadata can be refused for.
BAD_METADATA = (
    "Not a SAML 2.0 EntityDescriptor",
    "The metadata describes no identity provider",
    "The identity provider has no signing certificate",
    "A signing certificate of the identity provider is not an X.509 certificate",
)
#: Every rule of a configuration, as its violations say (an unknown role is named
#: "Unknown roles: <role>").
RULES = (
    BAD_ALIAS,
    BOTH_GIVEN,
    *BAD_METADATA,
    NO_IDP,
    NO_SSO_FOR_BINDING,
    BAD_BINDING,
    BAD_NAME_ID_FORMAT,
    BAD_FIRST_SIGN_IN,
    BAD_SSO_URL,
    BAD_CERTIFICATE,
    BLANK_ATTRIBUTE,
    BAD_USER_ATTRIBUTE,
)


def saml_provider_id_for(tenant_id: str, alias: str) -> str:
    return str(uuid5(NAMESPACE, f"{tenant_id}/saml-provider/{alias}"))


@dataclass(frozen=True)
class AttributeMapper:
    """Copies the first value of a SAML attribute to a user field or attribute."""

    saml_attribute: str
    user_attribute: str


@dataclass(frozen=True)
class RoleMapper:
    """Grants ``role`` to an identity whose SAML attribute has ``value``."""

    saml_attribute: str
    value: str
    role: str


@dataclass(frozen=True)
class SamlProviderSettings:
    """What an administrator configures (metadata XML, or entity id + SSO URL +
    certificate)."""

    metadata_xml: str = ""
    entity_id: str = ""
    sso_url: str = ""
    signing_certificate: str = ""
    binding: str = REDIRECT_BINDING
    sign_requests: bool = True
    name_id_format: str = NAME_ID_FORMATS[0]
    attribute_mappers: Sequence[AttributeMapper] = field(default_factory=tuple)
    role_mappers: Sequence[RoleMapper] = field(default_factory=tuple)
    first_sign_in: str = FIRST_SIGN_IN[0]
    trust_email: bool = False
    enabled: bool = True


def attribute_mappers_of(provider: SamlIdentityProvider) -> list[AttributeMapper]:
    return [AttributeMapper(**m) for m in json.loads(provider.attribute_mappers)]


def role_mappers_of(provider: SamlIdentityProvider) -> list[RoleMapper]:
    return [RoleMapper(**m) for m in json.loads(provider.role_mappers)]


def _mappers_json(mappers: Sequence[Any]) -> str:
    return json.dumps([m.__dict__ for m in mappers], sort_keys=True)


class SamlProviders:
    """Configures, lists and removes the SAML identity providers of a tenant."""

    def __init__(
        self,
        *,
        providers: SamlIdentityProviderRepository,
        listing: SamlProviderListing,
        protocol: SamlProtocol,
        access: AccessControl,
        clock: Clock,
    ) -> None:
        self._providers = providers
        self._listing = listing
        self._protocol = protocol
        self._access = access
        self._clock = clock

    async def create(
        self, tenant_id: str, alias: str, settings: SamlProviderSettings
    ) -> SamlIdentityProvider:
        """A new provider (``SamlIdentityProviderCreated``); 409 when the alias is taken,
        422 listing every invalid field."""
        alias_problem = (
            None
            if re.fullmatch(ALIAS_PATTERN, alias)
            else Violation("alias", BAD_ALIAS)
        )
        checked = await self._checked(tenant_id, settings, alias_problem)
        provider_id = saml_provider_id_for(tenant_id, alias)
        with in_tenant(tenant_id):
            existing = await self._providers.get(provider_id)
            if existing is not None and existing.status != DELETED:
                raise AlreadyExistsError(
                    f"A SAML identity provider named {alias} exists"
                )
            now = self._clock.now()
            if existing is None:
                provider = SamlIdentityProvider.create(
                    alias=alias, **_values(checked), now=now, id=provider_id
                )
            else:
                provider = existing.change(**_values(checked), now=now).change_status(
                    status=ACTIVE, now=now
                )
            try:
                return await self._providers.save(provider)
            except ConcurrencyError:
                raise AlreadyExistsError(
                    f"A SAML identity provider named {alias} exists"
                ) from None

    async def change(
        self, tenant_id: str, alias: str, settings: SamlProviderSettings
    ) -> SamlIdentityProvider:
        """Replace the configuration (``SamlIdentityProviderChanged``)."""
        provider = await self.provider(tenant_id, alias)
        checked = await self._checked(tenant_id, settings, None)
        with in_tenant(tenant_id):
            return await self._providers.save(
                provider.change(**_values(checked), now=self._clock.now())
            )

    async def remove(self, tenant_id: str, alias: str) -> None:
        provider = await self.provider(tenant_id, alias)
        with in_tenant(tenant_id):
            await self._providers.save(
                provider.change_status(status=DELETED, now=self._clock.now())
            )

    async def provider(self, tenant_id: str, alias: str) -> SamlIdentityProvider:
        """The tenant's provider ``alias``, enabled or not; 404 when there is none."""
        with in_tenant(tenant_id):
            provider = await self._providers.get(saml_provider_id_for(tenant_id, alias))
        if provider is None or provider.status == DELETED:
            raise NotFoundError(NOT_FOUND)
        return provider

    async def providers(self, tenant_id: str) -> list[SamlIdentityProvider]:
        """The tenant's providers by alias."""
        with in_tenant(tenant_id):
            found = await self._listing.list()
        return sorted((p for p in found if p.status != DELETED), key=lambda p: p.alias)

    async def _checked(
        self,
        tenant_id: str,
        settings: SamlProviderSettings,
        alias_problem: Violation | None,
    ) -> SamlProviderSettings:
        """``settings`` with the identity provider's entity id and SSO URL read from its
        metadata; DomainValidationError listing every invalid field."""
        problems = [alias_problem] if alias_problem else []
        checked = settings
        if settings.metadata_xml.strip():
            for name in ("entity_id", "sso_url", "signing_certificate"):
                if getattr(settings, name):
                    problems.append(Violation(_camel(name), BOTH_GIVEN))
            try:
                described = self._protocol.describe(settings.metadata_xml)
            except ValueError as error:
                reason = str(error)
                problems.append(
                    Violation(
                        "metadataXml",
                        reason if reason in BAD_METADATA else BAD_METADATA[0],
                    )
                )
            else:
                sso_url = described.sso_urls.get(settings.binding, "")
                if not sso_url and settings.binding in BINDINGS:
                    problems.append(Violation("binding", NO_SSO_FOR_BINDING))
                checked = replace(
                    settings, entity_id=described.entity_id, sso_url=sso_url
                )
        else:
            problems.extend(self._manual_problems(settings))
        if settings.binding not in BINDINGS:
            problems.append(Violation("binding", BAD_BINDING))
        if settings.name_id_format not in NAME_ID_FORMATS:
            problems.append(Violation("nameIdFormat", BAD_NAME_ID_FORMAT))
        if settings.first_sign_in not in FIRST_SIGN_IN:
            problems.append(Violation("firstSignIn", BAD_FIRST_SIGN_IN))
        problems.extend(self._mapper_problems(settings))
        DomainValidationError.raise_for(problems)
        roles = [mapper.role for mapper in settings.role_mappers]
        unknown = await self._access.unknown_roles(tenant_id, roles)
        if unknown:
            raise DomainValidationError(
                "roleMappers", f"Unknown roles: {', '.join(sorted(set(unknown)))}"
            )
        return checked

    def _manual_problems(self, settings: SamlProviderSettings) -> list[Violation]:
        problems: list[Violation] = []
        if not settings.entity_id.strip():
            problems.append(Violation("entityId", NO_IDP))
        if not re.fullmatch(r"https?://\S+", settings.sso_url):
            problems.append(Violation("ssoUrl", BAD_SSO_URL))
        try:
            self._protocol.certificate(settings.signing_certificate)
        except ValueError:
            problems.append(Violation("signingCertificate", BAD_CERTIFICATE))
        return problems

    def _mapper_problems(self, settings: SamlProviderSettings) -> list[Violation]:
        problems: list[Violation] = []
        for index, mapper in enumerate(settings.attribute_mappers):
            where = f"attributeMappers.{index}"
            if not mapper.saml_attribute.strip():
                problems.append(Violation(f"{where}.samlAttribute", BLANK_ATTRIBUTE))
            if mapper.user_attribute not in USER_FIELDS and not re.fullmatch(
                USER_ATTRIBUTE_PATTERN, mapper.user_attribute
            ):
                problems.append(Violation(f"{where}.userAttribute", BAD_USER_ATTRIBUTE))
        for index, role_mapper in enumerate(settings.role_mappers):
            if not role_mapper.saml_attribute.strip():
                problems.append(
                    Violation(f"roleMappers.{index}.samlAttribute", BLANK_ATTRIBUTE)
                )
        return problems


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _values(settings: SamlProviderSettings) -> dict[str, Any]:
    return {
        "metadata_xml": settings.metadata_xml,
        "entity_id": settings.entity_id,
        "sso_url": settings.sso_url,
        "signing_certificate": settings.signing_certificate,
        "binding": settings.binding,
        "sign_requests": settings.sign_requests,
        "name_id_format": settings.name_id_format,
        "attribute_mappers": _mappers_json(settings.attribute_mappers),
        "role_mappers": _mappers_json(settings.role_mappers),
        "first_sign_in": settings.first_sign_in,
        "trust_email": settings.trust_email,
        "enabled": settings.enabled,
    }
