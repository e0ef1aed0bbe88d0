# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API. Request models state every rule the domain
enforces that JSON Schema can say (patterns, lengths, bounds, enums), so the OpenAPI
document tells clients what the service accepts."""

from __future__ import annotations

from typing import Annotated

from eaf.web import (
    Body,
    JsonBool,
    TextRule,
    View,
)
from pydantic import AwareDatetime, Field


class PropertyBody(Body):
    """A property's value as stored; a secret holds the ciphertext, never the value"""

    value_: str = Field(alias="value", max_length=65536)
    secret: JsonBool = Field(alias="secret", default=False)
    key_id: str | None = Field(alias="keyId", default=None, max_length=100)


class PropertyView(View):
    """A Property as a view shows it: as stored, checking no rule."""

    value_: str = Field(alias="value")
    secret: JsonBool = Field(alias="secret")
    key_id: str | None = Field(alias="keyId")


class DefineConfigSchemaRequest(Body):
    """The body of POST /api/v1/schemas."""

    application: Annotated[
        str,
        TextRule("^(?:[a-z][a-z0-9-]{0,62})$", pattern="^(?:[a-z][a-z0-9-]{0,62})$"),
    ] = Field(alias="application")
    document: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="document", max_length=65536)


class ReviseConfigSchemaRequest(Body):
    """The body of PUT /api/v1/schemas/{id}."""

    document: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="document", max_length=65536)


class ConfigSchema(View):
    """The JSON Schema the property sets of an application must satisfy"""

    id: str = Field(alias="id", description="identifier")
    application: str = Field(alias="application")
    document: str = Field(alias="document")
    revision: int = Field(alias="revision")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class PropertySet(View):
    """The properties of one application in one profile and label; every change is a new revision"""

    id: str = Field(alias="id", description="identifier")
    key_: str = Field(alias="key")
    application: str = Field(alias="application")
    profile: str = Field(alias="profile")
    label: str = Field(alias="label")
    properties: dict[str, PropertyView] = Field(alias="properties")
    revision: int = Field(alias="revision")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class SchemasPage(View):
    """A page of Schemas: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[ConfigSchema]
    total: int
    limit: int
    offset: int
    next: str | None


class PropertySetsPage(View):
    """A page of PropertySets: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[PropertySet]
    total: int
    limit: int
    offset: int
    next: str | None
