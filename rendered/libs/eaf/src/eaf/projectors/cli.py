"""``eaf projections list|rebuild``: the read models of a database, for operators."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from eaf.eventsourcing.sql.database import Database
from eaf.projectors.operations import (
    NotCaughtUp,
    ProjectionStatus,
    projection_status,
    rebuild_projection,
    wait_until_caught_up,
)

T = TypeVar("T")

projections = typer.Typer(
    help="Inspect read models and rebuild them from the event store.",
    no_args_is_help=True,
)

DatabaseUrl = Annotated[
    str,
    typer.Option(
        "--database",
        envvar="EAF_DATABASE_URL",
        help="The database of the read models: sqlite:///file.db or postgresql://...",
        show_default=False,
    ),
]

_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
}


def async_url(url: str) -> str:
    """``url`` with the async driver eaf uses (``sqlite://`` and ``postgresql://``
    are accepted as they are written in a service's configuration)."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        raise ValueError(f"not a database URL: {url!r}")
    return f"{_DRIVERS.get(scheme, scheme)}://{rest}"


def _run(url: str, work: Callable[[Database], Awaitable[T]]) -> T:
    try:
        parsed = make_url(async_url(url))
        shown = parsed.render_as_string(hide_password=True)
        file = parsed.database if parsed.get_backend_name() == "sqlite" else None
        if file and not Path(file).is_file():
            raise ValueError(f"no database file {file}")
        database = Database.open(parsed.render_as_string(hide_password=False))
    except (ValueError, ArgumentError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None

    async def main() -> T:
        try:
            return await work(database)
        finally:
            await database.close()

    try:
        return asyncio.run(main())
    except NotCaughtUp as error:
        typer.echo(f"error: {error}; is its service running?", err=True)
    except (LookupError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
    except (OSError, SQLAlchemyError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        typer.echo(f"error: database {shown}: {reason}", err=True)
    raise typer.Exit(1)


@projections.command("list")
def list_projections(database: DatabaseUrl) -> None:
    """The projections of the database: checkpoint, head, lag and dead letters."""
    statuses = _run(database, projection_status)
    if not statuses:
        typer.echo("no projections", err=True)
        return
    rows = [("NAME", "CHECKPOINT", "HEAD", "LAG", "DEAD LETTERS")]
    rows += [_cells(status) for status in statuses]
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        typer.echo("  ".join(cells).rstrip())


def _cells(status: ProjectionStatus) -> tuple[str, str, str, str, str]:
    def shown(value: int | None) -> str:
        return "-" if value is None else str(value)

    return (
        status.name,
        str(status.checkpoint),
        shown(status.head),
        shown(status.lag),
        str(status.dead_letters),
    )


@projections.command()
def rebuild(
    name: str,
    database: DatabaseUrl,
    wait: Annotated[
        bool, typer.Option("--wait", help="Show progress until it has caught up.")
    ] = False,
    timeout: Annotated[
        float, typer.Option(help="Seconds --wait waits at most.", min=0)
    ] = 600.0,
    interval: Annotated[
        float, typer.Option(help="Seconds between progress checks.", min=0.01)
    ] = 1.0,
) -> None:
    """Reset projection NAME: the projector of its running service (or the next one
    started) replays it from position 0."""

    async def work(db: Database) -> ProjectionStatus | None:
        was = await rebuild_projection(db, name)
        typer.echo(f"{name}: reset from position {was}; replaying from 0")
        if not wait:
            return None
        shown: list[str] = []

        def progress(status: ProjectionStatus) -> None:
            if not shown or shown[-1] != status.progress:
                shown.append(status.progress)
                typer.echo(f"{name}: {status.progress}")

        return await wait_until_caught_up(
            db, name, timeout=timeout, interval=interval, progress=progress
        )

    status = _run(database, work)
    if status is not None:
        typer.echo(f"{name}: caught up at position {status.checkpoint}")
