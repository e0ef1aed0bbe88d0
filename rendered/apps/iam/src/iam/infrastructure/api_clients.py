"""HTTP API of a tenant's registered clients: the applications that sign users in with
a browser (authorization code flow)."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Response
from pydantic import Field

from iam.application.clients import ClientRegistration
from iam.application.identity import CLIENTS_READ, CLIENTS_WRITE, USERNAME_PATTERN
from iam.domain.clients import CLIENT_TYPES, GRANT_TYPES, RegisteredClient
from iam.infrastructure.http import (
    AUTH_PROBLEMS,
    CamelModel,
    IdentityCases,
    JsonSchema,
    ProblemRoute,
    in_path_tenant,
)

router = APIRouter(prefix="/api/v1/tenants", tags=["clients"], route_class=ProblemRoute)

ClientsReader = Annotated[str, Depends(in_path_tenant(CLIENTS_READ))]
ClientsWriter = Annotated[str, Depends(in_path_tenant(CLIENTS_WRITE))]
URIS: JsonSchema = {"items": {"type": "string", "format": "uri"}}


class NewClient(CamelModel):
    client_id: str = Field(
        alias="clientId",
        description="unique in the tenant, among service accounts too",
        json_schema_extra={"pattern": USERNAME_PATTERN, "not": {"const": "iam"}},
    )
    name: str = Field(
        default="",
        description="shown on the sign-in page",
        json_schema_extra={"maxLength": 100},
    )
    client_type: str = Field(
        alias="clientType",
        json_schema_extra={"enum": list(CLIENT_TYPES)},
        description="confidential (gets a secret) or public (PKCE, no secret)",
    )
    grant_types: list[str] = Field(
        alias="grantTypes",
        default_factory=lambda: ["authorization_code"],
        json_schema_extra={"items": {"enum": list(GRANT_TYPES)}},
    )
    redirect_uris: list[str] = Field(
        alias="redirectUris",
        default_factory=list,
        description="compared exactly; https, or http to a loopback host",
        json_schema_extra=URIS,
    )
    post_logout_redirect_uris: list[str] = Field(
        alias="postLogoutRedirectUris", default_factory=list, json_schema_extra=URIS
    )
    scopes: list[str] = Field(
        default_factory=lambda: ["openid", "profile", "email"],
        description="openid, profile, email and permissions <resource>:<action>",
    )
    first_party: bool = Field(
        alias="firstParty",
        default=False,
        description="the tenant's own application: users are not asked to consent",
    )


class ClientView(CamelModel):
    client_id: str = Field(serialization_alias="clientId")
    tenant_id: str = Field(serialization_alias="tenantId")
    name: str
    client_type: str = Field(serialization_alias="clientType")
    grant_types: list[str] = Field(serialization_alias="grantTypes")
    redirect_uris: list[str] = Field(serialization_alias="redirectUris")
    post_logout_redirect_uris: list[str] = Field(
        serialization_alias="postLogoutRedirectUris"
    )
    scopes: list[str]
    first_party: bool = Field(serialization_alias="firstParty")
    status: str
    created_at: datetime = Field(serialization_alias="createdAt")
    client_secret: str | None = Field(default=None, serialization_alias="clientSecret")

    @classmethod
    def of(
        cls, tenant_id: str, client: RegisteredClient, secret: str | None = None
    ) -> "ClientView":
        return cls(
            client_id=client.client_id,
            tenant_id=tenant_id,
            name=client.name,
            client_type=client.client_type,
            grant_types=client.grant_types,
            redirect_uris=client.redirect_uris,
            post_logout_redirect_uris=client.post_logout_redirect_uris,
            scopes=client.scopes,
            first_party=client.first_party,
            status=client.status,
            created_at=client.created_at,
            client_secret=secret,
        )


@router.post(
    "/{tenantId}/clients",
    status_code=201,
    responses=AUTH_PROBLEMS,
    response_model_exclude_none=True,
)
async def register_client(
    tenant_id: ClientsWriter, body: NewClient, wired: IdentityCases
) -> ClientView:
    """Register a client; a confidential client's secret is shown only here. Every
    broken rule is listed at once (422), among them those JSON Schema does not state:

    - iam is the public client's id
    - A client id is 1-64 letters, digits or . _ @ -
    - At least one grant type is needed
    - refresh_token needs authorization_code
    - authorization_code needs a redirect URI
    - An absolute http(s) URI is needed
    - A redirect URI has no fragment
    - http only to a loopback host (localhost, 127.0.0.1, ::1); else https
    - A URI has no spaces or control characters
    - A URI is at most 2000 characters
    - A URI is listed twice
    - At most 20 URIs
    - Not a URI
    - A scope is openid, profile, email or a permission <resource>:<action>
    - A client name is at most 100 characters
    """
    created = await wired.clients.register(
        tenant_id,
        ClientRegistration(
            client_id=body.client_id,
            name=body.name,
            client_type=body.client_type,
            grant_types=body.grant_types,
            redirect_uris=body.redirect_uris,
            post_logout_redirect_uris=body.post_logout_redirect_uris,
            scopes=body.scopes,
            first_party=body.first_party,
        ),
    )
    return ClientView.of(tenant_id, created.client, created.secret)


@router.get(
    "/{tenantId}/clients",
    responses=AUTH_PROBLEMS,
    response_model_exclude_none=True,
)
async def list_clients(
    tenant_id: ClientsReader, wired: IdentityCases
) -> list[ClientView]:
    """The tenant's registered clients, disabled ones too; secrets are never shown."""
    return [
        ClientView.of(tenant_id, client)
        for client in await wired.clients.clients(tenant_id)
    ]


@router.get(
    "/{tenantId}/clients/{clientId}",
    responses=AUTH_PROBLEMS,
    response_model_exclude_none=True,
)
async def get_client(
    tenant_id: ClientsReader, clientId: str, wired: IdentityCases
) -> ClientView:
    return ClientView.of(tenant_id, await wired.clients.client(tenant_id, clientId))


@router.delete(
    "/{tenantId}/clients/{clientId}", status_code=204, responses=AUTH_PROBLEMS
)
async def disable_client(
    tenant_id: ClientsWriter, clientId: str, wired: IdentityCases
) -> Response:
    """Disable the client: it stays readable, with status DISABLED, and gets no code
    or token any more."""
    await wired.clients.disable(tenant_id, clientId)
    return Response(status_code=204)
