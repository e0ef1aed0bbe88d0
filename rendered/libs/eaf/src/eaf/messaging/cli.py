"""``eaf dlq list|show|replay|purge``: dead letter tools for operators, and ``eaf
broker``, a local nats-server (the ``eaf`` app itself is :mod:`eaf.cli`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, TypeVar

import nats.errors
import typer

from eaf.messaging.embedded import EmbeddedNats
from eaf.messaging.jetstream import JetStreamBroker
from eaf.messaging.ports import DeadLetters
from eaf.messaging.settings import MessagingSettings

T = TypeVar("T")

dlq = typer.Typer(help="Inspect, replay and purge dead letters.", no_args_is_help=True)

Url = Annotated[
    str,
    typer.Option(envvar="EAF_NATS_URL", help="NATS server URL(s), comma separated."),
]
Prefix = Annotated[
    str, typer.Option(envvar="EAF_EVENTS_PREFIX", help="Subject prefix of events.")
]
Durable = Annotated[
    str | None, typer.Option("--durable", "-d", help="Only this consumer's letters.")
]


def _run(url: str, prefix: str, work: Callable[[DeadLetters], Awaitable[T]]) -> T:
    settings = MessagingSettings(url=url, prefix=prefix, publish_attempts=3)

    async def main() -> T:
        async with await JetStreamBroker.connect(settings, name="eaf-dlq") as broker:
            return await work(broker.dead_letters)

    try:
        return asyncio.run(main())
    except KeyError as missing:
        typer.echo(f"error: no dead letter {missing}", err=True)
    except (OSError, nats.errors.Error) as error:
        typer.echo(f"error: broker at {url}: {error or type(error).__name__}", err=True)
    raise typer.Exit(1)


def broker(
    port: Annotated[int, typer.Option(help="Client port on 127.0.0.1.")] = 4222,
    store: Annotated[Path, typer.Option(help="JetStream store directory.")] = Path(
        ".nats"
    ),
) -> None:
    """Run a local nats-server with JetStream until interrupted (development)."""

    async def serve() -> None:
        server = EmbeddedNats(store, port=port)
        await server.start()
        typer.echo(f"nats-server with JetStream at {server.url}, store {store}")
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())


@dlq.command("list")
def list_letters(
    durable: Durable = None,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON per line.")] = False,
    url: Url = "nats://localhost:4222",
    prefix: Prefix = "events",
) -> None:
    """List dead letters, oldest first."""
    letters = _run(url, prefix, lambda dead: dead.find(durable, limit))
    for letter in letters:
        if as_json:
            typer.echo(json.dumps(letter.to_dict()))
        else:
            typer.echo(
                f"{letter.sequence}\t{letter.durable}\t{letter.attempts}\t"
                f"{letter.message.subject}\t{letter.reason}"
            )
    if not letters and not as_json:
        typer.echo("no dead letters", err=True)


@dlq.command()
def show(
    sequence: int,
    url: Url = "nats://localhost:4222",
    prefix: Prefix = "events",
) -> None:
    """Show one dead letter: reason, attempts, headers and payload."""
    letter = _run(url, prefix, lambda dead: dead.get(sequence))
    typer.echo(json.dumps(letter.to_dict(), indent=2))


@dlq.command()
def replay(
    sequences: Annotated[list[int] | None, typer.Argument(show_default=False)] = None,
    replay_all: Annotated[
        bool, typer.Option("--all", help="Replay every dead letter (of --durable).")
    ] = False,
    durable: Durable = None,
    url: Url = "nats://localhost:4222",
    prefix: Prefix = "events",
) -> None:
    """Deliver dead letters again to the consumer that gave up on them."""
    if not sequences and not replay_all:
        typer.echo("error: give dead letter numbers, or --all", err=True)
        raise typer.Exit(2)

    async def work(dead: DeadLetters) -> list[int]:
        chosen = list(sequences or [])
        if replay_all:
            chosen = [letter.sequence for letter in await dead.find(durable, 10_000)]
        for sequence in chosen:
            await dead.replay(sequence)
        return chosen

    replayed = _run(url, prefix, work)
    typer.echo(f"replayed {len(replayed)}")


@dlq.command()
def purge(
    durable: Durable = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
    url: Url = "nats://localhost:4222",
    prefix: Prefix = "events",
) -> None:
    """Delete dead letters for good (all, or one consumer's)."""
    which = f"the dead letters of {durable}" if durable else "all dead letters"
    if not yes:
        typer.confirm(f"Delete {which}?", abort=True)
    purged = _run(url, prefix, lambda dead: dead.purge(durable))
    typer.echo(f"purged {purged}")
