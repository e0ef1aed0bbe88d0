# Generated from spec iam by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API. Request models state every rule the domain
enforces that JSON Schema can say (patterns, lengths, bounds, enums), so the OpenAPI
document tells clients what the service accepts."""

from __future__ import annotations

from eaf.web import JsonDateTime
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field


class Body(BaseModel):
    """A request body: camelCase JSON names, unknown keys refused."""

    model_config = ConfigDict(
        populate_by_name=True,
        extra="forbid",
        regex_engine="python-re",
        from_attributes=True,
    )


class View(BaseModel):
    """A response body: camelCase JSON names."""

    model_config = ConfigDict(populate_by_name=True, from_attributes=True)


class Tenant(View):
    """A tenant."""

    id: str = Field(alias="id", description="identifier")
    name: str = Field(alias="name")
    admin_user_id: str = Field(alias="adminUserId")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class User(View):
    """A user."""

    id: str = Field(alias="id", description="identifier")
    username: str = Field(alias="username")
    email: str = Field(alias="email")
    password_hash: str = Field(alias="passwordHash")
    roles: list[str] = Field(alias="roles")
    attributes: dict[str, str] = Field(alias="attributes")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Role(View):
    """A role."""

    id: str = Field(alias="id", description="identifier")
    name: str = Field(alias="name")
    permissions: list[str] = Field(alias="permissions")
    description: str = Field(alias="description")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Policy(View):
    """A policy."""

    id: str = Field(alias="id", description="identifier")
    name: str = Field(alias="name")
    effect: str = Field(alias="effect")
    permissions: list[str] = Field(alias="permissions")
    conditions: str = Field(alias="conditions")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class ServiceAccount(View):
    """A service account."""

    id: str = Field(alias="id", description="identifier")
    client_id: str = Field(alias="clientId")
    secret_hash: str = Field(alias="secretHash")
    roles: list[str] = Field(alias="roles")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class RefreshTokenFamily(View):
    """A refresh token family."""

    id: str = Field(alias="id", description="identifier")
    subject: str = Field(alias="subject")
    client_id: str = Field(alias="clientId")
    scope: str = Field(alias="scope")
    current_hash: str = Field(alias="currentHash")
    used_hashes: list[str] = Field(alias="usedHashes")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class AccessTokenRevocation(View):
    """A access token revocation."""

    id: str = Field(alias="id", description="identifier")
    jti: str = Field(alias="jti")
    expires_at: JsonDateTime = Field(alias="expiresAt")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class FieldError(BaseModel):
    """One broken rule of a request: the field (a path such as ``lines.0.sku``) and why."""

    field: str
    message: str


class Problem(BaseModel):
    """An RFC 9457 problem detail."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    field: str | None = Field(
        default=None, description="the request field at fault, if one is"
    )
    errors: list[FieldError] = []
