"""The ``eaf`` command line: dead letters (``eaf dlq``), read models (``eaf
projections``) and a development broker (``eaf broker``)."""

import typer

from eaf.messaging.cli import broker, dlq
from eaf.projectors.cli import projections

app = typer.Typer(help="Enterprise application framework tools.", no_args_is_help=True)
app.command()(broker)
app.add_typer(dlq, name="dlq")
app.add_typer(projections, name="projections")

if __name__ == "__main__":
    app()
