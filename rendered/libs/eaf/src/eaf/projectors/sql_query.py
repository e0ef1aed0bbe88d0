"""Read-model queries in SQL, ordered and compared as the in-memory store does:
strings by code point (``COLLATE "C"`` on PostgreSQL, SQLite's default), NULLs last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Column, Float, Select, String, func, literal, select
from sqlalchemy.sql.elements import ColumnElement, UnaryExpression

from eaf.projectors.paging import Condition, OrderBy, query_column
from eaf.projectors.projection import TENANT_COLUMN, Projection

TOTAL = "eaf_total"
"""The label of the count of all matching rows, beside each row of a page."""


def key_order(projection: Projection, postgres: bool) -> list[UnaryExpression[Any]]:
    """The primary key, ascending: the order of ``find`` and every page's tie-break."""
    return [
        _comparable(column, postgres).asc()
        for column in projection.table.primary_key.columns
        if column.name != TENANT_COLUMN
    ]


def page_query(
    projection: Projection,
    tenant_id: str,
    where: Sequence[Condition],
    order_by: Sequence[OrderBy],
    limit: int,
    offset: int,
    postgres: bool,
) -> Select[Any]:
    """The window of rows, each with the :data:`TOTAL` of all matching rows (one
    statement, so rows and total come from one snapshot)."""
    table = projection.table
    order = []
    for name, descending in order_by:
        column = _comparable(query_column(projection, name), postgres)
        order.append((column.desc() if descending else column.asc()).nulls_last())
    return (
        select(table, func.count().over().label(TOTAL))
        .where(*matching(projection, tenant_id, where, postgres))
        .order_by(*order, *key_order(projection, postgres))
        .limit(limit)
        .offset(offset)
    )


def count_query(
    projection: Projection,
    tenant_id: str,
    where: Sequence[Condition],
    postgres: bool,
) -> Select[Any]:
    """How many rows match (for a page past the last row, which carries no total)."""
    return (
        select(func.count())
        .select_from(projection.table)
        .where(*matching(projection, tenant_id, where, postgres))
    )


def matching(
    projection: Projection,
    tenant_id: str,
    where: Sequence[Condition],
    postgres: bool,
) -> list[ColumnElement[bool]]:
    """The tenant's filter and one clause per condition."""
    clauses = [projection.table.c[TENANT_COLUMN] == tenant_id]
    for condition in where:
        column = query_column(projection, condition.column)
        clauses.append(_clause(column, condition, postgres))
    return clauses


def _clause(
    column: Column[Any], condition: Condition, postgres: bool
) -> ColumnElement[bool]:
    if condition.op == "is_null":
        return column.is_(None) if condition.value else column.is_not(None)
    values = [_bound(column, value) for value in condition.values]
    if condition.op == "in":
        return column.in_(values)
    if condition.op == "eq":
        return column == values[0]
    compared = _comparable(column, postgres)
    match condition.op:
        case "gt":
            return compared > values[0]
        case "gte":
            return compared >= values[0]
        case "lt":
            return compared < values[0]
        case _:
            return compared <= values[0]


def _comparable(column: Column[Any], postgres: bool) -> ColumnElement[Any]:
    # PostgreSQL sorts text by the database's locale unless told otherwise.
    if postgres and isinstance(column.type, String):
        return column.collate("C")
    return column


def _bound(column: Column[Any], value: Any) -> ColumnElement[Any]:
    # An integer column compared with a fraction: bind the fraction as one, not as
    # the column's type (asyncpg would refuse 2.5 as an integer).
    if isinstance(value, float) and column.type.python_type is int:
        return literal(value, Float())
    return literal(value, column.type)
