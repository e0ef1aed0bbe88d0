"""Paged read-model queries: conditions, ordering and the page they give, checked
against the projection's table before any store runs them.

Every store agrees on the meaning: a condition on a NULL column is false (except
``is_null``); strings compare by code point (ISO dates and times in one format
therefore compare chronologically); NULLs sort last in either direction; the primary
key breaks ties, ascending."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from sqlalchemy import Column

from eaf.eventsourcing.serialization import encode_value
from eaf.projectors.projection import TENANT_COLUMN, Projection

Operator = Literal["eq", "in", "gt", "gte", "lt", "lte", "is_null"]
OPERATORS: tuple[str, ...] = get_args(Operator)

OrderBy = tuple[str, bool]
"""A column to sort by, and whether descending."""


@dataclass(frozen=True)
class Condition:
    """``column op value``. ``in`` takes a non-empty collection, ``is_null`` a bool
    (whether the column must be NULL); the others a value of the column's type (never
    None: ask with ``is_null``). With ``ignore_case`` (``eq`` and ``in`` of strings), a
    value matches the rows whose column is the same text in any case (case-folded; on
    PostgreSQL, lower-cased as the database's collation does)."""

    column: str
    op: Operator
    value: Any = None
    ignore_case: bool = False

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            raise ValueError(
                f"unknown operator {self.op!r} (expected one of {', '.join(OPERATORS)})"
            )
        if self.ignore_case and self.op not in ("eq", "in"):
            raise ValueError(f"{self.column}: only eq and in ignore case")
        if self.op == "is_null":
            if not isinstance(self.value, bool):
                raise ValueError(f"{self.column}: is_null takes True or False")
        elif self.op == "in":
            value = self.value
            if (
                isinstance(value, (str, bytes, Mapping))
                or not isinstance(value, Collection)
                or not value
            ):
                raise ValueError(f"{self.column}: in takes a non-empty list of values")
            object.__setattr__(self, "value", tuple(value))
        if self.op != "is_null" and None in self.values:
            raise ValueError(
                f"{self.column}: {self.op} None matches nothing: use is_null"
            )
        if self.ignore_case and not all(isinstance(v, str) for v in self.values):
            raise ValueError(f"{self.column}: only text is compared ignoring case")

    @property
    def values(self) -> tuple[Any, ...]:
        """The values compared with (none for ``is_null``)."""
        if self.op == "is_null":
            return ()
        return tuple(self.value) if self.op == "in" else (self.value,)


@dataclass(frozen=True)
class Page:
    """One window of a query's rows, and how many rows match in all."""

    rows: list[dict[str, Any]]
    total: int


def checked_query(
    projection: Projection,
    where: Sequence[Condition],
    order_by: Sequence[OrderBy],
    limit: int,
    offset: int,
) -> None:
    """Refuse (ValueError) what no store may run: an unknown or JSON column, the tenant
    column, a value of another type than its column's, a negative window."""
    if limit < 0 or offset < 0:
        raise ValueError(f"limit and offset cannot be negative ({limit}, {offset})")
    for condition in where:
        if not isinstance(condition, Condition):
            raise ValueError(f"not a Condition: {condition!r}")
        column = query_column(projection, condition.column)
        for value in condition.values:
            _check_value(column, value)
    for name, descending in order_by:
        query_column(projection, name)
        if not isinstance(descending, bool):
            raise ValueError(f"{name}: descending must be True or False")


def query_column(projection: Projection, name: str) -> Column[Any]:
    """The column ``name`` of the projection's table, if a query may use it."""
    table = projection.table
    if name == TENANT_COLUMN:
        raise ValueError("the tenant comes from the security context")
    if name not in table.c:
        raise ValueError(f"{projection.name} has no column {name!r}")
    column = table.c[name]
    if value_type(column) is None:
        raise ValueError(f"{projection.name}: cannot filter or sort by {name!r}")
    return column


def value_type(column: Column[Any]) -> type | None:
    """The Python type of a column's values, or None for JSON (not comparable alike
    in every database)."""
    try:
        python_type: type = column.type.python_type
    except NotImplementedError:
        return None
    return None if python_type in (dict, list, object) else python_type


def _check_value(column: Column[Any], value: Any) -> None:
    expected = value_type(column)
    assert expected is not None
    if expected is bool:
        ok = isinstance(value, bool)
    elif expected in (int, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, expected)
    if not ok:
        raise ValueError(
            f"{column.name} holds {expected.__name__} values, not {value!r}"
        )


def equal_to(
    column: str, values: Sequence[Any] | None, *, ignore_case: bool = False
) -> list[Condition]:
    """``column`` equal to one of ``values`` (a repeated query parameter), if any given;
    in any case with ``ignore_case`` (text only)."""
    if not values:
        return []
    encoded = [encode_value(value) for value in values]
    if len(encoded) == 1:
        return [Condition(column, "eq", encoded[0], ignore_case)]
    return [Condition(column, "in", encoded, ignore_case)]


def in_range(column: str, **bounds: Any) -> list[Condition]:
    """``column`` within the bounds given (``gte``, ``gt``, ``lte``, ``lt``; None: none)."""
    return [
        Condition(column, op, encode_value(value))  # type: ignore[arg-type]
        for op, value in bounds.items()
        if value is not None
    ]


def order_by(
    sort: Iterable[str] | None,
    columns: Mapping[str, str],
    default: Sequence[OrderBy] = (),
) -> list[OrderBy]:
    """Sort parameters (``dueDate``, ``-dueDate``) as (column, descending) pairs."""
    if not sort:
        return list(default)
    return [(columns[item.lstrip("-")], item.startswith("-")) for item in sort]
