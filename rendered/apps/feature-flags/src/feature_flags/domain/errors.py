# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Errors the feature flags domain raises."""

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
    "UnknownEnvironment",
    "FlagArchived",
]


class CommandNotAllowedError(DomainError):
    """A command whose guard is false, where the spec names no error of its own."""

    type = "urn:problem-type:feature-flags:command-not-allowed"
    title = "Not allowed in the current state"


class UnknownEnvironment(DomainError):
    """The flag names an environment its project does not have"""

    status = 422
    type = "urn:problem-type:feature-flags:unknown-environment"
    title = "The flag names an environment its project does not have"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(
            detail or "The flag names an environment its project does not have"
        )


class FlagArchived(DomainError):
    """The flag is archived"""

    status = 409
    type = "urn:problem-type:feature-flags:flag-archived"
    title = "The flag is archived"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "The flag is archived")
