# Generated from spec iam by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API (generated from the spec's JSON Schema)."""

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field


class Tenant(BaseModel):
    """
    A tenant.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    name: str
    admin_user_id: str = Field(..., alias="adminUserId")
    status: str | None = "ACTIVE"
    created_at: AwareDatetime = Field(..., alias="createdAt")
    updated_at: AwareDatetime = Field(..., alias="updatedAt")


class User(BaseModel):
    """
    A user.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    username: str
    email: str
    password_hash: str = Field(..., alias="passwordHash")
    roles: list[str]
    attributes: dict[str, str]
    status: str | None = "ACTIVE"
    created_at: AwareDatetime = Field(..., alias="createdAt")
    updated_at: AwareDatetime = Field(..., alias="updatedAt")


class Role(BaseModel):
    """
    A role.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    name: str
    permissions: list[str]
    description: str | None = ""
    created_at: AwareDatetime = Field(..., alias="createdAt")
    updated_at: AwareDatetime = Field(..., alias="updatedAt")


class Policy(BaseModel):
    """
    A policy.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    name: str
    effect: str
    permissions: list[str]
    conditions: str = Field(..., description="JSON array of conditions")
    status: str | None = "ACTIVE"
    created_at: AwareDatetime = Field(..., alias="createdAt")
    updated_at: AwareDatetime = Field(..., alias="updatedAt")


class ServiceAccount(BaseModel):
    """
    A service account.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    client_id: str = Field(..., alias="clientId")
    secret_hash: str = Field(..., alias="secretHash")
    roles: list[str]
    status: str | None = "ACTIVE"
    created_at: AwareDatetime = Field(..., alias="createdAt")
    updated_at: AwareDatetime = Field(..., alias="updatedAt")


class RefreshTokenFamily(BaseModel):
    """
    A refresh token family.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    subject: str
    client_id: str = Field(..., alias="clientId")
    scope: str | None = ""
    current_hash: str = Field(..., alias="currentHash")
    used_hashes: list[str] | None = Field([], alias="usedHashes")
    status: str | None = "ACTIVE"
    created_at: AwareDatetime = Field(..., alias="createdAt")
    updated_at: AwareDatetime = Field(..., alias="updatedAt")


class AccessTokenRevocation(BaseModel):
    """
    A access token revocation.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    jti: str
    expires_at: AwareDatetime = Field(..., alias="expiresAt")
    created_at: AwareDatetime = Field(..., alias="createdAt")
    updated_at: AwareDatetime = Field(..., alias="updatedAt")


class FieldError(BaseModel):
    """
    One invalid field of a request.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    field: str
    message: str


class Problem(BaseModel):
    """
    An RFC 9457 problem detail.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    type: str | None = "about:blank"
    title: str
    status: int
    detail: str
    field: str | None = Field(None, description="the request field at fault, if one is")
    errors: list[FieldError] | None = Field([], validate_default=True)
