# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Errors the licensing domain raises."""

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
    "TooManyMachines",
    "LicenseNotActive",
    "LicenseNotSuspended",
    "LicenseRevoked",
    "NotRenewable",
]


class CommandNotAllowedError(DomainError):
    """A command whose guard is false, where the spec names no error of its own."""

    type = "urn:problem-type:licensing:command-not-allowed"
    title = "Not allowed in the current state"


class TooManyMachines(DomainError):
    """TOO_MANY_MACHINES: the license has as many machines as it allows"""

    status = 409
    type = "urn:problem-type:licensing:too-many-machines"
    title = "TOO_MANY_MACHINES: the license has as many machines as it allows"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(
            detail or "TOO_MANY_MACHINES: the license has as many machines as it allows"
        )


class LicenseNotActive(DomainError):
    """The license is not active"""

    status = 409
    type = "urn:problem-type:licensing:license-not-active"
    title = "The license is not active"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "The license is not active")


class LicenseNotSuspended(DomainError):
    """The license is not suspended"""

    status = 409
    type = "urn:problem-type:licensing:license-not-suspended"
    title = "The license is not suspended"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "The license is not suspended")


class LicenseRevoked(DomainError):
    """The license is revoked"""

    status = 409
    type = "urn:problem-type:licensing:license-revoked"
    title = "The license is revoked"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "The license is revoked")


class NotRenewable(DomainError):
    """The license has no duration to renew by"""

    status = 409
    type = "urn:problem-type:licensing:not-renewable"
    title = "The license has no duration to renew by"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "The license has no duration to renew by")
