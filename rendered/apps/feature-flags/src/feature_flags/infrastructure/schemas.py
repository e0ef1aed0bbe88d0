# Generated from spec feature-flags by `generate`; edits are merged on re-render.

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
from pydantic import AwareDatetime, Field, TypeAdapter

from feature_flags.domain.types import FlagType, Operator, PayloadType


class ConstraintBody(Body):
    """A constraint."""

    context_name: Annotated[
        str,
        TextRule(
            "^(?:[A-Za-z][A-Za-z0-9_.-]{0,99})$",
            pattern="^(?:[A-Za-z][A-Za-z0-9_.-]{0,99})$",
        ),
    ] = Field(alias="contextName")
    operator: Operator = Field(alias="operator")
    values_: list[str] = Field(
        alias="values", default_factory=lambda: [], max_length=1000
    )
    value_: str | None = Field(alias="value", default=None, max_length=1000)
    inverted: JsonBool = Field(alias="inverted", default=False)
    case_insensitive: JsonBool = Field(alias="caseInsensitive", default=False)


class PayloadBody(Body):
    """A payload."""

    type_: PayloadType = Field(alias="type")
    value_: str = Field(alias="value", max_length=10000)


class VariantBody(Body):
    """A variant."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=100)
    weight: JsonInt = Field(alias="weight", ge=0, le=1000)
    stickiness: str = Field(alias="stickiness", default="default", max_length=100)
    payload_: PayloadBody | None = Field(alias="payload", default=None)


class StrategyBody(Body):
    """A strategy."""

    name: Annotated[
        str,
        TextRule(
            "^(?:[A-Za-z][A-Za-z0-9_-]{0,99})$",
            pattern="^(?:[A-Za-z][A-Za-z0-9_-]{0,99})$",
        ),
    ] = Field(alias="name")
    parameters: dict[str, str] = Field(
        alias="parameters", default_factory=lambda: {}, max_length=50
    )
    constraints: list[ConstraintBody] = Field(
        alias="constraints",
        default_factory=lambda: TypeAdapter(list[ConstraintBody]).validate_python([]),
        max_length=100,
    )
    segments: list[UUID] = Field(
        alias="segments", default_factory=lambda: [], max_length=50
    )
    variants: list[VariantBody] = Field(
        alias="variants",
        default_factory=lambda: TypeAdapter(list[VariantBody]).validate_python([]),
        max_length=100,
    )


class DependencyBody(Body):
    """A dependency."""

    feature: Annotated[
        str,
        TextRule(
            "^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99})$",
            pattern="^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99})$",
        ),
    ] = Field(alias="feature")
    enabled: JsonBool = Field(alias="enabled", default=True)
    variants: list[str] = Field(
        alias="variants", default_factory=lambda: [], max_length=100
    )


class ToggleUsageBody(Body):
    """A toggle usage."""

    yes: JsonInt = Field(alias="yes", default=0, ge=0, le=9007199254740991)
    no: JsonInt = Field(alias="no", default=0, ge=0, le=9007199254740991)
    variants: dict[
        str,
        Annotated[int, Field(ge=-9007199254740991, le=9007199254740991), IntegerForm],
    ] = Field(alias="variants", default_factory=lambda: {}, max_length=100)


class EnvironmentConfigBody(Body):
    """An environment config."""

    enabled: JsonBool = Field(alias="enabled", default=False)
    strategies: list[StrategyBody] = Field(
        alias="strategies",
        default_factory=lambda: TypeAdapter(list[StrategyBody]).validate_python([]),
        max_length=100,
    )


class ConstraintView(View):
    """A Constraint as a view shows it: as stored, checking no rule."""

    context_name: str = Field(alias="contextName")
    operator: Operator = Field(alias="operator")
    values_: list[str] = Field(alias="values")
    value_: str | None = Field(alias="value")
    inverted: JsonBool = Field(alias="inverted")
    case_insensitive: JsonBool = Field(alias="caseInsensitive")


class PayloadView(View):
    """A Payload as a view shows it: as stored, checking no rule."""

    type_: PayloadType = Field(alias="type")
    value_: str = Field(alias="value")


class VariantView(View):
    """A Variant as a view shows it: as stored, checking no rule."""

    name: str = Field(alias="name")
    weight: int = Field(alias="weight")
    stickiness: str = Field(alias="stickiness")
    payload_: PayloadView | None = Field(alias="payload")


class StrategyView(View):
    """A Strategy as a view shows it: as stored, checking no rule."""

    name: str = Field(alias="name")
    parameters: dict[str, str] = Field(alias="parameters")
    constraints: list[ConstraintView] = Field(alias="constraints")
    segments: list[UUID] = Field(alias="segments")
    variants: list[VariantView] = Field(alias="variants")


class DependencyView(View):
    """A Dependency as a view shows it: as stored, checking no rule."""

    feature: str = Field(alias="feature")
    enabled: JsonBool = Field(alias="enabled")
    variants: list[str] = Field(alias="variants")


class ToggleUsageView(View):
    """A ToggleUsage as a view shows it: as stored, checking no rule."""

    yes: int = Field(alias="yes")
    no: int = Field(alias="no")
    variants: dict[str, int] = Field(alias="variants")


class EnvironmentConfigView(View):
    """A EnvironmentConfig as a view shows it: as stored, checking no rule."""

    enabled: JsonBool = Field(alias="enabled")
    strategies: list[StrategyView] = Field(alias="strategies")


class CreateProjectRequest(Body):
    """The body of POST /api/v1/projects."""

    key_: Annotated[
        str,
        TextRule(
            "^(?:[a-z0-9][a-z0-9-]{0,62})$", pattern="^(?:[a-z0-9][a-z0-9-]{0,62})$"
        ),
    ] = Field(alias="key")
    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=100)
    description: str = Field(alias="description", default="", max_length=1000)
    environments: list[str] = Field(
        alias="environments",
        default_factory=lambda: ["development", "production"],
        min_length=1,
        max_length=20,
    )


class UpdateProjectRequest(Body):
    """The body of PUT /api/v1/projects/{id}."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=100)
    description: str = Field(alias="description", default="", max_length=1000)
    environments: list[str] = Field(
        alias="environments",
        default_factory=lambda: ["development", "production"],
        min_length=1,
        max_length=20,
    )


class CreateSegmentRequest(Body):
    """The body of POST /api/v1/segments."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=100)
    description: str = Field(alias="description", default="", max_length=1000)
    constraints: list[ConstraintBody] = Field(
        alias="constraints",
        default_factory=lambda: TypeAdapter(list[ConstraintBody]).validate_python([]),
        max_length=100,
    )


class UpdateSegmentRequest(Body):
    """The body of PUT /api/v1/segments/{id}."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=100)
    description: str = Field(alias="description", default="", max_length=1000)
    constraints: list[ConstraintBody] = Field(
        alias="constraints",
        default_factory=lambda: TypeAdapter(list[ConstraintBody]).validate_python([]),
        max_length=100,
    )


class CreateFlagRequest(Body):
    """The body of POST /api/v1/flags."""

    key_: Annotated[
        str,
        TextRule(
            "^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99})$",
            pattern="^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99})$",
        ),
    ] = Field(alias="key")
    project_id: UUID = Field(alias="projectId")
    description: str = Field(alias="description", default="", max_length=1000)
    type_: FlagType = Field(alias="type", default=FlagType.RELEASE)
    impression_data: JsonBool = Field(alias="impressionData", default=False)
    environments: dict[str, EnvironmentConfigBody] = Field(
        alias="environments",
        default_factory=lambda: TypeAdapter(
            dict[str, EnvironmentConfigBody]
        ).validate_python({}),
        max_length=20,
    )
    variants: list[VariantBody] = Field(
        alias="variants",
        default_factory=lambda: TypeAdapter(list[VariantBody]).validate_python([]),
        max_length=100,
    )
    dependencies: list[DependencyBody] = Field(
        alias="dependencies",
        default_factory=lambda: TypeAdapter(list[DependencyBody]).validate_python([]),
        max_length=20,
    )


class DescribeFlagPatch(Body):
    """The body of PATCH /api/v1/flags/{id}: a merge patch, what it
    leaves out keeps its value."""

    description: str = patch_field(alias="description", max_length=1000)
    type_: FlagType = patch_field(alias="type")
    impression_data: JsonBool = patch_field(alias="impressionData")


class ConfigureFlagRequest(Body):
    """The body of PUT /api/v1/flags/{id}/environments."""

    environments: dict[str, EnvironmentConfigBody] = Field(
        alias="environments",
        default_factory=lambda: TypeAdapter(
            dict[str, EnvironmentConfigBody]
        ).validate_python({}),
        max_length=20,
    )


class SetVariantsFlagRequest(Body):
    """The body of PUT /api/v1/flags/{id}/variants."""

    variants: list[VariantBody] = Field(
        alias="variants",
        default_factory=lambda: TypeAdapter(list[VariantBody]).validate_python([]),
        max_length=100,
    )


class SetDependenciesFlagRequest(Body):
    """The body of PUT /api/v1/flags/{id}/dependencies."""

    dependencies: list[DependencyBody] = Field(
        alias="dependencies",
        default_factory=lambda: TypeAdapter(list[DependencyBody]).validate_python([]),
        max_length=20,
    )


class MarkStaleFlagRequest(Body):
    """The body of PUT /api/v1/flags/{id}/stale."""

    stale: JsonBool = Field(alias="stale", default=False)


class SubmitUsageReportRequest(Body):
    """The body of POST /api/v1/usage-reports."""

    app_name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="appName", max_length=200)
    instance_id: str = Field(alias="instanceId", default="unknown", max_length=200)
    environment: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="environment", max_length=100)
    start: JsonDateTime = Field(alias="start")
    stop: JsonDateTime = Field(alias="stop")
    toggles: dict[str, ToggleUsageBody] = Field(
        alias="toggles",
        default_factory=lambda: TypeAdapter(dict[str, ToggleUsageBody]).validate_python(
            {}
        ),
        max_length=5000,
    )


class Project(View):
    """A project."""

    id: str = Field(alias="id", description="identifier")
    key_: str = Field(alias="key")
    name: str = Field(alias="name")
    description: str = Field(alias="description")
    environments: list[str] = Field(alias="environments")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Segment(View):
    """A segment."""

    id: str = Field(alias="id", description="identifier")
    name: str = Field(alias="name")
    description: str = Field(alias="description")
    constraints: list[ConstraintView] = Field(alias="constraints")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Flag(View):
    """A flag."""

    id: str = Field(alias="id", description="identifier")
    key_: str = Field(alias="key")
    project_id: UUID = Field(alias="projectId")
    description: str = Field(alias="description")
    type_: FlagType = Field(alias="type")
    impression_data: JsonBool = Field(alias="impressionData")
    environments: dict[str, EnvironmentConfigView] = Field(alias="environments")
    variants: list[VariantView] = Field(alias="variants")
    dependencies: list[DependencyView] = Field(alias="dependencies")
    stale: JsonBool = Field(alias="stale")
    archived_: JsonBool = Field(alias="archived")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class UsageReport(View):
    """What an SDK instance (or the OFREP endpoints) evaluated in a time window"""

    id: str = Field(alias="id", description="identifier")
    app_name: str = Field(alias="appName")
    instance_id: str = Field(alias="instanceId")
    environment: str = Field(alias="environment")
    start: JsonDateTime = Field(alias="start")
    stop: JsonDateTime = Field(alias="stop")
    toggles: dict[str, ToggleUsageView] = Field(alias="toggles")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class UsageReportsPage(View):
    """A page of UsageReports: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[UsageReport]
    total: int
    limit: int
    offset: int
    next: str | None


class ProjectsPage(View):
    """A page of Projects: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[Project]
    total: int
    limit: int
    offset: int
    next: str | None


class SegmentsPage(View):
    """A page of Segments: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[Segment]
    total: int
    limit: int
    offset: int
    next: str | None


class FlagsPage(View):
    """A page of Flags: ``items`` from ``offset``, ``total`` matching in all, and the
    link to the next page (null on the last)."""

    items: list[Flag]
    total: int
    limit: int
    offset: int
    next: str | None
