"""Problems found in a spec, each at a place in its file, and how values are echoed in them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Loc = tuple[str | int, ...]

ECHO_LIMIT = 60
MESSAGE_LIMIT = 1000
MAX_LISTED = 50


def shorten(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as a one-line repr of at most ``limit`` characters (an ellipsis marks a cut),
    so that a message never echoes a huge or multi-line input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _loc_part(part: str | int) -> str:
    # A key is shown as it is unless it would break the one-line, bounded format.
    if isinstance(part, str) and part.isprintable() and len(part) <= ECHO_LIMIT:
        return part
    return str(part) if isinstance(part, int) else shorten(part)


def _one_line(message: str) -> str:
    # A safety net: messages should echo values through `shorten` already.
    if not message.isprintable():
        message = message.encode("unicode_escape").decode("ascii")
    return message if len(message) <= MESSAGE_LIMIT else message[: MESSAGE_LIMIT - 1] + "…"


@dataclass(frozen=True)
class Problem:
    """One error in a spec, at a place in its file."""

    file: str
    line: int
    column: int
    loc: Loc
    message: str
    label: str = ""
    """What the place is, where its path alone says little (``GET /api/v1/vans`` for
    ``endpoints.5``)."""

    def __str__(self) -> str:
        where = ".".join(_loc_part(part) for part in self.loc) or "<spec>"
        if self.label:
            where += f" ({_one_line(self.label)})"
        return f"{self.file}:{self.line}:{self.column}: {where}: {_one_line(self.message)}"


def problem_lines(problems: Sequence[Problem]) -> list[str]:
    """One line per problem, the first `MAX_LISTED` of them, then how many more there are."""
    lines = [str(problem) for problem in problems[:MAX_LISTED]]
    if len(problems) > MAX_LISTED:
        more = len(problems) - MAX_LISTED
        lines.append(f"{problems[MAX_LISTED].file}: {more} more problem(s) not listed")
    return lines


class SpecError(Exception):
    """A spec that cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(problem_lines(problems)))
        self.problems = problems
