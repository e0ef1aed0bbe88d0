"""What a projection's read model looks like, so a changed shape is noticed and the
read model rebuilt: the table's columns and types, its key, the event types handled and
an optional version; the fingerprint is a hash of these."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine.default import DefaultDialect
from sqlalchemy.exc import UnsupportedCompilationError
from sqlalchemy.types import TypeEngine

_GENERIC = DefaultDialect()


@dataclass(frozen=True)
class ProjectionSchema:
    """The shape of a projection's read model. ``columns`` maps each column (the
    tenant's included) to its SQL type, with `` NOT NULL`` when it is required."""

    table: str
    columns: Mapping[str, str]
    key: tuple[str, ...]
    event_types: tuple[str, ...]
    version: str = ""

    @classmethod
    def of(
        cls, table: Table, event_types: Iterable[str], version: str = ""
    ) -> ProjectionSchema:
        return cls(
            table=table.name,
            columns={
                column.name: type_name(column.type)
                + ("" if column.nullable else " NOT NULL")
                for column in table.columns
            },
            key=tuple(column.name for column in table.primary_key.columns),
            event_types=tuple(sorted(event_types)),
            version=version,
        )

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:16]

    def to_json(self) -> str:
        return json.dumps(
            {
                "table": self.table,
                "columns": dict(sorted(self.columns.items())),
                "key": list(self.key),
                "event_types": list(self.event_types),
                "version": self.version,
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> ProjectionSchema:
        data: dict[str, Any] = json.loads(text)
        return cls(
            table=str(data["table"]),
            columns={str(k): str(v) for k, v in data["columns"].items()},
            key=tuple(data["key"]),
            event_types=tuple(data["event_types"]),
            version=str(data.get("version", "")),
        )

    def changes_since(self, old: ProjectionSchema) -> str:
        """What changed from ``old``, e.g. ``columns changed: +overdue -legacy``."""
        parts: list[str] = []
        if old.table != self.table:
            parts.append(f"table renamed: {old.table} -> {self.table}")
        columns = difference(old.columns, self.columns)
        if columns:
            parts.append(f"columns changed: {columns}")
        if old.key != self.key:
            parts.append(f"key changed: {list(old.key)} -> {list(self.key)}")
        types = difference(
            dict.fromkeys(old.event_types, ""), dict.fromkeys(self.event_types, "")
        )
        if types:
            parts.append(f"event types changed: {types}")
        if old.version != self.version:
            parts.append(f"version changed: {old.version!r} -> {self.version!r}")
        return "; ".join(parts) or "fingerprint changed"


def type_name(type_: TypeEngine[Any]) -> str:
    """A column type as generic SQL (``VARCHAR(255)``, ``INTEGER``, ``JSON``)."""
    try:
        return str(type_.compile(dialect=_GENERIC))
    except UnsupportedCompilationError:
        return type(type_).__name__.upper()


def difference(old: Mapping[str, str], new: Mapping[str, str]) -> str:
    """``+added -removed ~retyped(OLD->NEW)`` from ``old`` to ``new``."""
    added = [f"+{name}" for name in new if name not in old]
    removed = [f"-{name}" for name in old if name not in new]
    retyped = [
        f"~{name}({old[name]}->{new[name]})"
        for name in new
        if name in old and old[name] != new[name]
    ]
    return " ".join(added + removed + retyped)
