"""HTTP API of a tenant's service accounts: the clients of the client credentials
grant."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import Field

from iam.application.identity import (
    CLIENTS_WRITE,
    PUBLIC_CLIENT_ID,
    ROLE_NAME_PATTERN,
    USERNAME_PATTERN,
    AlreadyExistsError,
)
from iam.domain.model import ServiceAccount
from iam.infrastructure.http import (
    AUTH_PROBLEMS,
    CamelModel,
    IdentityCases,
    ProblemRoute,
    in_path_tenant,
)

router = APIRouter(prefix="/api/v1/tenants", tags=["tenants"], route_class=ProblemRoute)

ClientsWriter = Annotated[str, Depends(in_path_tenant(CLIENTS_WRITE))]


class NewServiceAccount(CamelModel):
    client_id: str = Field(
        alias="clientId",
        json_schema_extra={
            "pattern": USERNAME_PATTERN,
            "not": {"const": PUBLIC_CLIENT_ID},
            "description": f"unique in the tenant; {PUBLIC_CLIENT_ID} is the public"
            " client's",
        },
    )
    roles: list[str] = Field(
        default_factory=list,
        json_schema_extra={"items": {"type": "string", "pattern": ROLE_NAME_PATTERN}},
    )


class ServiceAccountView(CamelModel):
    service_account_id: str = Field(serialization_alias="serviceAccountId")
    tenant_id: str = Field(serialization_alias="tenantId")
    client_id: str = Field(serialization_alias="clientId")
    roles: list[str]
    status: str
    created_at: datetime = Field(serialization_alias="createdAt")
    client_secret: str | None = Field(default=None, serialization_alias="clientSecret")

    @classmethod
    def of(
        cls, tenant_id: str, account: ServiceAccount, secret: str | None = None
    ) -> "ServiceAccountView":
        return cls(
            service_account_id=account.id,
            tenant_id=tenant_id,
            client_id=account.client_id,
            roles=account.roles,
            status=account.status,
            created_at=account.created_at,
            client_secret=secret,
        )


@router.post("/{tenantId}/service-accounts", status_code=201, responses=AUTH_PROBLEMS)
async def create_service_account(
    tenant_id: ClientsWriter, body: NewServiceAccount, wired: IdentityCases
) -> ServiceAccountView:
    """Create a client of the client credentials grant; its secret is shown only here."""
    if await wired.clients.find(tenant_id, body.client_id) is not None:
        raise AlreadyExistsError(f"A client with id {body.client_id} exists")
    created = await wired.directory.create_service_account(
        tenant_id, client_id=body.client_id, roles=body.roles
    )
    return ServiceAccountView.of(tenant_id, created.account, created.secret)
