# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API (generated from the spec's JSON Schema)."""

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field


class CreateUserProfileRequest(BaseModel):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    name: str
    email: str


class UpdateUserProfileRequest(BaseModel):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    name: str
    email: str


class SampleUserProfile(BaseModel):
    """
    A sample user profile.
    """

    model_config = ConfigDict(
        populate_by_name=True,
    )
    id: str = Field(..., description="identifier (a UUID)")
    name: str
    email: str
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
