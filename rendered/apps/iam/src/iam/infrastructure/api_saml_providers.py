"""HTTP API of a tenant's SAML 2.0 identity providers (tenant administrators)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from eaf.web import AnsweringRoute, Body
from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field

from iam.application.ports.saml import POST_BINDING, REDIRECT_BINDING
from iam.application.saml_login import SamlLogins
from iam.application.saml_providers import (
    ALIAS_PATTERN,
    FIRST_SIGN_IN,
    NAME_ID_FORMATS,
    RULES,
    USER_ATTRIBUTE_PATTERN,
    AttributeMapper,
    RoleMapper,
    SamlProviders,
    SamlProviderSettings,
    attribute_mappers_of,
    role_mappers_of,
)
from iam.application.saml_signin import SamlSignIn
from iam.domain.model import SamlIdentityProvider
from iam.infrastructure.federation_http import (
    AUTH_PROBLEMS,
    FEDERATION_READ,
    FEDERATION_WRITE,
    ROLE_NAME_PATTERN,
    JsonSchema,
    in_path_tenant,
)

router = APIRouter(
    prefix="/api/v1/tenants", tags=["identity providers"], route_class=AnsweringRoute
)

ProvidersReader = Annotated[str, Depends(in_path_tenant(FEDERATION_READ))]
ProvidersWriter = Annotated[str, Depends(in_path_tenant(FEDERATION_WRITE))]
CHECKED = (
    "\n\nA configuration is refused (422, every invalid field named) when:\n"
    + "".join(f"\n- {rule}" for rule in RULES)
)


@dataclass(frozen=True)
class SamlFederation:
    """The SAML use cases the routers call (``app.state.saml``)."""

    providers: SamlProviders
    logins: SamlLogins
    signin: SamlSignIn


def saml_federation(request: Request) -> SamlFederation:
    wired: SamlFederation = request.app.state.saml
    return wired


SamlCases = Annotated[SamlFederation, Depends(saml_federation)]


SAML_ATTRIBUTE: JsonSchema = {"pattern": r"\S"}


class AttributeMapperBody(Body):
    saml_attribute: str = Field(
        alias="samlAttribute", examples=["mail"], json_schema_extra=SAML_ATTRIBUTE
    )
    user_attribute: str = Field(
        alias="userAttribute",
        examples=["email"],
        description="username, email, or the name of a user attribute",
        json_schema_extra={"pattern": USER_ATTRIBUTE_PATTERN},
    )


class RoleMapperBody(Body):
    saml_attribute: str = Field(
        alias="samlAttribute", examples=["groups"], json_schema_extra=SAML_ATTRIBUTE
    )
    value: str = Field(examples=["admins"])
    role: str = Field(
        examples=["tenant-admin"],
        description="A role of the tenant",
        json_schema_extra={"pattern": ROLE_NAME_PATTERN},
    )


class SamlProviderBody(Body):
    """Either ``metadataXml``, or ``entityId`` with ``ssoUrl`` and
    ``signingCertificate``."""

    metadata_xml: str = Field(default="", alias="metadataXml")
    entity_id: str = Field(default="", alias="entityId")
    sso_url: str = Field(default="", alias="ssoUrl")
    signing_certificate: str = Field(
        default="", alias="signingCertificate", description="PEM or base64 DER"
    )
    binding: str = Field(
        default=REDIRECT_BINDING,
        description="The binding of the AuthnRequest",
        json_schema_extra={"enum": [REDIRECT_BINDING, POST_BINDING]},
    )
    sign_authn_requests: bool = Field(default=True, alias="signAuthnRequests")
    name_id_format: str = Field(
        default=NAME_ID_FORMATS[0],
        alias="nameIdFormat",
        json_schema_extra={"enum": list(NAME_ID_FORMATS)},
    )
    attribute_mappers: list[AttributeMapperBody] = Field(
        default_factory=list, alias="attributeMappers"
    )
    role_mappers: list[RoleMapperBody] = Field(
        default_factory=list, alias="roleMappers"
    )
    first_sign_in: str = Field(
        default=FIRST_SIGN_IN[0],
        alias="firstSignIn",
        description="The first sign-in of an identity creates its user, or links it to"
        " the one active user with the same email when the provider is trusted for"
        " emails (trustEmail)",
        json_schema_extra={"enum": list(FIRST_SIGN_IN)},
    )
    trust_email: bool = Field(
        default=False,
        alias="trustEmail",
        description="The provider vouches for the emails it asserts",
    )
    enabled: bool = True

    def settings(self) -> SamlProviderSettings:
        return SamlProviderSettings(
            metadata_xml=self.metadata_xml,
            entity_id=self.entity_id,
            sso_url=self.sso_url,
            signing_certificate=self.signing_certificate,
            binding=self.binding,
            sign_requests=self.sign_authn_requests,
            name_id_format=self.name_id_format,
            attribute_mappers=[
                AttributeMapper(m.saml_attribute, m.user_attribute)
                for m in self.attribute_mappers
            ],
            role_mappers=[
                RoleMapper(m.saml_attribute, m.value, m.role) for m in self.role_mappers
            ],
            first_sign_in=self.first_sign_in,
            trust_email=self.trust_email,
            enabled=self.enabled,
        )


class NewSamlProvider(SamlProviderBody):
    alias: str = Field(
        json_schema_extra={"pattern": ALIAS_PATTERN},
        description="Names the provider in its URLs; unique in the tenant",
    )


class SamlProviderView(Body):
    provider_id: str = Field(serialization_alias="providerId")
    tenant_id: str = Field(serialization_alias="tenantId")
    alias: str
    entity_id: str = Field(serialization_alias="entityId")
    sso_url: str = Field(serialization_alias="ssoUrl")
    metadata_xml: str = Field(serialization_alias="metadataXml")
    signing_certificate: str = Field(serialization_alias="signingCertificate")
    binding: str
    sign_authn_requests: bool = Field(serialization_alias="signAuthnRequests")
    name_id_format: str = Field(serialization_alias="nameIdFormat")
    attribute_mappers: list[dict[str, str]] = Field(
        serialization_alias="attributeMappers"
    )
    role_mappers: list[dict[str, str]] = Field(serialization_alias="roleMappers")
    first_sign_in: str = Field(serialization_alias="firstSignIn")
    trust_email: bool = Field(serialization_alias="trustEmail")
    enabled: bool
    service_provider_entity_id: str = Field(
        serialization_alias="serviceProviderEntityId"
    )
    acs_url: str = Field(serialization_alias="acsUrl")
    created_at: datetime = Field(serialization_alias="createdAt")
    updated_at: datetime = Field(serialization_alias="updatedAt")

    @classmethod
    def of(
        cls, tenant_id: str, provider: SamlIdentityProvider, saml: SamlFederation
    ) -> "SamlProviderView":
        sp = saml.logins.service_provider(tenant_id, provider.alias)
        return cls(
            provider_id=provider.id,
            tenant_id=tenant_id,
            alias=provider.alias,
            entity_id=provider.entity_id,
            sso_url=provider.sso_url,
            metadata_xml=provider.metadata_xml,
            signing_certificate=provider.signing_certificate,
            binding=provider.binding,
            sign_authn_requests=provider.sign_requests,
            name_id_format=provider.name_id_format,
            attribute_mappers=[
                {"samlAttribute": m.saml_attribute, "userAttribute": m.user_attribute}
                for m in attribute_mappers_of(provider)
            ],
            role_mappers=[
                {"samlAttribute": m.saml_attribute, "value": m.value, "role": m.role}
                for m in role_mappers_of(provider)
            ],
            first_sign_in=provider.first_sign_in,
            trust_email=provider.trust_email,
            enabled=provider.enabled,
            service_provider_entity_id=sp.entity_id,
            acs_url=sp.acs_url,
            created_at=provider.created_at,
            updated_at=provider.updated_at,
        )


@router.post(
    "/{tenantId}/saml-providers",
    status_code=201,
    responses=AUTH_PROBLEMS,
    description="Configure a SAML 2.0 identity provider of the tenant (409 when the"
    " alias is taken; an unknown role of a role mapper is named as Unknown roles)."
    + CHECKED,
)
async def create_saml_provider(
    tenant_id: ProvidersWriter, body: NewSamlProvider, saml: SamlCases
) -> SamlProviderView:
    provider = await saml.providers.create(tenant_id, body.alias, body.settings())
    return SamlProviderView.of(tenant_id, provider, saml)


@router.get("/{tenantId}/saml-providers", responses=AUTH_PROBLEMS)
async def list_saml_providers(
    tenant_id: ProvidersReader, saml: SamlCases
) -> list[SamlProviderView]:
    return [
        SamlProviderView.of(tenant_id, provider, saml)
        for provider in await saml.providers.providers(tenant_id)
    ]


@router.get("/{tenantId}/saml-providers/{alias}", responses=AUTH_PROBLEMS)
async def get_saml_provider(
    tenant_id: ProvidersReader, alias: str, saml: SamlCases
) -> SamlProviderView:
    provider = await saml.providers.provider(tenant_id, alias)
    return SamlProviderView.of(tenant_id, provider, saml)


@router.put(
    "/{tenantId}/saml-providers/{alias}",
    responses=AUTH_PROBLEMS,
    description="Replace the provider's configuration (its alias stays)." + CHECKED,
)
async def change_saml_provider(
    tenant_id: ProvidersWriter, alias: str, body: SamlProviderBody, saml: SamlCases
) -> SamlProviderView:
    provider = await saml.providers.change(tenant_id, alias, body.settings())
    return SamlProviderView.of(tenant_id, provider, saml)


@router.delete(
    "/{tenantId}/saml-providers/{alias}", status_code=204, responses=AUTH_PROBLEMS
)
async def remove_saml_provider(
    tenant_id: ProvidersWriter, alias: str, saml: SamlCases
) -> Response:
    await saml.providers.remove(tenant_id, alias)
    return Response(status_code=204)
