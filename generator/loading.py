"""Load a spec file into a `Spec`, reporting every problem with its file, line and column."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ValidationError

from generator.checks import semantic_problems
from generator.problems import Loc, Problem, SpecError, shorten
from generator.spec import Spec
from generator.yaml_compose import Marks
from generator.yamlio import parse_yaml, read_spec_bytes

__all__ = ["Loc", "Marks", "Problem", "SpecError", "load_spec", "load_spec_text", "parse_yaml"]


def _pydantic_problems(error: ValidationError, file: str, marks: Marks) -> Iterable[Problem]:
    for detail in error.errors(include_url=False):
        loc: Loc = tuple(part for part in detail["loc"] if not _is_validator_tag(part))
        message = detail["msg"].removeprefix("Value error, ")
        if detail["type"] == "extra_forbidden":
            parent = _model_at(loc[:-1])
            expected = ", ".join(parent.model_fields) if parent else ""
            message = f"unknown key {shorten(loc[-1])}" + (
                f" (expected one of: {expected})" if expected else ""
            )
            yield Problem(file, *marks.find(loc, key=True), loc, message)
            continue
        elif detail["type"] == "missing":
            message = f"required key {loc[-1]!r} is missing"
            line, column = marks.find(loc[:-1])
            yield Problem(file, line, column, loc, message)
            continue
        line, column = marks.find(loc)
        yield Problem(file, line, column, loc, message)


def _is_validator_tag(part: str | int) -> bool:
    return isinstance(part, str) and part.startswith("function-")


def _model_at(loc: Loc) -> type[BaseModel] | None:
    """The pydantic model that validates the mapping at ``loc`` (for listing its keys)."""
    from generator import spec as s

    model: type[BaseModel] = s.Spec
    containers: dict[str, type[BaseModel]] = {
        "aggregates": s.AggregateSpec,
        "events": s.EventSpec,
        "models": s.ModelSpec,
        "endpoints": s.EndpointSpec,
        "fields": s.FieldSpec,
        "commands": s.CommandSpec,
        "rules": s.Rule,
    }
    index = 0
    while index < len(loc):
        part = loc[index]
        if isinstance(part, str) and part in containers and part in model.model_fields:
            model = containers[part]
            index += 2
        else:
            return None
    return model


def load_spec_text(text: str, file: str) -> Spec:
    """Validate spec text; raise `SpecError` listing every problem."""
    data, marks = parse_yaml(text, file)
    if not isinstance(data, dict):
        raise SpecError([Problem(file, 1, 1, (), "a spec is a mapping of keys to values")])
    try:
        spec = Spec.model_validate(data)
    except ValidationError as error:
        raise SpecError(list(_pydantic_problems(error, file, marks))) from None
    problems = [
        Problem(file, *marks.find(loc), loc, message) for loc, message in semantic_problems(spec)
    ]
    if problems:
        raise SpecError(problems)
    return spec


def load_spec(path: Path, display: str | None = None) -> Spec:
    """Read and validate a spec file."""
    file = display or str(path)
    return load_spec_text(read_spec_bytes(path, file), file)
