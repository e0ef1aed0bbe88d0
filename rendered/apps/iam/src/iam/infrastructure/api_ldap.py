"""HTTP API of a tenant's LDAP / Active Directory provider: its settings (the bind
credential is written, never read back) and the sync of its users."""

from datetime import datetime
from typing import Annotated, Literal

from eaf.web import PROBLEM_TYPE, AnsweringRoute, Body, NumberForm, problem_error
from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import Field, StrictBool

from iam.application.ldap import LdapProviders, LdapRequest, SyncReport
from iam.application.ports.federation import IdentitySourceUnavailableError
from iam.domain.federation import (
    ATTRIBUTE_NAME,
    FIRST_SIGN_IN_POLICIES,
    LDAP_URL,
    MAX_TIMEOUT_SECONDS,
    VENDORS,
    LdapProvider,
)
from iam.infrastructure.federation_http import (
    AUTH_PROBLEMS,
    FEDERATION_READ,
    FEDERATION_WRITE,
    JsonSchema,
    in_path_tenant,
)

router = APIRouter(
    prefix="/api/v1/tenants/{tenantId}/ldap", tags=["ldap"], route_class=AnsweringRoute
)

# The rules the settings enforce, stated for the OpenAPI document (the domain answers a
# request that breaks them with its own messages, every field at once).
NOT_BLANK: JsonSchema = {"pattern": r"^(?=[\s\S]*\S)"}
NAME: JsonSchema = {"pattern": f"^{ATTRIBUTE_NAME.pattern}$"}
URL: JsonSchema = {"pattern": f"^{LDAP_URL.pattern}$"}
TIMEOUT: JsonSchema = {"exclusiveMinimum": 0, "maximum": MAX_TIMEOUT_SECONDS}
FederationReader = Annotated[str, Depends(in_path_tenant(FEDERATION_READ))]
FederationWriter = Annotated[str, Depends(in_path_tenant(FEDERATION_WRITE))]


def ldap_providers(request: Request) -> LdapProviders:
    providers: LdapProviders = request.app.state.ldap
    return providers


Providers = Annotated[LdapProviders, Depends(ldap_providers)]


class LdapSettingsBody(Body):
    """A tenant's LDAP settings; a field left out takes the vendor preset's value (or,
    on an update of the same vendor, the current one)."""

    urls: list[str] = Field(
        min_length=1,
        examples=[["ldaps://ldap.example.com"]],
        json_schema_extra={"items": {"type": "string", **URL}},
    )
    bind_dn: str = Field(alias="bindDn", json_schema_extra=NOT_BLANK)
    bind_credential: str = Field(
        alias="bindCredential", repr=False, json_schema_extra={"minLength": 1}
    )
    users_dn: str = Field(alias="usersDn", json_schema_extra=NOT_BLANK)
    vendor: str = Field(default="other", json_schema_extra={"enum": list(VENDORS)})
    start_tls: StrictBool | None = Field(default=None, alias="startTls")
    ca_certificate: str | None = Field(
        default=None,
        alias="caCertificate",
        description="PEM; empty: the system's certificate authorities",
        json_schema_extra={"pattern": "^$|-----BEGIN CERTIFICATE-----"},
    )
    user_object_class: str | None = Field(
        default=None, alias="userObjectClass", json_schema_extra=NAME
    )
    username_attribute: str | None = Field(
        default=None, alias="usernameAttribute", json_schema_extra=NAME
    )
    login_attributes: list[str] | None = Field(
        default=None,
        alias="loginAttributes",
        json_schema_extra={"items": {"type": "string", **NAME}},
    )
    uuid_attribute: str | None = Field(
        default=None, alias="uuidAttribute", json_schema_extra=NAME
    )
    email_attribute: str | None = Field(
        default=None, alias="emailAttribute", json_schema_extra=NAME
    )
    name_attribute: str | None = Field(
        default=None, alias="nameAttribute", json_schema_extra=NAME
    )
    groups_dn: str | None = Field(default=None, alias="groupsDn")
    group_object_class: str | None = Field(
        default=None, alias="groupObjectClass", json_schema_extra=NAME
    )
    membership_attribute: str | None = Field(
        default=None, alias="membershipAttribute", json_schema_extra=NAME
    )
    group_roles: dict[str, list[str]] | None = Field(
        default=None,
        alias="groupRoles",
        description="LDAP group name -> IAM roles",
        examples=[{"admins": ["tenant-admin"]}],
        json_schema_extra={"propertyNames": NOT_BLANK},
    )
    # a JSON number only (lax pydantic would read true as 1.0)
    connect_timeout_seconds: Annotated[float | None, NumberForm] = Field(
        default=None, alias="connectTimeoutSeconds", json_schema_extra=TIMEOUT
    )
    read_timeout_seconds: Annotated[float | None, NumberForm] = Field(
        default=None, alias="readTimeoutSeconds", json_schema_extra=TIMEOUT
    )
    first_sign_in: str | None = Field(
        default=None,
        alias="firstSignIn",
        json_schema_extra={"enum": [*FIRST_SIGN_IN_POLICIES, None]},
    )

    def request(self) -> LdapRequest:
        return LdapRequest(
            **{name: getattr(self, name) for name in type(self).model_fields}
        )


class LdapProviderView(Body):
    """A tenant's LDAP provider as read back: everything but the bind credential."""

    urls: list[str]
    start_tls: bool = Field(serialization_alias="startTls")
    ca_certificate: str = Field(serialization_alias="caCertificate")
    bind_dn: str = Field(serialization_alias="bindDn")
    bind_credential_set: bool = Field(serialization_alias="bindCredentialSet")
    users_dn: str = Field(serialization_alias="usersDn")
    user_object_class: str = Field(serialization_alias="userObjectClass")
    username_attribute: str = Field(serialization_alias="usernameAttribute")
    login_attributes: list[str] = Field(serialization_alias="loginAttributes")
    uuid_attribute: str = Field(serialization_alias="uuidAttribute")
    email_attribute: str = Field(serialization_alias="emailAttribute")
    name_attribute: str = Field(serialization_alias="nameAttribute")
    groups_dn: str = Field(serialization_alias="groupsDn")
    group_object_class: str = Field(serialization_alias="groupObjectClass")
    membership_attribute: str = Field(serialization_alias="membershipAttribute")
    vendor: str
    group_roles: dict[str, list[str]] = Field(serialization_alias="groupRoles")
    connect_timeout_seconds: float = Field(serialization_alias="connectTimeoutSeconds")
    read_timeout_seconds: float = Field(serialization_alias="readTimeoutSeconds")
    first_sign_in: str = Field(serialization_alias="firstSignIn")
    last_sync_watermark: str = Field(serialization_alias="lastSyncWatermark")
    updated_at: datetime = Field(serialization_alias="updatedAt")

    @classmethod
    def of(cls, provider: LdapProvider) -> "LdapProviderView":
        settings = provider.settings
        return cls(
            **{
                name: getattr(settings, name)
                for name in cls.model_fields
                if hasattr(settings, name) and name != "bind_credential_set"
            },
            bind_credential_set=bool(settings.bind_credential.ciphertext),
            last_sync_watermark=provider.watermark,
            updated_at=provider.updated_at,
        )


class SyncView(Body):
    mode: str
    seen: int
    created: int
    updated: int
    disabled: int
    skipped: int
    watermark: str

    @classmethod
    def of(cls, report: SyncReport) -> "SyncView":
        return cls(**vars(report))


@router.put(
    "",
    responses={
        **AUTH_PROBLEMS,
        201: {"model": LdapProviderView, "description": "Created"},
    },
)
async def configure_ldap(
    tenant_id: FederationWriter,
    body: LdapSettingsBody,
    providers: Providers,
    response: Response,
) -> LdapProviderView:
    """Create (201) or replace (200) the tenant's LDAP provider. Beyond the schema:

    - StartTLS is for ldap:// URLs only
    """
    provider, created = await providers.configure(tenant_id, body.request())
    response.status_code = 201 if created else 200
    return LdapProviderView.of(provider)


@router.get("", responses=AUTH_PROBLEMS)
async def get_ldap(
    tenant_id: FederationReader, providers: Providers
) -> LdapProviderView:
    return LdapProviderView.of(await providers.provider(tenant_id))


@router.delete("", status_code=204, responses=AUTH_PROBLEMS)
async def delete_ldap(tenant_id: FederationWriter, providers: Providers) -> Response:
    """Remove the provider: its users stay, but sign in by LDAP no longer."""
    await providers.remove(tenant_id)
    return Response(status_code=204)


@router.post(
    "/sync",
    responses={
        **AUTH_PROBLEMS,
        503: {
            "content": {PROBLEM_TYPE: {}},
            "description": "The directory cannot be reached or refused TLS",
        },
    },
)
async def sync_ldap(
    tenant_id: FederationWriter,
    providers: Providers,
    mode: Annotated[Literal["full", "changed"], Query()] = "full",
) -> SyncView:
    """Import the directory's users and their group roles: ``full`` (and disable the
    users it no longer has) or ``changed`` (modified since the last sync)."""
    try:
        return SyncView.of(await providers.sync(tenant_id, mode))
    except IdentitySourceUnavailableError as error:
        raise problem_error(503, "LDAP directory unavailable", str(error)) from None
