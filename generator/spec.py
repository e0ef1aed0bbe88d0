"""The spec format: a strict pydantic model of one service or library spec."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

NAME_RULE = r"^[a-z][a-z0-9-]*[a-z0-9]$"
SCALAR_TYPES = ("str", "int", "float", "bool", "decimal", "uuid", "datetime", "date")
TYPE_FORMS = (*SCALAR_TYPES, "list[<scalar>]", "map")
PASCAL = r"^[A-Z][A-Za-z0-9]*$"
CAMEL = r"^[a-z][A-Za-z0-9]*$"
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
QUERIES = ("get", "list")
PERMISSION = r"^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$"
RULE_KEYS = ("not_blank", "contains", "pattern", "min", "max", "min_length", "max_length")


def is_known_type(type_name: str) -> bool:
    """True for a scalar type, a list of one, or ``map`` (string keys to string values)."""
    match = re.fullmatch(r"list\[(\w+)\]", type_name)
    return (
        type_name in SCALAR_TYPES
        or type_name == "map"
        or (match is not None and match[1] in SCALAR_TYPES)
    )


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Rule(_Strict):
    """One validation rule of a field; exactly one rule key, with the message raised."""

    not_blank: bool | None = None
    contains: str | None = None
    pattern: str | None = None
    min: float | None = None
    max: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    message: str | None = None

    @property
    def kind(self) -> str:
        return next(key for key in RULE_KEYS if getattr(self, key) is not None)

    @property
    def value(self) -> Any:
        return getattr(self, self.kind)


def _shorthand_field(value: Any) -> Any:
    return {"type": value} if isinstance(value, str) else value


class FieldSpec(_Strict):
    """A typed field of an aggregate, event or model."""

    type: str = Field(description=f"one of: {', '.join(TYPE_FORMS)}")
    description: str | None = None
    default: Any = None
    example: Any = Field(default=None, description="a valid value, used in docs and tests")
    rules: list[Rule] = []

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str) -> str:
        if not is_known_type(value):
            raise ValueError(f"unknown type {value!r} (expected one of: {', '.join(TYPE_FORMS)})")
        return value

    @field_validator("rules")
    @classmethod
    def _one_key_per_rule(cls, rules: list[Rule]) -> list[Rule]:
        for rule in rules:
            keys = [key for key in RULE_KEYS if getattr(rule, key) is not None]
            if len(keys) != 1:
                raise ValueError(
                    f"a rule needs exactly one of {', '.join(RULE_KEYS)} (got {keys or 'none'})"
                )
        return rules


Fields = dict[str, Annotated[FieldSpec, BeforeValidator(_shorthand_field)]]


class CommandSpec(_Strict):
    """A command of an aggregate: its parameters and the event it emits."""

    description: str | None = None
    params: list[str] = []
    emits: str
    creates: bool = False


class AggregateSpec(_Strict):
    """An aggregate: identity, fields with rules, commands."""

    description: str | None = None
    fields: Fields = {}
    commands: dict[str, CommandSpec] = {}
    not_found: str | None = Field(default=None, description="message when no aggregate has the id")
    event_id: str | None = Field(
        default=None,
        description="name of the identity field in this aggregate's events (default <aggregate>Id)",
    )


class UpcastSpec(_Strict):
    """How a stored event of one schema version becomes the next version."""

    rename: dict[str, str] = Field(default={}, description="old field name -> new name")
    add: dict[str, Any] = Field(default={}, description="new field -> value for old events")
    remove: list[str] = Field(default=[], description="fields the new version dropped")


class EventSpec(_Strict):
    """A domain event with its schema version and the upcasts from older versions."""

    description: str | None = None
    version: int = Field(default=1, ge=1)
    fields: Fields = {}
    upcasts: dict[int, UpcastSpec] = Field(
        default={}, description="from-version -> the change to the next version"
    )


class ModelSpec(_Strict):
    """A request or response body."""

    description: str | None = None
    fields: Fields = {}


class ReadModelSpec(_Strict):
    """A projection: one row per aggregate, kept up to date from its events."""

    description: str | None = None
    of: str = Field(description="the aggregate whose events build the rows")


CONSUMED_EVENT = r"^[a-z][a-z0-9-]*[a-z0-9]\.[A-Z][A-Za-z0-9]*$"


class ConsumeSpec(_Strict):
    """An event of another service this service reacts to, through a durable consumer."""

    description: str | None = None
    handler: str | None = Field(
        default=None,
        description="the reaction method (camelCase; default on<EventType>)",
    )
    durable: str | None = Field(
        default=None,
        description="the consumer group (default <service>-<producer>-<event-type>)",
    )
    max_deliver: int = Field(default=5, ge=1, description="attempts before the dead letter queue")
    fields: Fields = Field(
        default={},
        description="the payload fields this service reads (others are ignored)",
    )


class EndpointSpec(_Strict):
    """An HTTP endpoint bound to an aggregate command or query."""

    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
    path: str
    command: str | None = Field(default=None, description="<Aggregate>.<command>")
    query: str | None = Field(
        default=None, description="<Aggregate>.get, or <Aggregate>.list (needs a read model)"
    )
    use_case: str | None = Field(
        default=None, description="name of the use-case method (default from the command)"
    )
    request: str | None = Field(default=None, description="a model of `models`")
    status: int | None = Field(default=None, ge=200, le=299)
    summary: str | None = None
    permission: str | None = Field(
        default=None,
        pattern=PERMISSION,
        description="<resource>:<action> the caller's token must grant (e.g. orders:write); "
        "a service with permissions takes its tenant from bearer tokens only",
    )

    @field_validator("path")
    @classmethod
    def _absolute(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError("a path starts with '/'")
        return value


class Spec(_Strict):
    """One service (kind app) or shared library (kind lib)."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={"title": "Service spec"},
    )

    name: str = Field(pattern=NAME_RULE)
    kind: Literal["app", "lib"] = "app"
    description: str = ""
    port: int = Field(default=8080, ge=1, le=65535)
    base_path: str | None = Field(
        default=None, description="path prefix of the resource (default /api/v1/<name>s)"
    )
    aggregates: dict[str, AggregateSpec] = {}
    events: dict[str, EventSpec] = {}
    models: dict[str, ModelSpec] = {}
    read_models: dict[str, ReadModelSpec] = {}
    endpoints: list[EndpointSpec] = []
    consumes: dict[str, ConsumeSpec] = Field(
        default={},
        description="events of other services by <service>.<EventType> (iam.TenantCreatedEvent)",
    )
    dependencies: list[str] = Field(
        default=[], description="extra runtime requirements (PEP 508), e.g. 'httpx>=0.27'"
    )
    scripts: dict[str, str] = Field(
        default={}, description="console scripts: name -> 'module:function'"
    )
    layers: list[str] = Field(
        default=[],
        description="libraries only: subpackages from highest to lowest, as a layers contract",
    )


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the spec format, for editors."""
    schema = Spec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
