# Generated from spec iam by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API. Request models state every rule the domain
enforces that JSON Schema can say (patterns, lengths, bounds, enums), so the OpenAPI
document tells clients what the service accepts."""

from __future__ import annotations

from eaf.web import View
from pydantic import AwareDatetime, Field


class User(View):
    """A user."""

    id: str = Field(alias="userId", description="identifier")
    tenant_id: str = Field(alias="tenantId", description="the tenant")
    username: str = Field(alias="username")
    email: str = Field(alias="email")
    roles: list[str] = Field(alias="roles")
    attributes: dict[str, str] = Field(alias="attributes")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Role(View):
    """A role."""

    id: str = Field(alias="roleId", description="identifier")
    name: str = Field(alias="name")
    permissions: list[str] = Field(alias="permissions")
    description: str = Field(alias="description")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class ServiceAccount(View):
    """A service account."""

    id: str = Field(alias="serviceAccountId", description="identifier")
    tenant_id: str = Field(alias="tenantId", description="the tenant")
    client_id: str = Field(alias="clientId")
    roles: list[str] = Field(alias="roles")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")
