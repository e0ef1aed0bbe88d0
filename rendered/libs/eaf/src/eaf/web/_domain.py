"""A rendered service's failures as RFC 9457 problems: broken rules (with the spec's own
messages, every one at once), missing aggregates, refused commands, lost races, stale
versions, duplicate values and reused idempotency keys."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import UnionType
from typing import Annotated, Any, Protocol, Union, get_args, get_origin

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, TypeAdapter, ValidationError
from sqlalchemy import exc as sa
from starlette.responses import JSONResponse

from eaf.context import MissingTenantError
from eaf.domain import member_path
from eaf.eventsourcing.errors import ConcurrencyError as StreamConflict
from eaf.eventsourcing.errors import (
    DuplicateKeyError,
    IdempotencyKeyReusedError,
    NotYetProjected,
    PreconditionFailedError,
    StoreUnavailableError,
    holder_phrase,
)
from eaf.web._exact import HELD
from eaf.web._problems import PROBLEM_TYPE

log = logging.getLogger(__name__)

__all__ = [
    "DomainErrors",
    "FieldProblem",
    "RuleCheck",
    "ValueCheck",
    "install_domain_problems",
]


class FieldProblem(Protocol):
    """A broken rule as the domain reports it: the field (a path) and the message."""

    @property
    def field(self) -> str: ...

    @property
    def message(self) -> str: ...


RuleCheck = Callable[[Any], Sequence[FieldProblem]]
"""The domain's check of one field: the rules a value breaks."""

ValueCheck = Callable[[Any], Sequence[FieldProblem]]
"""The domain's check of a whole value object, given its request body: every rule and
invariant it breaks (paths from the value's own fields)."""

RULE_ERRORS = frozenset(
    {
        "string_too_short", "string_too_long", "string_pattern_mismatch", "too_short",
        "too_long", "greater_than", "greater_than_equal", "less_than", "less_than_equal",
        "decimal_max_places", "decimal_max_digits",
    }
)  # fmt: skip


@dataclass(frozen=True)
class DomainErrors:
    """The error classes of one service's domain, and what maps HTTP to its rules:
    ``rules`` by route name then body field, ``nested_rules`` by ``<ValueObject>.<field>``
    (``<field>.*`` in either: the check of one item of a list, one value of a map),
    ``unique_fields`` the JSON name of each unique (aggregate, attribute), and of each
    unique combination (``("Room", "venue_id+name"): "venueId+name"``), ``values`` the
    check of each value object by its request model (its invariants, listed with the
    other fields' broken rules when a request breaks both)."""

    validation: type[Exception]
    not_found: type[Exception]
    conflict: type[Exception]
    refused: type[Exception]
    service: str
    rules: Mapping[str, Mapping[str, RuleCheck]]
    nested_rules: Mapping[str, RuleCheck]
    unique_fields: Mapping[tuple[str, str], str]
    values: Mapping[type[Any], ValueCheck] = field(default_factory=dict)


def problem(
    status: int, title: str, detail: str, errors: Sequence[FieldProblem] = (), *,
    type: str = "about:blank",
) -> JSONResponse:  # fmt: skip
    """An RFC 9457 problem listing ``errors`` (``field`` is the first one's)."""
    body: dict[str, Any] = {
        "type": type,
        "title": title,
        "status": status,
        "detail": detail,
    }
    if errors:
        body["field"] = errors[0].field
    body["errors"] = [{"field": e.field, "message": e.message} for e in errors]
    return JSONResponse(body, status_code=status, media_type=PROBLEM_TYPE)


@dataclass(frozen=True)
class _Problem:
    field: str
    message: str


NULL_GIVEN = "Cannot be null: a value is required"
KEY_STEP = "[key]"
"""The last step of the location pydantic gives an error of a map's key (the key is
named by the path of its value), and of the rules of a map field's keys."""


def _null_for_a_value(item: Mapping[str, Any]) -> bool:
    """Whether a request gave null where a value is required (a required field of a
    merge patch, an item of a list), and the error does not say so already (a json
    field's own message does)."""
    return (
        "input" in item
        and item["input"] is None
        and item["type"] not in ("missing", "json_invalid")
        and "null" not in str(item.get("msg", ""))
        and item["loc"][:1] == ("body",)
    )


@dataclass(frozen=True)
class _QueryParameters:
    """The query parameters a route takes, and those of them that take one value."""

    taken: frozenset[str]
    single: frozenset[str]


def _query_parameters(route: Any) -> _QueryParameters | None:
    """What ``route`` takes in its query (its own parameters and its dependencies'),
    read once per route and kept on it; None for a route without a dependant."""
    known: _QueryParameters | None = getattr(route, "_eaf_query_parameters", None)
    dependant = getattr(route, "dependant", None)
    if known is not None or dependant is None:
        return known
    taken: set[str] = set()
    single: set[str] = set()
    pending = [dependant]
    while pending:
        current = pending.pop()
        for param in current.query_params:
            taken.add(param.alias)
            if get_origin(_bare(param.field_info.annotation)[0]) not in (list, set):
                single.add(param.alias)
        pending.extend(current.dependencies)
    known = _QueryParameters(frozenset(taken), frozenset(single))
    route._eaf_query_parameters = known
    return known


async def known_query(request: Request) -> None:
    """Refuse (422) a query parameter the route does not take, as a body's unknown key is
    refused: a filter whose name changed, or is misspelled, would otherwise be ignored
    and the answer hold every row; and one that takes one value given several times
    (``?limit=1&limit=100``: which one counts is each reader's choice, as for a key
    twice in a body). A dependency of the generated routers."""
    known = _query_parameters(request.scope.get("route"))
    if known is None or not request.query_params:
        return
    takes = (
        f"this endpoint takes {', '.join(sorted(known.taken))}"
        if known.taken
        else "this endpoint takes none"
    )
    errors = []
    for name in dict.fromkeys(request.query_params):
        given = request.query_params.getlist(name)
        if name not in known.taken:
            message = f"Unknown query parameter ({takes})"
        elif name in known.single and len(given) > 1:
            message = "Given more than once: this parameter takes one value"
        else:
            continue
        errors.append(
            {
                "type": "extra_forbidden",
                "loc": ("query", name),
                "msg": message,
                "input": given,
            }
        )
    if errors:
        raise RequestValidationError(errors)


def _detail(errors: Sequence[FieldProblem]) -> str:
    """One broken rule's message, or every one with its field."""
    if len(errors) == 1:
        return errors[0].message
    return "; ".join(f"{e.field}: {e.message}" for e in errors)


def _unreadable(why: str) -> str:
    """What a body that cannot be read is told: what ``eaf.web._exact`` refuses in it (a
    number too large for the service, text that is not Unicode), or no valid JSON."""
    if why.startswith(HELD):
        return "The body holds " + why
    return "The body is not valid JSON"


def install_domain_problems(app: FastAPI, errors: DomainErrors) -> None:
    """Answer bad requests and the domain's failures with problem bodies."""

    async def invalid_request(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        found: list[FieldProblem] = []
        body = _body_model(request.scope.get("route"))
        every = _every_error(list(error.errors()), error.body, body)
        for item in every:
            if item["type"] == "json_invalid":
                why = str((item.get("ctx") or {}).get("error", ""))
                found.append(_Problem("body", _unreadable(why)))
                continue
            if item["type"] == "missing" and tuple(item["loc"]) == ("body",):
                found.append(_Problem("body", "A JSON object body is required"))
                continue
            spec = _spec_messages(request, item, errors)
            if spec is not None:
                found.extend(v for v in spec if v not in found)
            elif _null_for_a_value(item):
                # pydantic names the type it wanted ("Input should be a valid string")
                found.append(_Problem(_field(tuple(item["loc"])), NULL_GIVEN))
            else:
                found.append(_Problem(_field(tuple(item["loc"])), str(item["msg"])))
        for value_problem in _value_problems(errors.values, body, error.body, every):
            if value_problem not in found:
                found.append(value_problem)
        return problem(422, "Invalid request", _detail(found), found)

    async def invalid_value(request: Request, error: Exception) -> JSONResponse:
        violations = list(getattr(error, "violations", []))
        return problem(422, "Validation failed", _detail(violations), violations)

    async def not_found(request: Request, error: Exception) -> JSONResponse:
        return problem(404, "Not found", str(error))

    async def conflict(request: Request, error: Exception) -> JSONResponse:
        return problem(409, "Conflict", str(error))

    async def stream_conflict(request: Request, error: Exception) -> JSONResponse:
        # The store's own message names its streams: not for clients.
        detail = "The resource was changed by a concurrent request; retry"
        return problem(409, "Conflict", detail)

    async def duplicate(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, DuplicateKeyError)
        # a combination of fields is named ``venueId+name``: each of them is listed
        names = errors.unique_fields.get((error.kind, error.field), error.field)
        fields = names.split("+")
        holder = holder_phrase(error.kind, error.holder)
        message = f"{holder[:1].upper()}{holder[1:]} has this {' and '.join(fields)}"
        duplicate_type = f"urn:problem-type:{errors.service}:duplicate"
        listed = [_Problem(field, message) for field in fields]
        return problem(409, "Duplicate", message, listed, type=duplicate_type)

    async def precondition_failed(request: Request, error: Exception) -> JSONResponse:
        detail = getattr(error, "detail", None)
        default = "The resource changed since it was read (If-Match)"
        return problem(412, "Precondition failed", detail or default)

    async def key_reused(request: Request, error: Exception) -> JSONResponse:
        reused = [_Problem("Idempotency-Key", str(error))]
        return problem(422, "Idempotency-Key reused", str(error), reused)

    async def refused(request: Request, error: Exception) -> JSONResponse:
        return problem(
            getattr(error, "status", 409),
            getattr(error, "title", "Conflict"),
            getattr(error, "detail", str(error)),
            type=getattr(error, "type", "about:blank"),
        )

    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(errors.validation, invalid_value)
    app.add_exception_handler(errors.not_found, not_found)
    app.add_exception_handler(errors.conflict, conflict)
    app.add_exception_handler(StreamConflict, stream_conflict)
    app.add_exception_handler(DuplicateKeyError, duplicate)
    app.add_exception_handler(PreconditionFailedError, precondition_failed)
    app.add_exception_handler(IdempotencyKeyReusedError, key_reused)
    app.add_exception_handler(errors.refused, refused)
    app.add_exception_handler(StoreUnavailableError, store_unavailable)
    app.add_exception_handler(NotYetProjected, not_yet_projected)
    app.add_exception_handler(MissingTenantError, no_tenant)
    app.add_exception_handler(sa.OperationalError, store_unavailable)
    app.add_exception_handler(sa.InterfaceError, store_unavailable)


STORE_RETRY_AFTER = 5
"""Seconds a client is told to wait before it retries while the store cannot write."""


async def store_unavailable(request: Request, error: Exception) -> JSONResponse:
    """503 while the event store cannot write (a read-only or full disk, a lost database):
    nothing was stored, the same request may be sent again; what the database said goes
    to the log, not to the client."""
    log.warning("storage fault on %s %s: %s", request.method, request.url.path, error)
    return _retry_later(
        "The service cannot store data right now; nothing was stored. Retry later.",
        "urn:problem-type:store-unavailable",
        STORE_RETRY_AFTER,
    )


async def not_yet_projected(request: Request, error: Exception) -> JSONResponse:
    """503 when a consistent read's read model has not caught up with the tenant's
    changes in time: the same request may be sent again."""
    log.warning("%s %s: %s", request.method, request.url.path, error)
    return _retry_later(
        "The list is still taking in the latest changes. Retry in a moment.",
        "urn:problem-type:not-yet-projected",
        1,
    )


async def no_tenant(request: Request, error: Exception) -> JSONResponse:
    """403 for a caller without a tenant (a platform operator's token) on an operation
    that acts in one: it names the tenant in a path that takes one, if the service has
    it (``/tenants/{tenantId}/...``)."""
    return problem(
        403,
        "Forbidden",
        "This operation acts in a tenant and the caller's token names none (a platform"
        " token): use a path that names the tenant",
        type="urn:problem-type:tenant-required",
    )


def _retry_later(detail: str, problem_type: str, seconds: int) -> JSONResponse:
    """503 with ``Retry-After``: the same request may be sent again."""
    response = problem(503, "Service unavailable", detail, type=problem_type)
    response.headers["Retry-After"] = str(seconds)
    return response


def _field(location: tuple[int | str, ...]) -> str:
    """The path of a location in a request (``lines.0.sku``; a map key that could be read
    as more than one step in brackets: ``labels["a.b"]``)."""
    first, *rest = [
        part
        for part in location
        if part not in ("body", "query", "path", "header", KEY_STEP)
    ] or ["body"]
    path = str(first)
    for part in rest:
        path = member_path(path, part)
    return path


def _spec_messages(
    request: Request, item: Mapping[str, Any], errors: DomainErrors
) -> list[FieldProblem] | None:
    """The spec's messages for a rule a request field breaks (None when it is no rule)."""
    if item["type"] not in RULE_ERRORS:
        return None
    route = request.scope.get("route")
    rules = errors.rules.get(getattr(route, "name", ""), {})
    path = list(item["loc"][1:])
    key = path[-1] == KEY_STEP  # a key of a map: the rest is the path of its value
    if key:
        path.pop()
    check = rules.get(str(path[0])) if len(path) == 1 and not key else None
    if check is None and len(path) == 2:
        # an item of a list or map field, or a key of a map field
        check = rules.get(f"{path[0]}.{KEY_STEP if key else '*'}")
    if check is None and len(path) > 1:
        check = _nested_check(route, path, errors, key=key)
    if check is None:
        return None
    try:
        found = check(item["input"])
    except Exception:
        # Raw input the domain's check cannot take (dicts where it checks value
        # objects): pydantic's own message stands.
        return None
    field = _field(tuple(item["loc"]))
    return [
        _Problem(_rerooted(field, problem_.field), problem_.message)
        for problem_ in found
    ] or None


def _rerooted(field: str, path: str) -> str:
    """A violation's path (``tags.1``, as the domain names it from the field's own name, or
    ``""`` from an item's check) under the request field that was checked (``lines.0.tags``
    gives ``lines.0.tags.1``)."""
    steps = [index for index in (path.find("."), path.find("[")) if index >= 0]
    return field + path[min(steps) :] if steps else field


def _every_error(errors: list[Any], body: Any, model: Any) -> list[Any]:
    """pydantic's ``errors`` and those it leaves out: the items of a list or map with a size
    rule are checked only when its size fits (a list), or its size only when every item is
    good (a map). Each such container on the way to an error is checked again, its size
    and its items apart, so that every violation is listed (a container's before those of
    its items)."""
    every = list(errors)
    seen = {(tuple(e["loc"]), e["type"]) for e in every}
    checked: set[tuple[Any, ...]] = set()
    for error in every:  # grows as it goes: a container's items may hold containers
        location = tuple(error["loc"])
        for end in range(2, len(location) + 1 if location[:1] == ("body",) else 0):
            container = location[:end]
            if container in checked:
                continue
            checked.add(container)
            for found in _container_errors(model, body, container):
                key = (tuple(found["loc"]), found["type"])
                if key not in seen:
                    seen.add(key)
                    every.append(found)
    rank: dict[tuple[Any, ...], int] = {}
    for error in every:
        location = tuple(error["loc"])
        for end in range(1, len(location) + 1):
            rank.setdefault(location[:end], len(rank))
    return sorted(
        every,
        key=lambda e: [
            rank[tuple(e["loc"])[:end]] for end in range(1, len(e["loc"]) + 1)
        ],
    )


def _value_problems(
    checks: Mapping[type[Any], ValueCheck],
    model: Any,
    body: Any,
    errors: Sequence[Any],
) -> list[FieldProblem]:
    """The rules broken by each value object of a request ``body`` whose own fields are
    good (its invariants, which its request model cannot state): a request is answered
    with these and its fields' broken rules at once."""
    if not checks or model is None:
        return []
    failed = [
        tuple(error["loc"])[1:] for error in errors if error["loc"][:1] == ("body",)
    ]
    found: list[FieldProblem] = []

    def walk(annotation: Any, value: Any, path: tuple[Any, ...]) -> None:
        annotation, _ = _bare(annotation)
        origin = get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if not isinstance(value, dict):
                return
            check = checks.get(annotation)
            if check is not None and not any(
                place[: len(path)] == path for place in failed
            ):
                try:
                    problems = check(annotation.model_validate(value))
                except (ValueError, TypeError, ArithmeticError):  # ValidationError too
                    return  # the domain refuses it when the request is good otherwise
                where = _field(("body", *path))
                found.extend(
                    _Problem(f"{where}.{p.field}", p.message) for p in problems
                )
                return
            for name, model_field in annotation.model_fields.items():
                key = model_field.alias or name
                if key in value:
                    walk(model_field.annotation, value[key], (*path, key))
        elif origin is list and isinstance(value, list):
            for index, item in enumerate(value):
                walk(get_args(annotation)[0], item, (*path, index))
        elif origin is dict and isinstance(value, dict):
            for key, item in value.items():
                walk(get_args(annotation)[-1], item, (*path, key))

    walk(model, body, ())
    return found


def _container_errors(model: Any, body: Any, location: tuple[Any, ...]) -> list[Any]:
    """The errors of the list or map with a size rule at ``location`` (``("body", "tags")``)
    in a request: of its size and of its items, each checked alone."""
    shape = _annotation_at(model, location[1:])
    value = _value_at(body, location[1:])
    if shape is None or not isinstance(value, list | dict):
        return []
    annotation, sizes = shape
    kind = get_origin(annotation)
    if not sizes or kind is not (list if isinstance(value, list) else dict):
        return []
    found: list[Any] = []
    size = list[Any] if kind is list else dict[Any, Any]
    checks: tuple[Any, ...] = (Annotated[(size, *sizes)], annotation)
    for checked in checks:
        try:
            TypeAdapter(checked, config=model.model_config).validate_python(value)
        except ValidationError as error:
            found += [{**e, "loc": (*location, *e["loc"])} for e in error.errors()]
    return found


def _annotation_at(model: Any, path: tuple[Any, ...]) -> tuple[Any, list[Any]] | None:
    """The type at ``path`` in a request body of ``model`` and its size rules (``MaxLen``,
    ``MinLen``), or None when it is no known place."""
    annotation, rules = _bare(model)
    for part in path:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            fields = annotation.model_fields
            field = fields.get(part) or next(
                (f for f in fields.values() if f.alias == part), None
            )
            if field is None:
                return None
            annotation, rules = _bare(field.annotation)
            rules = [*field.metadata, *rules]
        elif get_origin(annotation) in (list, dict):
            annotation, rules = _bare(get_args(annotation)[-1])
        else:
            return None
    sizes = [rule for rule in rules if _is_size(rule)]
    return annotation, sizes


_SIZES = ("min_length", "max_length")


def _is_size(rule: Any) -> bool:
    """Whether ``rule`` bounds a size (annotated_types' ``MinLen``, ``MaxLen``)."""
    return any(isinstance(getattr(rule, name, None), int) for name in _SIZES)


def _bare(annotation: Any) -> tuple[Any, list[Any]]:
    """``annotation`` without ``Annotated`` and ``| None``, and the rules they held."""
    rules: list[Any] = []
    while True:
        if get_origin(annotation) is Annotated:
            annotation, *extra = get_args(annotation)
            for rule in extra:
                rules.extend(getattr(rule, "metadata", None) or [rule])
            continue
        inner = [arg for arg in get_args(annotation) if arg is not type(None)]
        if get_origin(annotation) in (Union, UnionType) and len(inner) == 1:
            annotation = inner[0]
            continue
        return annotation, rules


def _value_at(body: Any, path: tuple[Any, ...]) -> Any:
    """What a request's JSON ``body`` holds at ``path`` (None where it holds nothing)."""
    for part in path:
        if isinstance(body, dict):
            body = body.get(part)
        elif isinstance(body, list) and isinstance(part, int) and 0 <= part < len(body):
            body = body[part]
        else:
            return None
    return body


def _body_model(route: Any) -> Any:
    """The model of a route's request body (FastAPI's field keeps it as its annotation,
    ``type_`` before)."""
    body = getattr(route, "body_field", None)
    return _inner_model(
        getattr(body, "type_", None)
        or getattr(getattr(body, "field_info", None), "annotation", None)
    )


def _nested_check(
    route: Any, path: list[Any], errors: DomainErrors, *, key: bool = False
) -> RuleCheck | None:
    """The check of a field of a value object inside a request body (``lines.0.sku``),
    or of an item of such a field (``lines.0.tags.1``: ``Line.tags.*``), or of a key of
    such a map (``key``: ``Line.labels.[key]``)."""
    model: Any = _body_model(route)
    skipped = 0  # the list indices and map keys between a field and what it holds
    for position, part in enumerate(path[:-1]):
        if skipped:
            skipped -= 1
            continue
        if model is None:
            return None
        fields = model.model_fields
        field = fields.get(part) or next(
            (f for f in fields.values() if f.alias == part), None
        )
        if field is not None and position == len(path) - 2:
            name = model.__name__.removesuffix("Body")
            step = KEY_STEP if key else "*"
            item = errors.nested_rules.get(f"{name}.{field.alias or part}.{step}")
            if item is not None or key:
                return item
        model = _inner_model(field.annotation) if field is not None else None
        skipped = _containers(field.annotation) if field is not None else 0
    if model is None or skipped or key:
        return None
    name = model.__name__.removesuffix("Body")
    return errors.nested_rules.get(f"{name}.{path[-1]}")


def _containers(annotation: Any) -> int:
    """How many lists and maps hold the values of ``annotation`` (``dict[str, list[X]]``: 2)."""
    bare, _ = _bare(annotation)
    if get_origin(bare) in (list, dict):
        return 1 + _containers(get_args(bare)[-1])
    return 0


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None
