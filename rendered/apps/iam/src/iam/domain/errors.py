# Generated from spec iam by `generate`; edits are merged on re-render.

"""Errors the iam domain raises."""

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
    "UserStatusRefused",
    "ServiceAccountDisabled",
    "RulesNotEvaluable",
]


class CommandNotAllowedError(DomainError):
    """A command whose guard is false, where the spec names no error of its own."""

    type = "urn:problem-type:iam:command-not-allowed"
    title = "Not allowed in the current state"


class UserStatusRefused(DomainError):
    """Validation failed"""

    status = 422
    type = "urn:problem-type:iam:user-status-refused"
    title = "Validation failed"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "Status is one of ACTIVE, DISABLED")


class ServiceAccountDisabled(DomainError):
    """The service account is disabled"""

    status = 409
    type = "urn:problem-type:iam:service-account-disabled"
    title = "The service account is disabled"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "The service account is disabled")


class RulesNotEvaluable(DomainError):
    """Validation failed"""

    status = 422
    type = "urn:problem-type:iam:rules-not-evaluable"
    title = "Validation failed"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "The tenant's roles or policies cannot be evaluated")
