"""HTTP API of a tenant's external OpenID providers (identity brokering): their
settings, the client secret written, never read back."""

from typing import Annotated

from eaf.web import AnsweringRoute, Body
from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import Field, StrictBool

from iam.application.brokering import Brokering, OidcProviderRequest
from iam.domain.brokering import (
    ALIAS,
    ATTRIBUTE,
    CLAIM_NAME,
    ISSUER_URL,
    MAX_DISPLAY_NAME,
    SCOPE_TOKEN,
    OidcProviderSettings,
    RoleMapper,
)
from iam.domain.federation import FIRST_SIGN_IN_POLICIES
from iam.infrastructure.federation_http import (
    AUTH_PROBLEMS,
    FEDERATION_READ,
    FEDERATION_WRITE,
    ROLE_NAME_PATTERN,
    JsonSchema,
    in_path_tenant,
)

router = APIRouter(
    prefix="/api/v1/tenants/{tenantId}/oidc-providers",
    tags=["brokering"],
    route_class=AnsweringRoute,
)

# The rules the settings enforce, stated for the OpenAPI document (the domain answers a
# request that breaks them with its own messages, every field at once).
NOT_BLANK: JsonSchema = {"pattern": r"^(?=[\s\S]*\S)"}
CLAIM: JsonSchema = {"type": "string", "pattern": f"^{CLAIM_NAME.pattern}$"}
FederationReader = Annotated[str, Depends(in_path_tenant(FEDERATION_READ))]
FederationWriter = Annotated[str, Depends(in_path_tenant(FEDERATION_WRITE))]
AliasPath = Annotated[
    str, Path(max_length=40, pattern=f"^{ALIAS.pattern}$", examples=["acme-sso"])
]


def brokering_of(request: Request) -> Brokering:
    brokering: Brokering = request.app.state.brokering
    return brokering


Providers = Annotated[Brokering, Depends(brokering_of)]


class RoleMapperBody(Body):
    """Grants ``roles`` when ``claim`` equals ``value`` or, a list, holds it."""

    claim: str = Field(examples=["groups"], json_schema_extra=CLAIM)
    value: str = Field(examples=["admins"])
    roles: list[str] = Field(
        min_length=1,
        examples=[["tenant-admin"]],
        json_schema_extra={"items": {"type": "string", "pattern": ROLE_NAME_PATTERN}},
    )


class OidcProviderBody(Body):
    """An external OpenID provider's settings; a field left out takes its default."""

    display_name: str = Field(
        alias="displayName",
        description="The button's label",
        json_schema_extra={**NOT_BLANK, "maxLength": MAX_DISPLAY_NAME},
    )
    issuer: str = Field(
        description="https://...; discovery at {issuer}/.well-known/openid-configuration",
        json_schema_extra={"pattern": f"^{ISSUER_URL.pattern}$"},
    )
    client_id: str = Field(alias="clientId", json_schema_extra=NOT_BLANK)
    client_secret: str = Field(
        alias="clientSecret", repr=False, json_schema_extra={"minLength": 1}
    )
    scopes: list[str] | None = Field(
        default=None,
        examples=[["openid", "email"]],
        json_schema_extra={
            "items": {"type": "string", "pattern": f"^{SCOPE_TOKEN.pattern}$"},
            "contains": {"const": "openid"},
        },
    )
    username_claim: str | None = Field(
        default=None,
        alias="usernameClaim",
        description="preferred_username if left out",
        json_schema_extra={"pattern": f"^{CLAIM_NAME.pattern}$"},
    )
    claim_attributes: dict[str, str] | None = Field(
        default=None,
        alias="claimAttributes",
        description="claim -> user attribute; {email: email, name: name} if left out",
        json_schema_extra={
            "propertyNames": CLAIM,
            "additionalProperties": {
                "type": "string",
                "pattern": f"^{ATTRIBUTE.pattern}$",
            },
        },
    )
    role_mappers: list[RoleMapperBody] | None = Field(default=None, alias="roleMappers")
    first_sign_in: str | None = Field(
        default=None,
        alias="firstSignIn",
        json_schema_extra={"enum": [*FIRST_SIGN_IN_POLICIES, None]},
    )
    enabled: StrictBool = True

    def request(self) -> OidcProviderRequest:
        return OidcProviderRequest(
            display_name=self.display_name,
            issuer=self.issuer,
            client_id=self.client_id,
            client_secret=self.client_secret,
            scopes=self.scopes,
            username_claim=self.username_claim,
            claim_attributes=self.claim_attributes,
            role_mappers=None
            if self.role_mappers is None
            else [RoleMapper(**mapper.model_dump()) for mapper in self.role_mappers],
            first_sign_in=self.first_sign_in,
            enabled=self.enabled,
        )


class OidcProviderView(Body):
    """An external OpenID provider as read back: everything but the client secret."""

    alias: str
    display_name: str = Field(serialization_alias="displayName")
    issuer: str
    client_id: str = Field(serialization_alias="clientId")
    client_secret_set: bool = Field(serialization_alias="clientSecretSet")
    scopes: list[str]
    username_claim: str = Field(serialization_alias="usernameClaim")
    claim_attributes: dict[str, str] = Field(serialization_alias="claimAttributes")
    role_mappers: list[RoleMapperBody] = Field(serialization_alias="roleMappers")
    first_sign_in: str = Field(serialization_alias="firstSignIn")
    enabled: bool

    @classmethod
    def of(cls, settings: OidcProviderSettings) -> "OidcProviderView":
        return cls(
            alias=settings.alias,
            display_name=settings.display_name,
            issuer=settings.issuer,
            client_id=settings.client_id,
            client_secret_set=bool(settings.client_secret.ciphertext),
            scopes=settings.scopes,
            username_claim=settings.username_claim,
            claim_attributes=settings.claim_attributes,
            role_mappers=[
                RoleMapperBody(claim=m.claim, value=m.value, roles=m.roles)
                for m in settings.role_mappers
            ],
            first_sign_in=settings.first_sign_in,
            enabled=settings.enabled,
        )


@router.put(
    "/{alias}",
    responses={
        **AUTH_PROBLEMS,
        201: {"model": OidcProviderView, "description": "Added"},
    },
)
async def configure_oidc_provider(
    tenant_id: FederationWriter,
    alias: AliasPath,
    body: OidcProviderBody,
    providers: Providers,
    response: Response,
) -> OidcProviderView:
    """Add (201) or replace (200) the provider ``alias``. Beyond
    the schema: the issuer is https (http only on a loopback address), the scopes
    include openid, the mapped roles exist."""
    settings, created = await providers.configure(tenant_id, alias, body.request())
    response.status_code = 201 if created else 200
    return OidcProviderView.of(settings)


@router.get("", responses=AUTH_PROBLEMS)
async def list_oidc_providers(
    tenant_id: FederationReader, providers: Providers
) -> list[OidcProviderView]:
    return [OidcProviderView.of(s) for s in await providers.all(tenant_id)]


@router.get("/{alias}", responses=AUTH_PROBLEMS)
async def get_oidc_provider(
    tenant_id: FederationReader, alias: AliasPath, providers: Providers
) -> OidcProviderView:
    return OidcProviderView.of(await providers.provider(tenant_id, alias))


@router.delete("/{alias}", status_code=204, responses=AUTH_PROBLEMS)
async def delete_oidc_provider(
    tenant_id: FederationWriter, alias: AliasPath, providers: Providers
) -> Response:
    """Remove the provider: the users it brought stay, but sign in through it no longer."""
    await providers.remove(tenant_id, alias)
    return Response(status_code=204)
