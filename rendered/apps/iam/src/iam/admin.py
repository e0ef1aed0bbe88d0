"""Operator commands against the configured database (``iam-admin`` or
``python -m iam.admin``).

``create-platform-admin --username U [--email E]`` creates the platform administrator
``U``, or resets its password when it exists. The password is read from the terminal
(asked twice) or, when stdin is not a terminal, from its first line; never from the
command line, where other users of the host could read it."""

import argparse
import asyncio
import getpass
import sys
from collections.abc import Sequence
from typing import TextIO

from eaf.eventsourcing import close_event_store

from iam.application.directory import Directory
from iam.bootstrap import bootstrap
from iam.domain.errors import ConcurrencyError, DomainValidationError
from iam.domain.model import User
from iam.infrastructure.config import Settings, load_settings

BAD_INPUT = 2


class BadInputError(Exception):
    """The operator's input cannot be used; the message says why."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="iam-admin", description="IAM operator commands"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser(
        "create-platform-admin",
        help="create a platform administrator, or reset its password",
        description="Create the platform administrator USERNAME, or reset its "
        "password. The password is asked for, or read from stdin's first line.",
    )
    create.add_argument("--username", required=True)
    create.add_argument(
        "--email", help="only for a new administrator (default: derived from USERNAME)"
    )
    return parser


def read_password(stdin: TextIO) -> str:
    """The new password: asked twice on a terminal, else stdin's first line."""
    if stdin.isatty():
        password = getpass.getpass("Password: ")
        if getpass.getpass("Password (again): ") != password:
            raise BadInputError("the passwords do not match")
    else:
        password = stdin.readline().rstrip("\r\n")
    if not password:
        raise BadInputError("no password given (type it, or pipe it on stdin)")
    return password


async def set_platform_admin(
    settings: Settings, *, username: str, password: str, email: str | None
) -> bool:
    """Create or reset the administrator in the configured event store; True when
    created."""
    services = await bootstrap(settings)
    try:
        directory: Directory = services.directory
        return await directory.set_platform_admin(
            username=username, password=password, email=email
        )
    finally:
        await close_event_store(services.store)


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    """Run one command; 0 on success, 2 on bad input, 1 when it failed otherwise."""
    arguments = _parser().parse_args(argv)
    try:
        # checked before the database is opened (or created)
        DomainValidationError.raise_for(User.check_username(arguments.username))
        if arguments.email is not None:
            DomainValidationError.raise_for(User.check_email(arguments.email))
        password = read_password(stdin or sys.stdin)
        DomainValidationError.raise_for(User.check_password(password))
    except DomainValidationError as error:
        return _fail(error.message, BAD_INPUT)
    except BadInputError as error:
        return _fail(str(error), BAD_INPUT)
    try:
        created = asyncio.run(
            set_platform_admin(
                load_settings(),
                username=arguments.username,
                password=password,
                email=arguments.email,
            )
        )
    except ConcurrencyError:
        return _fail("the administrator changed meanwhile; run the command again", 1)
    if created:
        print(f"created platform administrator {arguments.username}")
    else:
        print(f"reset the password of platform administrator {arguments.username}")
    return 0


def _fail(message: str, status: int) -> int:
    print(f"iam-admin: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
