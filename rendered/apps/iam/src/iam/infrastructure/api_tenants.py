"""HTTP API of tenants: created with their first administrator, listed and suspended by
platform administrators."""

from datetime import datetime

from fastapi import APIRouter, Depends
from pydantic import Field

from iam.application.identity import (
    MIN_PASSWORD_LENGTH,
    TENANTS_READ,
    TENANTS_WRITE,
    USERNAME_PATTERN,
)
from iam.domain.model import Tenant
from iam.infrastructure.http import (
    AUTH_PROBLEMS,
    CamelModel,
    IdentityCases,
    JsonSchema,
    ProblemRoute,
    platform_admin,
)

router = APIRouter(prefix="/api/v1/tenants", tags=["tenants"], route_class=ProblemRoute)


# The rules the use cases enforce, stated for the OpenAPI document (the use cases answer
# a request that breaks them with their own messages).
TENANT_NAME: JsonSchema = {"pattern": r"^(?=[\s\S]*\S)", "maxLength": 100}
USERNAME: JsonSchema = {"pattern": USERNAME_PATTERN}
EMAIL: JsonSchema = {"pattern": "@"}
PASSWORD: JsonSchema = {"minLength": MIN_PASSWORD_LENGTH}


class NewTenant(CamelModel):
    name: str = Field(json_schema_extra=TENANT_NAME)
    admin_username: str = Field(alias="adminUsername", json_schema_extra=USERNAME)
    admin_email: str = Field(alias="adminEmail", json_schema_extra=EMAIL)
    admin_password: str = Field(
        alias="adminPassword", repr=False, json_schema_extra=PASSWORD
    )


class TenantView(CamelModel):
    """A tenant as every answer shows it (the generated GET's view too)."""

    tenant_id: str = Field(serialization_alias="tenantId")
    name: str
    status: str
    created_at: datetime = Field(serialization_alias="createdAt")
    admin_user_id: str = Field(serialization_alias="adminUserId")
    updated_at: datetime = Field(serialization_alias="updatedAt")

    @classmethod
    def of(cls, tenant: Tenant) -> "TenantView":
        return cls(
            tenant_id=tenant.id,
            name=tenant.name,
            status=tenant.status,
            created_at=tenant.created_at,
            admin_user_id=tenant.admin_user_id,
            updated_at=tenant.updated_at,
        )


@router.post(
    "",
    status_code=201,
    responses=AUTH_PROBLEMS,
    dependencies=[Depends(platform_admin(TENANTS_WRITE))],
)
async def create_tenant(body: NewTenant, wired: IdentityCases) -> TenantView:
    """Create a tenant with its built-in roles and first administrator (platform
    administrators only)."""
    tenant, _ = await wired.directory.create_tenant(
        name=body.name,
        admin_username=body.admin_username,
        admin_email=body.admin_email,
        admin_password=body.admin_password,
    )
    return TenantView.of(tenant)


@router.get(
    "",
    responses=AUTH_PROBLEMS,
    dependencies=[Depends(platform_admin(TENANTS_READ))],
)
async def list_tenants(wired: IdentityCases) -> list[TenantView]:
    """Every tenant, by name (platform administrators only)."""
    return [TenantView.of(tenant) for tenant in await wired.directory.tenants()]
