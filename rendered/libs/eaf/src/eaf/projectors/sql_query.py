"""Read-model queries in SQL, ordered and compared as the in-memory store does:
strings by code point (``COLLATE "C"`` on PostgreSQL, SQLite's default), NULLs last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Select,
    SmallInteger,
    String,
    false,
    func,
    literal,
    select,
)
from sqlalchemy.sql.elements import ColumnElement, UnaryExpression

from eaf.projectors.paging import Condition, OrderBy, query_column
from eaf.projectors.projection import TENANT_COLUMN, Projection

TOTAL = "eaf_total"
"""The label of the count of all matching rows, beside each row of a page."""

INT64 = (-(2**63), 2**63 - 1)
"""The integers drivers bind: what SQLite's integers and PostgreSQL's ``bigint`` hold."""


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
    if column.type.python_type is int:
        decided = _out_of_range(column, condition, integer_range(column, postgres))
        if decided is not None:
            return decided
    if condition.ignore_case:
        return _folded(column, postgres).in_(
            [
                func.lower(_bound(column, value)) if postgres else value.casefold()
                for value in condition.values
            ]
        )
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


def _folded(column: Column[Any], postgres: bool) -> ColumnElement[Any]:
    """The column's text in one case: SQLite's ``eaf_casefold`` (Python's
    ``str.casefold``, which each connection is given), PostgreSQL's ``lower``."""
    return func.lower(column) if postgres else func.eaf_casefold(column)


def integer_range(column: Column[Any], postgres: bool) -> tuple[int, int]:
    """The integers an integer column holds (PostgreSQL's ``integer`` has 32 bits)."""
    if not postgres or isinstance(column.type, BigInteger):
        return INT64
    if isinstance(column.type, SmallInteger):
        return (-(2**15), 2**15 - 1)
    return (-(2**31), 2**31 - 1)


def _out_of_range(
    column: Column[Any], condition: Condition, bounds: tuple[int, int]
) -> ColumnElement[bool] | None:
    """The clause of a condition on an integer column with an integer no row can hold,
    decided here (the driver would refuse to bind it); None when every value fits."""
    low, high = bounds
    outside = [
        value
        for value in condition.values
        if isinstance(value, int)
        and not isinstance(value, bool)
        and not low <= value <= high
    ]
    if not outside:
        return None
    if condition.op == "in":
        kept = [value for value in condition.values if value not in outside]
        return (
            column.in_([_bound(column, value) for value in kept]) if kept else false()
        )
    above = outside[0] > high
    if condition.op == "eq" or above == (condition.op in ("gt", "gte")):
        return false()
    # Every integer is on the right side of the bound: the condition holds where the
    # column holds a value (never on NULL, as everywhere).
    return column.is_not(None)


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
    if (
        isinstance(value, int)
        and column.type.python_type is float
        and not INT64[0] <= value <= INT64[1]
    ):
        # A float column compared with an integer beyond what drivers bind.
        return literal(_as_float(value), Float())
    return literal(value, column.type)


def _as_float(value: int) -> float:
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")
