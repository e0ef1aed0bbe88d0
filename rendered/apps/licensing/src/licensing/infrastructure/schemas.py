# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API. Request models state every rule the domain
enforces that JSON Schema can say (patterns, lengths, bounds, enums), so the OpenAPI
document tells clients what the service accepts."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from eaf.web import (
    Body,
    IntegerForm,
    JsonBool,
    JsonDateTime,
    JsonInt,
    TextRule,
    View,
    patch_field,
)
from pydantic import AwareDatetime, Field

from licensing.domain.types import LicenseStatus


class CreateProductRequest(Body):
    """The body of POST /api/v1/products."""

    code: Annotated[
        str,
        TextRule(
            "^(?:[a-z0-9][a-z0-9-]{0,62})$", pattern="^(?:[a-z0-9][a-z0-9-]{0,62})$"
        ),
    ] = Field(alias="code")
    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=200)
    url: str = Field(alias="url", default="", max_length=2000)
    metadata: dict[str, str] = Field(
        alias="metadata", default_factory=lambda: {}, max_length=50
    )


class UpdateProductRequest(Body):
    """The body of PUT /api/v1/products/{id}."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=200)
    url: str = Field(alias="url", default="", max_length=2000)
    metadata: dict[str, str] = Field(
        alias="metadata", default_factory=lambda: {}, max_length=50
    )


class CreatePolicyRequest(Body):
    """The body of POST /api/v1/policies."""

    product_id: UUID = Field(alias="productId")
    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=200)
    duration_days: Annotated[int | None, IntegerForm] = Field(
        alias="durationDays", default=None, ge=1, le=36500
    )
    max_machines: Annotated[int | None, IntegerForm] = Field(
        alias="maxMachines", default=None, ge=1, le=100000
    )
    floating: JsonBool = Field(alias="floating", default=False)
    entitlements: list[str] = Field(
        alias="entitlements", default_factory=lambda: [], max_length=100
    )
    grace_period_days: JsonInt = Field(alias="gracePeriodDays", default=0, ge=0, le=365)
    heartbeat_interval_seconds: Annotated[int | None, IntegerForm] = Field(
        alias="heartbeatIntervalSeconds", default=None, ge=60, le=31536000
    )


class UpdatePolicyRequest(Body):
    """The body of PUT /api/v1/policies/{id}."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=200)
    duration_days: Annotated[int | None, IntegerForm] = Field(
        alias="durationDays", default=None, ge=1, le=36500
    )
    max_machines: Annotated[int | None, IntegerForm] = Field(
        alias="maxMachines", default=None, ge=1, le=100000
    )
    floating: JsonBool = Field(alias="floating", default=False)
    entitlements: list[str] = Field(
        alias="entitlements", default_factory=lambda: [], max_length=100
    )
    grace_period_days: JsonInt = Field(alias="gracePeriodDays", default=0, ge=0, le=365)
    heartbeat_interval_seconds: Annotated[int | None, IntegerForm] = Field(
        alias="heartbeatIntervalSeconds", default=None, ge=60, le=31536000
    )


class CreateLicenseRequest(Body):
    """The body of POST /api/v1/licenses."""

    key_: Annotated[
        str,
        TextRule(
            "^(?:([A-Z0-9]{4,8}(-[A-Z0-9]{4,8}){1,7})?)$",
            pattern="^(?:([A-Z0-9]{4,8}(-[A-Z0-9]{4,8}){1,7})?)$",
        ),
    ] = Field(alias="key", default="")
    policy_id: UUID = Field(alias="policyId")
    product_id: UUID = Field(alias="productId")
    name: str = Field(alias="name", default="", max_length=200)
    owner: str = Field(alias="owner", default="", max_length=320)
    expires_at: JsonDateTime | None = Field(alias="expiresAt", default=None)
    duration_days: JsonInt = Field(alias="durationDays", default=0, ge=0, le=36500)
    max_machines: Annotated[int | None, IntegerForm] = Field(
        alias="maxMachines", default=None, ge=1, le=100000
    )
    metadata: dict[str, str] = Field(
        alias="metadata", default_factory=lambda: {}, max_length=50
    )


class UpdateLicensePatch(Body):
    """The body of PATCH /api/v1/licenses/{id}: a merge patch, what it
    leaves out keeps its value."""

    name: str = patch_field(alias="name", max_length=200)
    owner: str = patch_field(alias="owner", max_length=320)
    metadata: dict[str, str] = patch_field(alias="metadata", max_length=50)


class ActivateMachineRequest(Body):
    """The body of POST /api/v1/machines."""

    license_id: UUID = Field(alias="licenseId")
    fingerprint: Annotated[
        str,
        TextRule(
            "^(?:[A-Za-z0-9:._-]{1,200})$", pattern="^(?:[A-Za-z0-9:._-]{1,200})$"
        ),
    ] = Field(alias="fingerprint")
    name: str = Field(alias="name", default="", max_length=200)
    platform: str = Field(alias="platform", default="", max_length=100)


class Product(View):
    """A product."""

    id: str = Field(alias="id", description="identifier")
    code: str = Field(alias="code")
    name: str = Field(alias="name")
    url: str = Field(alias="url")
    metadata: dict[str, str] = Field(alias="metadata")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Policy(View):
    """The terms licenses are issued under"""

    id: str = Field(alias="id", description="identifier")
    product_id: UUID = Field(alias="productId")
    name: str = Field(alias="name")
    duration_days: int | None = Field(alias="durationDays")
    max_machines: int | None = Field(alias="maxMachines")
    floating: JsonBool = Field(alias="floating")
    entitlements: list[str] = Field(alias="entitlements")
    grace_period_days: int = Field(alias="gracePeriodDays")
    heartbeat_interval_seconds: int | None = Field(alias="heartbeatIntervalSeconds")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class License(View):
    """A license."""

    id: str = Field(alias="id", description="identifier")
    key_: str = Field(alias="key")
    policy_id: UUID = Field(alias="policyId")
    product_id: UUID = Field(alias="productId")
    name: str = Field(alias="name")
    owner: str = Field(alias="owner")
    expires_at: JsonDateTime | None = Field(alias="expiresAt")
    duration_days: int = Field(alias="durationDays")
    max_machines: int | None = Field(alias="maxMachines")
    status: LicenseStatus = Field(alias="status")
    machine_count: int = Field(alias="machineCount")
    metadata: dict[str, str] = Field(alias="metadata")
    expired: JsonBool = Field(alias="expired", description="computed when read")
    effective_status: LicenseStatus = Field(
        alias="effectiveStatus", description="computed when read"
    )
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Machine(View):
    """A device a license is activated on, known by its fingerprint"""

    id: str = Field(alias="id", description="identifier")
    license_id: UUID = Field(alias="licenseId")
    fingerprint: str = Field(alias="fingerprint")
    name: str = Field(alias="name")
    platform: str = Field(alias="platform")
    last_heartbeat_at: JsonDateTime | None = Field(alias="lastHeartbeatAt")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class ProductsPage(View):
    """A page of Products: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[Product]
    total: int
    limit: int
    offset: int
    next: str | None


class PoliciesPage(View):
    """A page of Policies: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[Policy]
    total: int
    limit: int
    offset: int
    next: str | None


class LicensesPage(View):
    """A page of Licenses: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[License]
    total: int
    limit: int
    offset: int
    next: str | None


class MachinesPage(View):
    """A page of Machines: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[Machine]
    total: int
    limit: int
    offset: int
    next: str | None
