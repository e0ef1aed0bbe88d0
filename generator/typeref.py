"""Spec types: ``str``, ``decimal``, ``list[OrderLine]``, ``map[int]``, an enum or a value
object, parsed into a small tree that knows its Python, JSON Schema and column forms."""

from __future__ import annotations

import re
from dataclasses import dataclass

SCALARS = ("str", "int", "float", "bool", "decimal", "uuid", "datetime", "date", "json")
ORDERED = frozenset({"int", "float", "decimal", "datetime", "date", "str"})
NUMERIC = frozenset({"int", "float", "decimal"})
MAX_DEPTH = 4
TYPE_FORMS = (*SCALARS, "<Enum>", "<Value>", "list[<type>]", "map[<type>]", "map")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")

_PY = {
    "str": "str",
    "int": "int",
    "float": "float",
    "bool": "bool",
    "decimal": "Decimal",
    "uuid": "UUID",
    "datetime": "datetime",
    "date": "date",
    "json": "JsonValue",
}


class TypeError_(ValueError):
    """A type expression that cannot be read."""


@dataclass(frozen=True)
class TypeRef:
    """A spec type: ``kind`` is scalar, enum, value, list or map; ``name`` names the
    scalar, enum or value object; ``item`` is the element type of a list or map."""

    kind: str
    name: str = ""
    item: TypeRef | None = None

    @staticmethod
    def scalar(name: str) -> TypeRef:
        return TypeRef("scalar", name)

    def optional(self) -> TypeRef:
        """This type, or null."""
        return self if self.kind == "optional" else TypeRef("optional", item=self)

    def required(self) -> TypeRef:
        """This type without null."""
        return self.element if self.kind == "optional" else self

    def __str__(self) -> str:
        if self.kind == "optional":
            return f"{self.item} | null"
        if self.kind in ("list", "map"):
            return f"{self.kind}[{self.item}]"
        return self.name

    @property
    def is_collection(self) -> bool:
        return self.kind in ("list", "map")

    @property
    def element(self) -> TypeRef:
        assert self.item is not None
        return self.item

    def is_scalar(self, *names: str) -> bool:
        return self.kind == "scalar" and (not names or self.name in names)

    @property
    def py(self) -> str:
        """The Python annotation (enums and value objects by class name)."""
        if self.kind == "optional":
            return f"{self.element.py} | None"
        if self.kind == "list":
            return f"list[{self.element.py}]"
        if self.kind == "map":
            return f"dict[str, {self.element.py}]"
        if self.kind == "scalar":
            return _PY[self.name]
        return self.name

    def walk(self) -> list[TypeRef]:
        """This type and every type nested in it."""
        return [self, *(self.item.walk() if self.item else [])]

    @property
    def column(self) -> str:
        """The kind of read-model column that stores it."""
        if self.kind == "scalar" and self.name in ("int", "float", "bool"):
            return self.name
        if self.kind == "enum" or (self.kind == "scalar" and self.name != "json"):
            return "str"
        return "json"


def parse_type(text: str, enums: set[str], values: set[str]) -> TypeRef:
    """The type ``text`` names; raises TypeError_ with a message for the spec author."""
    text = text.strip()
    if len(text) > 200:
        raise TypeError_("a type is at most 200 characters")
    return _parse(text, enums, values, 0)


def _parse(text: str, enums: set[str], values: set[str], depth: int) -> TypeRef:
    if depth > MAX_DEPTH:
        raise TypeError_(f"types nest at most {MAX_DEPTH} deep")
    if text == "map":
        return TypeRef("map", item=TypeRef("scalar", "str"))
    match = re.fullmatch(r"(list|map)\[(.*)\]", text)
    if match:
        return TypeRef(match[1], item=_parse(match[2].strip(), enums, values, depth + 1))
    if text in SCALARS:
        return TypeRef("scalar", text)
    if text in enums:
        return TypeRef("enum", text)
    if text in values:
        return TypeRef("value", text)
    if _NAME.fullmatch(text) and text[0].isupper():
        known = sorted(enums | values)
        hint = (
            f": declare it under `enums` or `values` (declared: {', '.join(known)})"
            if known
            else (": declare it under `enums` or `values`")
        )
        raise TypeError_(f"unknown type {text!r}{hint}")
    raise TypeError_(f"unknown type {text!r} (expected one of: {', '.join(TYPE_FORMS)})")
