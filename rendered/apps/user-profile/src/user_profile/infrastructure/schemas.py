# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API. Request models state every rule the domain
enforces that JSON Schema can say (patterns, lengths, bounds, enums), so the OpenAPI
document tells clients what the service accepts."""

from __future__ import annotations

from typing import Annotated

from eaf.web import (
    Body,
    TextRule,
    View,
)
from pydantic import AwareDatetime, Field


class CreateUserProfileRequest(Body):
    """The body of POST /api/v1/user-profiles."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name")
    email: Annotated[str, TextRule("^(?=[\\s\\S]*@)", contains="@")] = Field(
        alias="email"
    )


class UpdateUserProfileRequest(Body):
    """The body of PUT /api/v1/user-profiles/{id}."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name")
    email: Annotated[str, TextRule("^(?=[\\s\\S]*@)", contains="@")] = Field(
        alias="email"
    )


class SampleUserProfile(View):
    """A sample user profile."""

    id: str = Field(alias="id", description="identifier")
    name: str = Field(alias="name")
    email: str = Field(alias="email")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")
