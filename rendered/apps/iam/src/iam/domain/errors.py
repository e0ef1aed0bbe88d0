# Generated from spec iam by `generate`; edits are merged on re-render.

"""Errors the iam domain raises."""


class DomainValidationError(ValueError):
    """A value breaks a rule of the domain; names the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class NotFoundError(ValueError):
    """No aggregate has the requested id."""


class ConcurrencyError(RuntimeError):
    """Another writer changed the aggregate since it was loaded."""
