"""The bodies every service's HTTP API shares: request and response base models, and the
RFC 9457 problem its errors are answered with (as the OpenAPI document states them)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Body(BaseModel):
    """A request body: camelCase JSON names (their Python names are unknown keys, as the
    API documents only the former), unknown keys refused. Built from an object's
    attributes (a value object answered in a view), it is validated ``by_name=True``."""

    model_config = ConfigDict(
        extra="forbid",
        from_attributes=True,
        # NaN and infinities (which a string such as "NaN" or an overflowing 1e400 would
        # give) are no numbers a service can store or compare: refused, 422
        allow_inf_nan=False,
    )


class View(BaseModel):
    """A response body: camelCase JSON names."""

    model_config = ConfigDict(populate_by_name=True, from_attributes=True)


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
