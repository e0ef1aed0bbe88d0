"""Load a spec file into a `Spec`, reporting every problem with its file, line and column."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from generator.checks import semantic_problems
from generator.spec import Spec

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One error in a spec, at a place in its file."""

    file: str
    line: int
    column: int
    loc: Loc
    message: str

    def __str__(self) -> str:
        where = ".".join(str(part) for part in self.loc) or "<spec>"
        return f"{self.file}:{self.line}:{self.column}: {where}: {self.message}"


class SpecError(Exception):
    """A spec that cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(problem) for problem in problems))
        self.problems = problems


@dataclass
class _Marks:
    values: dict[Loc, tuple[int, int]]
    keys: dict[Loc, tuple[int, int]]

    def find(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """The position of the deepest known part of ``loc`` (of its key when ``key``)."""
        for end in range(len(loc), -1, -1):
            prefix = loc[:end]
            if key and end == len(loc) and prefix in self.keys:
                return self.keys[prefix]
            if prefix in self.values:
                return self.values[prefix]
        return (1, 1)


def _construct(node: yaml.Node, loc: Loc, marks: _Marks) -> Any:
    marks.values[loc] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node)
            child = (*loc, key)
            marks.keys[child] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = _construct(value_node, child, marks)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, (*loc, index), marks) for index, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: yaml.Node) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def parse_yaml(text: str, file: str) -> tuple[Any, _Marks]:
    """Parse YAML keeping the position of every key and value."""
    marks = _Marks(values={}, keys={})
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        reason = error.problem or error.context or "invalid YAML"
        raise SpecError([Problem(file, line, column, (), f"YAML syntax error: {reason}")]) from None
    if node is None:
        return {}, marks
    return _construct(node, (), marks), marks


def _pydantic_problems(error: ValidationError, file: str, marks: _Marks) -> Iterable[Problem]:
    for detail in error.errors(include_url=False):
        loc: Loc = tuple(part for part in detail["loc"] if not _is_validator_tag(part))
        message = detail["msg"].removeprefix("Value error, ")
        if detail["type"] == "extra_forbidden":
            parent = _model_at(loc[:-1])
            expected = ", ".join(parent.model_fields) if parent else ""
            message = f"unknown key {loc[-1]!r}" + (
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
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SpecError([Problem(file, 1, 1, (), f"cannot read spec: {error.strerror}")]) from None
    return load_spec_text(text, file)
