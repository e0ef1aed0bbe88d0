"""Load a spec file into a `Spec`, reporting every problem with its file, line and column."""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from generator.checks import semantic_problems
from generator.migrate import Migration, format_version, upgrade
from generator.spec import FORMAT_VERSION, Spec

MAX_PROBLEMS = 200

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
    error: ValidationError, file: str, marks: _Marks, migration: Migration
) -> Iterable[Problem]:
    merged: dict[Loc, list[str]] = {}
    for detail in error.errors(include_url=False):
        loc: Loc = tuple(part for part in detail["loc"] if not _is_validator_tag(part))
        if loc and loc[-1] in _UNION_TAGS and detail["type"].endswith("_type"):
            merged.setdefault(loc[:-1], []).append(_UNION_TAGS[str(loc[-1])])
            continue
        message = detail["msg"].removeprefix("Value error, ")
        if detail["type"] == "extra_forbidden":
            parent = _model_at(loc[:-1])
            expected = ", ".join(_keys(parent)) if parent else ""
            message = f"unknown key {str(loc[-1])[:60]!r}" + (
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


def _keys(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def _is_validator_tag(part: str | int) -> bool:
    return isinstance(part, str) and part.startswith("function-")


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


def load_spec_text(text: str, file: str) -> Spec:
    """Validate spec text (upgrading a version 1 spec); raise `SpecError` listing every
    problem."""
    data, marks = parse_yaml(text, file)
    return load_spec_data(data, marks, file)


def load_spec_data(data: Any, marks: _Marks, file: str) -> Spec:
    """Validate parsed spec data; raise `SpecError` listing every problem."""
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
        raise SpecError(
            list(_pydantic_problems(error, file, marks, migration))[:MAX_PROBLEMS]
        ) from None
    problems = [
        Problem(file, *marks.find(migration.old(loc)), loc, _bounded(message))
        for loc, message in semantic_problems(spec)
    ]
    if problems:
        raise SpecError(problems[:MAX_PROBLEMS])
    return spec


def load_spec(path: Path, display: str | None = None) -> Spec:
    """Read and validate a spec file."""
    file = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SpecError([Problem(file, 1, 1, (), f"cannot read spec: {error.strerror}")]) from None
    return load_spec_text(text, file)
