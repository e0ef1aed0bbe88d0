"""HTTP API of tenants: created with their first administrator, listed and suspended by
platform administrators."""

from eaf.web import AnsweringRoute, Body
from fastapi import APIRouter, Depends
from iam_client import require
from pydantic import Field

from iam.application.identity import (
    MIN_PASSWORD_LENGTH,
    TENANTS_READ,
    TENANTS_WRITE,
    USERNAME_PATTERN,
)
from iam.infrastructure import schemas
from iam.infrastructure.http import AUTH_PROBLEMS, IdentityCases, JsonSchema
from iam.infrastructure.web import tenant_view, utc_now

router = APIRouter(
    prefix="/api/v1/tenants", tags=["tenants"], route_class=AnsweringRoute
)


# The rules the use cases enforce, stated for the OpenAPI document (the use cases answer
# a request that breaks them with their own messages).
TENANT_NAME: JsonSchema = {"pattern": r"^(?=[\s\S]*\S)", "maxLength": 100}
USERNAME: JsonSchema = {"pattern": USERNAME_PATTERN}
EMAIL: JsonSchema = {"pattern": "@"}
PASSWORD: JsonSchema = {"minLength": MIN_PASSWORD_LENGTH}


class NewTenant(Body):
    name: str = Field(json_schema_extra=TENANT_NAME)
    admin_username: str = Field(alias="adminUsername", json_schema_extra=USERNAME)
    admin_email: str = Field(alias="adminEmail", json_schema_extra=EMAIL)
    admin_password: str = Field(
        alias="adminPassword", repr=False, json_schema_extra=PASSWORD
    )


@router.post(
    "",
    status_code=201,
    responses=AUTH_PROBLEMS,
    dependencies=[Depends(require(TENANTS_WRITE, platform_only=True))],
)
async def create_tenant(body: NewTenant, wired: IdentityCases) -> schemas.Tenant:
    """Create a tenant with its built-in roles and first administrator (platform
    administrators only)."""
    tenant, _ = await wired.directory.create_tenant(
        name=body.name,
        admin_username=body.admin_username,
        admin_email=body.admin_email,
        admin_password=body.admin_password,
    )
    return tenant_view(tenant, utc_now())


@router.get(
    "",
    responses=AUTH_PROBLEMS,
    dependencies=[Depends(require(TENANTS_READ, platform_only=True))],
)
async def list_tenants(wired: IdentityCases) -> list[schemas.Tenant]:
    """Every tenant, by name (platform administrators only)."""
    now = utc_now()
    return [tenant_view(tenant, now) for tenant in await wired.directory.tenants()]
