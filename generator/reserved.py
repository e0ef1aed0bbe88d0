"""Names the rendered code uses, which spec names must not take.

Attributes and parameters (fields, inputs, computed values) never collide: a spec name
whose snake_case form is a keyword, a builtin or a name the generated code uses gets a
trailing underscore (``type`` -> ``type_``; its JSON name stays ``type``). Class names
(aggregates, events, enums, value objects, errors, read models, request bodies) share
module namespaces with the imports and classes of the rendered modules, so those names
are refused; `tests/test_reserved_names.py` checks this list against what the blueprints
render."""

from __future__ import annotations

import builtins
import keyword

SOFT_KEYWORDS = frozenset(keyword.softkwlist) | {"type", "match", "case", "_"}

LOCALS = frozenset(
    {
        # aggregates, commands and their bookkeeping
        "self",
        "cls",
        "id",
        "now",
        "today",
        "event",
        "events",
        "state",
        "changed",
        "current",
        "created",
        "version",
        "changes",
        "archived",
        "born",
        "anew",
        "just_created",
        "created_at",
        "updated_at",
        "problems",
        "violations",
        "apply",
        "record",
        "committed",
        "from_history",
        "started_by",
        "check_rules",
        "check_invariants",
        "expected_version",
        "idempotency",
        # use cases, web and projections
        "body",
        "request",
        "response",
        "use_cases",
        "services",
        "settings",
        "app",
        "store",
        "clock",
        "transactions",
        "work",
        "row",
        "rows",
        "value",
        "values",
        "key",
        "keys",
        "limit",
        "offset",
        "sort",
        "page",
        "item",
        "items",
        "total",
        "next",
        "query",
        "payload",
        "tenant",
        "if_match",
        "if_none_match",
        "current_state",
        "given",
        "path_tenant",
        "idempotency_key",
        "location",
        "listing",
        "repository",
        "data",
        "field",
        "fields",
        "errors",
        "error",
        "view",
    }
)

PYDANTIC = frozenset(
    {
        # BaseModel's own attributes: a field of that name shadows one (pydantic warns)
        "construct",
        "copy",
        "dict",
        "from_orm",
        "json",
        "parse_file",
        "parse_obj",
        "parse_raw",
        "schema",
        "schema_json",
        "update_forward_refs",
        "validate",
        "model_computed_fields",
        "model_config",
        "model_construct",
        "model_copy",
        "model_dump",
        "model_dump_json",
        "model_extra",
        "model_fields",
        "model_fields_set",
        "model_json_schema",
        "model_parametrized_name",
        "model_post_init",
        "model_rebuild",
        "model_validate",
        "model_validate_json",
        "model_validate_strings",
    }
)

HANDLER_LOCALS = frozenset(
    {"tag", "keyed", "shown", "replayed", "answered", "given", "current_state", "where",
     "order", "rows", "columns", "precondition", "path_tenant", "if_match", "if_none_match",
     "idempotency_key", "use_cases", "queries", "tx", "missing", "item", "value", "index",
     "found", "key", "made", "limit", "offset", "sort", "total", "clock", "now"}
)  # fmt: skip
"""The locals and parameters of the rendered HTTP handlers and use cases."""

ATTRIBUTES = (
    frozenset(keyword.kwlist) | SOFT_KEYWORDS | frozenset(dir(builtins)) | LOCALS | PYDANTIC
)
"""snake_case names that get a trailing underscore in Python."""

CLASSES = frozenset(
    {
        # the standard library and frameworks, imported by rendered modules
        "Any",
        "Annotated",
        "Callable",
        "ClassVar",
        "Generic",
        "Literal",
        "Protocol",
        "Self",
        "TypeAlias",
        "TypeVar",
        "Sequence",
        "Mapping",
        "Iterator",
        "AsyncIterator",
        "Awaitable",
        "UUID",
        "Decimal",
        "Enum",
        "StrEnum",
        "Path",
        "datetime",
        "date",
        "timedelta",
        "Field",
        "BaseModel",
        "ConfigDict",
        "RootModel",
        "AwareDatetime",
        "JsonBool",
        "JsonDate",
        "JsonDateTime",
        "JsonDecimal",
        "JsonFloat",
        "JsonInt",
        "PlainDecimal",
        "QueryBool",
        "QueryFloat",
        "QueryInt",
        "PathId",
        "ValueCheck",
        "IntegerForm",
        "NumberForm",
        "DecimalForm",
        "TextRule",
        "FastAPI",
        "APIRouter",
        "Depends",
        "Header",
        "Query",
        "Request",
        "Response",
        "JSONResponse",
        "RequestValidationError",
        "HTTPException",
        "TestClient",
        "Settings",
        "EventStore",
        "StoredEvent",
        "EventRegistry",
        "ProjectionStore",
        "Projection",
        "Projector",
        "ReadModel",
        "StoreFollower",
        "Condition",
        "Page",
        "Delivery",
        "EventHandlers",
        "Poison",
        "Subscriber",
        "IamClient",
        "KeyRing",
        "TokenIssuer",
        "SecurityContext",
        "JetStreamBroker",
        "OutboxRelay",
        "EmbeddedNats",
        "Outbox",
        # classes every rendered service defines
        "DomainEvent",
        "DomainError",
        "DomainValidationError",
        "NotFoundError",
        "ConcurrencyError",
        "PreconditionFailedError",
        "DuplicateError",
        "Violation",
        "AggregateRoot",
        "Clock",
        "SystemClock",
        "Services",
        "Problem",
        "FieldError",
        "EventRelay",
        "EventConsumers",
        "Projectors",
        "Reactions",
        "EventReactions",
        "StreamRepository",
        "Transactions",
        "Transaction",
        "FixedClock",
        "PageOf",
        # module constants of the rendered projections (a read model is also its name in capitals)
        "Projections",
    }
)
"""Class-level names a spec may not use (it may not use a builtin's name either)."""

CLASS_SUFFIXES = (
    "Repository",
    "Service",
    "UseCases",
    "Listing",
    "Queries",
    "Request",
    "Row",
    "Cases",
)
"""Endings of the names rendered per aggregate (``BookRepository``): a spec name with one of
them is checked against the generated names."""


def python_attribute(snake_name: str) -> str:
    """The Python name of a field, input or computed value (``type`` -> ``type_``)."""
    return f"{snake_name}_" if snake_name in ATTRIBUTES else snake_name


def call_keyword(snake_name: str) -> str:
    """The keyword a call's method takes an input by: its snake_case name (``tenant``),
    unless a Python keyword or ``self`` (``class_``)."""
    return f"{snake_name}_" if keyword.iskeyword(snake_name) or snake_name == "self" else snake_name


def class_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a class of a rendered service, or None."""
    if keyword.iskeyword(name):
        return f"{name!r} is a Python keyword"
    if name in CLASSES or hasattr(builtins, name):
        return f"{name!r} is a name the rendered code already uses; choose another"
    return None
