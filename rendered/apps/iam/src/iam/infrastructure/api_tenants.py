"""HTTP API of tenants, their users and their service accounts."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Response
from pydantic import Field

from iam.application.directory import UserChanges
from iam.application.identity import (
    CLIENTS_READ,
    CLIENTS_WRITE,
    TENANTS_WRITE,
    USER_ROLE,
    USERS_READ,
    USERS_WRITE,
)
from iam.domain.model import ServiceAccount, User
from iam.infrastructure.http import (
    AUTH_PROBLEMS,
    CamelModel,
    IdentityCases,
    ProblemRoute,
    in_path_tenant,
    requires,
)

router = APIRouter(prefix="/api/v1/tenants", tags=["tenants"], route_class=ProblemRoute)


class NewTenant(CamelModel):
    name: str
    admin_username: str = Field(alias="adminUsername")
    admin_email: str = Field(alias="adminEmail")
    admin_password: str = Field(alias="adminPassword", repr=False)


class CreatedTenant(CamelModel):
    tenant_id: str = Field(serialization_alias="tenantId")
    name: str
    status: str
    created_at: datetime = Field(serialization_alias="createdAt")
    admin_user_id: str = Field(serialization_alias="adminUserId")


class NewUser(CamelModel):
    username: str
    email: str
    password: str = Field(repr=False)
    roles: list[str] = Field(default_factory=lambda: [USER_ROLE])
    attributes: dict[str, str] = Field(default_factory=dict)


class UserPatch(CamelModel):
    status: str | None = None
    roles: list[str] | None = None
    attributes: dict[str, str] | None = None
    password: str | None = Field(default=None, repr=False)


class UserView(CamelModel):
    user_id: str = Field(serialization_alias="userId")
    tenant_id: str = Field(serialization_alias="tenantId")
    username: str
    email: str
    roles: list[str]
    attributes: dict[str, str]
    status: str
    created_at: datetime = Field(serialization_alias="createdAt")
    updated_at: datetime = Field(serialization_alias="updatedAt")

    @classmethod
    def of(cls, tenant_id: str, user: User) -> "UserView":
        return cls(
            user_id=user.id,
            tenant_id=tenant_id,
            username=user.username,
            email=user.email,
            roles=user.roles,
            attributes=user.attributes,
            status=user.status,
            created_at=user.created_at,
            updated_at=user.updated_at,
        )


class NewServiceAccount(CamelModel):
    client_id: str = Field(alias="clientId")
    roles: list[str] = Field(default_factory=list)


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


UsersReader = Annotated[str, Depends(in_path_tenant(USERS_READ))]
UsersWriter = Annotated[str, Depends(in_path_tenant(USERS_WRITE))]
ClientsReader = Annotated[str, Depends(in_path_tenant(CLIENTS_READ))]
ClientsWriter = Annotated[str, Depends(in_path_tenant(CLIENTS_WRITE))]


@router.post(
    "",
    status_code=201,
    response_model_by_alias=True,
    responses=AUTH_PROBLEMS,
    dependencies=[Depends(requires(TENANTS_WRITE))],
)
async def create_tenant(body: NewTenant, wired: IdentityCases) -> CreatedTenant:
    """Create a tenant with its built-in roles and first administrator (platform
    administrators only)."""
    tenant, admin = await wired.directory.create_tenant(
        name=body.name,
        admin_username=body.admin_username,
        admin_email=body.admin_email,
        admin_password=body.admin_password,
    )
    return CreatedTenant(
        tenant_id=tenant.id,
        name=tenant.name,
        status=tenant.status,
        created_at=tenant.created_at,
        admin_user_id=admin.id,
    )


@router.post("/{tenantId}/users", status_code=201, responses=AUTH_PROBLEMS)
async def create_user(
    tenant_id: UsersWriter, body: NewUser, wired: IdentityCases
) -> UserView:
    user = await wired.directory.create_user(
        tenant_id,
        username=body.username,
        email=body.email,
        password=body.password,
        roles=body.roles,
        attributes=body.attributes,
    )
    return UserView.of(tenant_id, user)


@router.get("/{tenantId}/users", responses=AUTH_PROBLEMS)
async def list_users(tenant_id: UsersReader, wired: IdentityCases) -> list[UserView]:
    """The tenant's users (from a read model: a new user appears within moments)."""
    return [
        UserView.of(tenant_id, user) for user in await wired.directory.users(tenant_id)
    ]


@router.get("/{tenantId}/users/{userId}", responses=AUTH_PROBLEMS)
async def get_user(
    tenant_id: UsersReader, userId: str, wired: IdentityCases
) -> UserView:
    return UserView.of(tenant_id, await wired.directory.user(tenant_id, userId))


@router.patch("/{tenantId}/users/{userId}", responses=AUTH_PROBLEMS)
async def change_user(
    tenant_id: UsersWriter, userId: str, body: UserPatch, wired: IdentityCases
) -> UserView:
    changes = UserChanges(
        status=body.status,
        roles=body.roles,
        attributes=body.attributes,
        password=body.password,
    )
    user = await wired.directory.change_user(tenant_id, userId, changes)
    return UserView.of(tenant_id, user)


@router.delete("/{tenantId}/users/{userId}", status_code=204, responses=AUTH_PROBLEMS)
async def delete_user(
    tenant_id: UsersWriter, userId: str, wired: IdentityCases
) -> Response:
    await wired.directory.delete_user(tenant_id, userId)
    return Response(status_code=204)


@router.post("/{tenantId}/service-accounts", status_code=201, responses=AUTH_PROBLEMS)
async def create_service_account(
    tenant_id: ClientsWriter, body: NewServiceAccount, wired: IdentityCases
) -> ServiceAccountView:
    """Create a client of the client credentials grant; its secret is shown only here."""
    created = await wired.directory.create_service_account(
        tenant_id, client_id=body.client_id, roles=body.roles
    )
    return ServiceAccountView.of(tenant_id, created.account, created.secret)


@router.get(
    "/{tenantId}/service-accounts/{serviceAccountId}",
    responses=AUTH_PROBLEMS,
    response_model_exclude_none=True,
)
async def get_service_account(
    tenant_id: ClientsReader, serviceAccountId: str, wired: IdentityCases
) -> ServiceAccountView:
    account = await wired.directory.service_account(tenant_id, serviceAccountId)
    return ServiceAccountView.of(tenant_id, account)


@router.delete(
    "/{tenantId}/service-accounts/{serviceAccountId}",
    status_code=204,
    responses=AUTH_PROBLEMS,
)
async def disable_service_account(
    tenant_id: ClientsWriter, serviceAccountId: str, wired: IdentityCases
) -> Response:
    await wired.directory.disable_service_account(tenant_id, serviceAccountId)
    return Response(status_code=204)
