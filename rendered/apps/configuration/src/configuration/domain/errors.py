# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Errors the configuration domain raises."""

from __future__ import annotations

from eaf.domain import (
    BLANK,
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
    Violation,
    breaks,
    computing,
    decimal_places,
    defined,
    every_violation,
    finite,
    is_blank,
    matches,
    member_path,
    of_another,
    violations_computing,
    with_value,
)

__all__ = [
    "BLANK",
    "CommandNotAllowedError",
    "ConcurrencyError",
    "DomainError",
    "DomainValidationError",
    "NotFoundError",
    "Violation",
    "breaks",
    "computing",
    "decimal_places",
    "defined",
    "every_violation",
    "finite",
    "is_blank",
    "matches",
    "member_path",
    "of_another",
    "violations_computing",
    "with_value",
]


class CommandNotAllowedError(DomainError):
    """A command whose guard is false, where the spec names no error of its own."""

    type = "urn:problem-type:configuration:command-not-allowed"
    title = "Not allowed in the current state"
