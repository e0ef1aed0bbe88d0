# Generated from spec iam by `generate`; edits are merged on re-render.

"""IAM operator commands (``iam-admin``, or
``python -m iam.cli``), against the configured database.

Each command checks its options with the spec's rules before the database is opened
(exit 2, naming each broken one); a value it prompts for is asked twice on a terminal, or
read from stdin's first line, never from the command line. Exit 0 on success, 2 on bad
input, 1 when the command was refused."""

import argparse
import asyncio
import getpass
import re
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TextIO

from eaf import context
from eaf.eventsourcing import close_event_store
from eaf.projectors import Projectors

from iam.bootstrap import bootstrap
from iam.domain import model as domain_model
from iam.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
    Violation,
)
from iam.infrastructure.config import load_settings

PROG = "iam-admin"
TENANT = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
BAD_INPUT = 2
REFUSED = 1


Run = Callable[[], Coroutine[Any, Any, object]]
"""A command with its options, to run."""


class BadInputError(Exception):
    """The operator's input cannot be used; the message says why."""


def parser() -> argparse.ArgumentParser:
    """The commands and their options."""
    parser = argparse.ArgumentParser(prog=PROG, description="IAM operator commands")
    # (no option's name starts with _: the command's cannot be taken)
    commands = parser.add_subparsers(dest="_command", required=True)
    create_platform_admin = commands.add_parser(
        "create-platform-admin",
        help="create a platform administrator, or reset its password",
        description="Create the platform administrator USERNAME, or reset its password. The password is asked for, or read from stdin's first line.",
    )
    create_platform_admin.add_argument(
        "--username",
        dest="username",
        metavar="USERNAME",
        required=True,
    )
    create_platform_admin.add_argument(
        "--email",
        dest="email",
        metavar="EMAIL",
        default=None,
        help="only for a new administrator (default: derived from USERNAME)",
    )
    return parser


def read_secret(name: str, stdin: TextIO, found: list[Violation]) -> str:
    """A value asked twice on a terminal, else the next line of stdin (never an argument);
    "" and a problem in ``found`` when there is none."""
    if stdin.isatty():
        value = getpass.getpass(f"{name.capitalize()}: ")
        if getpass.getpass(f"{name.capitalize()} (again): ") != value:
            found.append(Violation("", f"the {name}s do not match"))
            return ""
    else:
        value = stdin.readline().rstrip("\r\n")
    if not value:
        found.append(Violation("", f"no {name} given (type it, or pipe it on stdin)"))
    return value


def refuse(found: list[Violation], names: dict[str, str]) -> None:
    """Refuse the options that break their rules: every one, each named."""
    if found:
        raise BadInputError(
            "\n".join(
                f"{v.message} ({names.get(v.field.split('.')[0], v.field)})"
                if v.field
                else v.message
                for v in found
            )
        )


def operator(tenant: str | None) -> context.SecurityContext:
    """Who runs a command: the operator, in ``tenant`` (else a platform one, in none)."""
    return context.SecurityContext(
        tenant_id=tenant, user_id=PROG, platform=tenant is None
    )


async def run_create_platform_admin(
    *,
    given_username: str,
    given_email: str | None,
    given_password: str,
    tenant: str | None,
) -> object:
    """Create a platform administrator, or reset its password: ``directory.set_platform_admin`` against the configured database."""
    services = await bootstrap(load_settings())
    try:
        # the read models the method may read, as of the last stored event
        for worker in services.workers:
            if isinstance(worker, Projectors):
                await worker.catch_up()
        with context.use(operator(tenant)):
            answer: Awaitable[object] = services.directory.set_platform_admin(
                username=given_username,
                email=given_email,
                password=given_password,
            )
            return await answer
    finally:
        await close_event_store(services.store)


def checked_create_platform_admin(arguments: argparse.Namespace, stdin: TextIO) -> Run:
    """``run_create_platform_admin`` with the options given, each checked by its rules first."""
    found: list[Violation] = []
    given_username: str = arguments.username
    found += domain_model.check_cli_create_platform_admin_username(given_username)
    given_email: str | None = arguments.email
    if given_email is not None:
        found += domain_model.check_cli_create_platform_admin_email(given_email)
    given_password = read_secret("password", stdin, found)
    if given_password:
        found += domain_model.check_cli_create_platform_admin_password(given_password)
    refuse(
        found,
        {
            "username": "--username",
            "email": "--email",
            "password": "password",
        },
    )
    return lambda: run_create_platform_admin(
        given_username=given_username,
        given_email=given_email,
        given_password=given_password,
        tenant=None,
    )


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    """Run one command: 0 on success, 2 on bad input, 1 when it was refused."""
    arguments = parser().parse_args(argv)
    try:
        command = COMMANDS[vars(arguments)["_command"]](arguments, stdin or sys.stdin)
    except BadInputError as error:
        return fail(str(error), BAD_INPUT)
    try:
        answer = asyncio.run(command())
    except DomainValidationError as error:
        return fail("\n".join(v.message for v in error.violations), BAD_INPUT)
    except ConcurrencyError:
        return fail("a concurrent change came first; run the command again", REFUSED)
    except (DomainError, NotFoundError) as error:
        return fail(str(error), REFUSED)
    if answer is not None:
        print(answer)
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], Run]] = {
    "create-platform-admin": checked_create_platform_admin,
}


def fail(message: str, status: int) -> int:
    """Report ``message``, each of its lines as one error line; ``status``."""
    for line in message.splitlines():
        print(f"{PROG}: error: {line}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
