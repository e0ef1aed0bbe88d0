"""Read-model tables from plain column declarations, so that generated services can
declare projections without importing SQLAlchemy themselves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    MetaData,
    String,
    Table,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import TypeCompiler

from eaf.eventsourcing.serialization import encode_value
from eaf.projectors.projection import TENANT_COLUMN


class JsonColumn(JSON):
    """A JSON column, declared ``TEXT`` on SQLite: a column declared ``JSON`` has numeric
    affinity there, which stores the text of a lone number as a number (a big integer
    loses digits, ``1E2`` reads back ``100``)."""

    cache_ok = True


@compiles(JsonColumn, "sqlite")
def _sqlite_text(type_: JsonColumn, compiler: TypeCompiler, **kw: Any) -> str:
    return "TEXT"


COLUMN_TYPES: Mapping[str, Any] = {
    "str": String,
    "int": BigInteger,  # 64 bits on every database (PostgreSQL's integer has 32)
    "float": Float,
    "bool": Boolean,
    "json": JsonColumn,
}


def read_model_table(
    name: str,
    columns: Mapping[str, str],
    *,
    key: Sequence[str] = ("id",),
    metadata: MetaData | None = None,
) -> Table:
    """A table keyed by ``tenant_id`` and ``key`` with ``columns`` (name -> one of
    str, int, float, bool, json); key columns are strings and never null."""
    unknown = sorted(set(columns.values()) - set(COLUMN_TYPES))
    if unknown:
        raise ValueError(
            f"unknown column types {unknown} (expected {sorted(COLUMN_TYPES)})"
        )
    table_columns: list[Column[Any]] = [
        Column(TENANT_COLUMN, String(64), primary_key=True)
    ]
    table_columns += [Column(part, String(255), primary_key=True) for part in key]
    table_columns += [
        Column(column, COLUMN_TYPES[kind](), nullable=True)
        for column, kind in columns.items()
        if column not in key
    ]
    return Table(name, metadata or MetaData(), *table_columns)


def key_value(value: object) -> str:
    """A key column's value as a read-model table stores it."""
    return str(encode_value(value))
