"""Load a spec file into a `Spec`, reporting every problem with its file, line and column."""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.checks import runtime_library_problem, semantic_problems
from generator.migrate import Migration, format_version, upgrade
from generator.problems import Loc, Problem, SpecError, shorten
from generator.spec import FORMAT_VERSION, RULE_KEYS, OnSpec, Spec
from generator.workspace import Workspace
from generator.yaml_compose import Marks
from generator.yamlio import parse_yaml, read_spec_bytes

__all__ = ["Loc", "Marks", "Problem", "SpecError", "load_spec", "load_spec_text", "parse_yaml"]


_UNION_TAGS = {
    "str": "text",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "list[str]": "a list",
    "dict[str,str]": "a mapping",
}
MAX_MESSAGE = 300


def _bounded(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


def _pydantic_problems(
    error: ValidationError, file: str, marks: Marks, migration: Migration
) -> Iterable[Problem]:
    merged: dict[Loc, list[str]] = {}
    changes: dict[Loc, None] = {}  # read-model changes of another shape, said once each
    details = error.errors(include_url=False)
    found: list[Loc] = [
        tuple(part for part in d["loc"] if not _is_validator_tag(part)) for d in details
    ]
    for detail, loc in zip(details, found, strict=True):
        if loc and loc[-1] in _UNION_TAGS and detail["type"].endswith("_type"):
            merged.setdefault(loc[:-1], []).append(_UNION_TAGS[str(loc[-1])])
            continue
        if detail["msg"].endswith(f"instance of {OnSpec.__name__}") or (
            detail["type"] == "list_type" and len(loc) == 4 and loc[2] == "on"
        ):
            changes[loc] = None
            continue
        message = detail["msg"].removeprefix("Value error, ")
        if detail["type"] == "extra_forbidden":
            parent = _model_at(loc[:-1])
            expected = ", ".join(_keys(parent)) if parent else ""
            message = f"unknown key {shorten(loc[-1])}" + (
                f" (expected one of: {expected})" if expected else ""
            )
            yield Problem(file, *marks.find(migration.old(loc), key=True), loc, message)
            continue
        if detail["type"] == "missing":
            message = f"required key {loc[-1]!r} is missing"
            line, column = marks.find(migration.old(loc[:-1]))
            yield Problem(file, line, column, loc, message)
            continue
        line, column = marks.find(migration.old(loc))
        yield Problem(file, line, column, loc, _bounded(message))
    for loc, kinds in merged.items():
        line, column = marks.find(migration.old(loc))
        yield Problem(file, line, column, loc, f"expected {' or '.join(dict.fromkeys(kinds))}")
    for loc in changes:
        if any(len(other) > len(loc) and other[: len(loc)] == loc for other in found):
            continue  # the shape it has is named deeper (an unknown key, a list's item)
        line, column = marks.find(migration.old(loc))
        message = "expected upsert, delete, or a mapping of upsert, set, delete, key, create"
        yield Problem(
            file,
            line,
            column,
            loc,
            message if isinstance(loc[-1], int) else message + " (or a list of such changes)",
        )


def _keys(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def _is_validator_tag(part: str | int) -> bool:
    # a validator's, or a union member's holding one (`list[function-before[...]]`)
    return isinstance(part, str) and part.startswith(("function-", "list[function-"))


def _model_at(loc: Loc) -> type[BaseModel] | None:
    """The pydantic model that validates the mapping at ``loc`` (for listing its keys)."""
    annotation: Any = Spec
    for part in loc:
        annotation = _unwrap(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = next(
                (f for name, f in annotation.model_fields.items() if part in (name, f.alias)),
                None,
            )
            if field is None:
                return None
            annotation = field.annotation
            continue
        origin = typing.get_origin(annotation)
        if origin is dict:
            annotation = typing.get_args(annotation)[1]
        elif origin is list:
            annotation = typing.get_args(annotation)[0]
        else:
            return None
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _unwrap(annotation: Any) -> Any:
    """The model or container inside ``Annotated[...]`` and ``X | None``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            options = [a for a in typing.get_args(annotation) if a is not type(None)]
            models = [
                a
                for a in options
                if typing.get_origin(a) in (dict, list)
                or (isinstance(a, type) and issubclass(a, BaseModel))
            ]
            if not models:
                return annotation
            annotation = models[0]
        else:
            return annotation


# keys whose broken value can be left out to look for the spec's other problems: each only
# adds a check or a description, so the spec without it breaks nothing it would not break
_PRUNABLE = {*RULE_KEYS, "items", "keys", "normalize", "messages", "example", "description"}


def _prunable(loc: tuple[Any, ...]) -> bool:
    """Whether ``loc`` is a prunable key of a spec model (not a name the user gave: a field
    called ``description`` is no description)."""
    if not loc or loc[-1] not in _PRUNABLE:
        return False
    model = _model_at(loc[:-1])
    return model is not None and loc[-1] in _keys(model)


def _without_unknown_keys(data: Any, error: ValidationError) -> Spec | None:
    """The spec the data would be without its unknown keys and the rules, examples and
    descriptions whose values the schema refuses, when those are its only schema errors:
    its other problems are then reported with them, not hidden behind a typo."""
    details = error.errors(include_url=False)
    locs: dict[tuple[Any, ...], None] = {}
    for detail in details:
        loc = tuple(part for part in detail["loc"] if not _is_validator_tag(part))
        if detail["type"] != "extra_forbidden" and not _prunable(loc):
            return None
        locs[loc] = None
    pruned = copy.deepcopy(data)
    for loc in locs:
        parent: Any = pruned
        for part in loc[:-1]:
            try:
                parent = parent[part]
            except (KeyError, IndexError, TypeError):
                return None
        if not isinstance(parent, dict) or loc[-1] not in parent:
            return None
        del parent[loc[-1]]
    try:
        return Spec.model_validate(pruned)
    except ValidationError:
        return None


def load_spec_text(text: str, file: str, workspace: Workspace | None = None) -> Spec:
    """Validate spec text (upgrading a version 1 spec); raise `SpecError` listing every
    problem."""
    data, marks = parse_yaml(text, file)
    return load_spec_data(data, marks, file, workspace)


def load_spec_data(data: Any, marks: Marks, file: str, workspace: Workspace | None = None) -> Spec:
    """Validate parsed spec data; raise `SpecError` listing every problem. With the
    ``workspace`` it is to be a project of, its name is also held against the runtime
    libraries that workspace installs."""
    if not isinstance(data, dict):
        raise SpecError([Problem(file, 1, 1, (), "a spec is a mapping of keys to values")])
    version = format_version(data)
    if version not in (1, FORMAT_VERSION) or isinstance(version, bool):
        raise SpecError(
            [
                Problem(
                    file,
                    *marks.find(("version",)),
                    ("version",),
                    f"unknown spec format version {str(version)[:20]!r} "
                    f"(this generator reads 1 and {FORMAT_VERSION})",
                )
            ]
        )
    data = copy.deepcopy(data)
    migration = upgrade(data)
    if migration.problems:
        raise SpecError(
            [
                Problem(file, *marks.find(loc), loc, _bounded(message))
                for loc, message in migration.problems
            ]
        )
    try:
        spec = Spec.model_validate(data)
    except ValidationError as error:
        found = list(_pydantic_problems(error, file, marks, migration))
        rest = _without_unknown_keys(data, error)
        if rest is not None:
            found += [
                Problem(file, *marks.find(migration.old(loc)), loc, _bounded(message))
                for loc, message in semantic_problems(rest)
            ]
        raise SpecError(_labelled(found, data)) from None
    problems = [
        Problem(file, *marks.find(migration.old(loc)), loc, _bounded(message))
        for loc, message in semantic_problems(spec)
    ]
    taken = None if workspace is None else runtime_library_problem(spec.name, workspace)
    if taken is not None:
        problems.insert(0, Problem(file, *marks.find(("name",)), ("name",), taken))
    if problems:
        raise SpecError(_labelled(problems, data))
    return spec


def _labelled(problems: list[Problem], data: dict[str, Any]) -> list[Problem]:
    """``problems``, each about an endpoint labelled with its method and path (its index
    alone, ``endpoints.5``, is hard to find in a long spec)."""
    endpoints = data.get("endpoints")
    if not isinstance(endpoints, list):
        return problems
    labelled = []
    for problem in problems:
        loc = problem.loc
        if len(loc) > 1 and loc[0] == "endpoints" and isinstance(loc[1], int):
            endpoint = endpoints[loc[1]] if loc[1] < len(endpoints) else None
            if isinstance(endpoint, dict):
                said = [endpoint.get("method"), endpoint.get("path")]
                label = " ".join(part[:80] for part in said if isinstance(part, str))
                problem = replace(problem, label=label)
        labelled.append(problem)
    return labelled


def load_spec(path: Path, display: str | None = None, workspace: Workspace | None = None) -> Spec:
    """Read and validate a spec file."""
    file = display or str(path)
    return load_spec_text(read_spec_bytes(path, file), file, workspace)
