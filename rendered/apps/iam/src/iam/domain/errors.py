# Generated from spec iam by `generate`; edits are merged on re-render.

"""Errors the iam domain raises."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar


@dataclass(frozen=True)
class Violation:
    """One broken rule: the field it is about (a path such as ``lines.0.sku``) and why."""

    field: str
    message: str


class DomainValidationError(ValueError):
    """Values break rules of the domain; ``violations`` lists every one (the first also as
    ``field`` and ``message``)."""

    def __init__(self, field: str, message: str, *more: Violation) -> None:
        super().__init__(message)
        self.violations = [Violation(field, message), *more]
        self.field = field
        self.message = message

    @classmethod
    def of(cls, *violations: Violation | None) -> DomainValidationError:
        """The error listing ``violations`` (None entries are skipped)."""
        found = [v for v in violations if v is not None]
        first, *more = found or [Violation("", "invalid")]
        return cls(first.field, first.message, *more)

    @classmethod
    def raise_for(cls, violations: list[Violation]) -> None:
        """Raise the error listing ``violations``, if there are any."""
        if violations:
            raise cls.of(*violations)


class NotFoundError(ValueError):
    """No aggregate has the requested id."""


class ConcurrencyError(RuntimeError):
    """Another writer changed the aggregate since it was loaded."""


class DomainError(Exception):
    """A command refused in the aggregate's current state: an RFC 9457 problem with its own
    ``type``, ``title`` and ``status``."""

    status: ClassVar[int] = 409
    type: ClassVar[str] = "about:blank"
    title: ClassVar[str] = "Conflict"

    def __init__(self, detail: str | None = None) -> None:
        self.detail = detail or self.title
        super().__init__(self.detail)


class CommandNotAllowedError(DomainError):
    """A command whose guard is false, where the spec names no error of its own."""

    type = "urn:problem-type:iam:command-not-allowed"
    title = "Not allowed in the current state"


# What ECMAScript's \s matches: OpenAPI patterns are ECMAScript regular expressions, so a
# text is blank for the domain exactly when the OpenAPI document's pattern says so.
BLANK = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def is_blank(value: str) -> bool:
    """Whether ``value`` holds nothing but white space."""
    return not value.strip(BLANK)


def decimal_places(value: Decimal) -> int:
    """The digits ``value`` has after the point."""
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0
