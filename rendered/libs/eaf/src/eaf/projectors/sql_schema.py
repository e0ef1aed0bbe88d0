"""Creating a read-model table on SQL, or dropping it to be rebuilt when the
projection's shape changed since the table was made."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, inspect, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.types import TypeEngine

from eaf.eventsourcing.sql.database import Database
from eaf.projectors.projection import Projection
from eaf.projectors.schema import ProjectionSchema, difference
from eaf.projectors.sql_tables import reset_bookkeeping, schemas
from eaf.projectors.tables import JsonColumn

Found = tuple[dict[str, str], list[str]]
"""A table in the database: its columns' kinds, and its primary key."""

_UNKNOWN = "?"


async def prepare_table(
    database: Database,
    connection: AsyncConnection,
    projection: Projection,
    checkpoint: int,
) -> str | None:
    """In the transaction that holds the projection's checkpoint lock: create its
    table, first dropping it and resetting the bookkeeping when its shape changed;
    remember the shape. Why it was dropped, or None."""
    schema = projection.schema
    stored = (
        await connection.execute(
            select(schemas.c.fingerprint, schemas.c.schema).where(
                schemas.c.projection == projection.name
            )
        )
    ).one_or_none()
    name = projection.table.name
    found = await connection.run_sync(lambda sync: _found(sync, name))
    sqlite = not database.postgres
    if stored is None:
        reason = _unrecorded_change(projection, found, checkpoint, sqlite=sqlite)
    elif stored.fingerprint != schema.fingerprint:
        reason = schema.changes_since(ProjectionSchema.from_json(stored.schema))
    else:
        reason = "table missing" if found is None and checkpoint > 0 else None
    if reason is None and sqlite and found is not None:
        reason = _numeric_json(projection, found)
    if reason is not None:
        await connection.run_sync(
            lambda sync: projection.table.drop(sync, checkfirst=True)
        )
        await reset_bookkeeping(connection, projection.name)
    await connection.run_sync(
        lambda sync: projection.table.create(sync, checkfirst=True)
    )
    statement = database.upsert(schemas).values(
        projection=projection.name,
        fingerprint=schema.fingerprint,
        schema=schema.to_json(),
    )
    await connection.execute(
        statement.on_conflict_do_update(
            index_elements=[schemas.c.projection],
            set_={
                "fingerprint": statement.excluded.fingerprint,
                "schema": statement.excluded.schema,
            },
        )
    )
    return reason


def _numeric_json(projection: Projection, found: Found) -> str | None:
    """On SQLite, why a table made when JSON columns were declared ``JSON`` is rebuilt:
    that declaration's numeric affinity stored a lone number as a number (see
    :class:`~eaf.projectors.tables.JsonColumn`), so its rows may hold changed values."""
    columns, _ = found
    numeric = [
        column.name
        for column in projection.table.columns
        if isinstance(column.type, JsonColumn) and columns.get(column.name) == "json"
    ]
    if not numeric:
        return None
    return f"JSON columns stored as text on SQLite: {' '.join(numeric)}"


def _unrecorded_change(
    projection: Projection, found: Found | None, checkpoint: int, *, sqlite: bool
) -> str | None:
    """For a table made before fingerprints were remembered: whether its columns (by
    name, kind and key) differ from the projection's."""
    if found is None:
        return "table missing" if checkpoint > 0 else None
    columns, key = found
    declared = {column.name: _kind(column.type) for column in projection.table.columns}
    for column, kind in columns.items():
        if column in declared and _UNKNOWN in (kind, declared[column]):
            declared[column] = kind  # a kind not known is not a change
        elif sqlite and (kind, declared.get(column)) == ("str", "json"):
            declared[column] = kind  # a JSON column is TEXT on SQLite
    parts: list[str] = []
    changed = difference(columns, declared)
    if changed:
        parts.append(f"columns changed: {changed}")
    declared_key = [column.name for column in projection.table.primary_key.columns]
    if sorted(key) != sorted(declared_key):
        parts.append(f"key changed: {key} -> {declared_key}")
    if not parts:
        return None
    return "; ".join(parts) + " (no fingerprint recorded)"


def _found(connection: Connection, table: str) -> Found | None:
    inspector = inspect(connection)
    if not inspector.has_table(table):
        return None
    columns = {
        column["name"]: _kind(column["type"]) for column in inspector.get_columns(table)
    }
    key = list(inspector.get_pk_constraint(table).get("constrained_columns") or [])
    return columns, key


def _kind(type_: TypeEngine[Any]) -> str:
    """A column type's Python kind, which survives the round trip through the
    database (``VARCHAR(255)`` and ``TEXT`` are both ``str``)."""
    try:
        python_type = type_.python_type
    except NotImplementedError:
        return _UNKNOWN
    return "json" if python_type in (dict, list, object) else python_type.__name__
