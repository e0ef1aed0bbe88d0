# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""User profile aggregates: state, rules and the events their commands emit."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from uuid import UUID, uuid4

from user_profile.domain.errors import DomainValidationError
from user_profile.domain.events import (
    DomainEvent,
    SampleUserProfileCreated,
    SampleUserProfileUpdated,
)


@dataclass(frozen=True, kw_only=True)
class SampleUserProfile:
    """A sample user profile."""

    id: str
    name: str
    email: str
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def create(
        cls, *, name: str, email: str, now: datetime, id: str | None = None
    ) -> SampleUserProfile:
        """Create a sample user profile; fails when a value breaks a rule."""
        cls.validate_name(name)
        cls.validate_email(email)
        created = cls(
            id=id or str(uuid4()),
            name=name,
            email=email,
            created_at=now,
            updated_at=now,
        )
        return created.record(
            SampleUserProfileCreated(
                profile_id=UUID(created.id),
                name=created.name,
                email=created.email,
                occurred_at=now,
            )
        )

    def update_profile(
        self, *, name: str, email: str, now: datetime
    ) -> SampleUserProfile:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        self.validate_name(name)
        self.validate_email(email)
        updated = replace(self, name=name, email=email, updated_at=now)
        return updated.record(
            SampleUserProfileUpdated(
                profile_id=UUID(updated.id),
                name=updated.name,
                email=updated.email,
                occurred_at=now,
            )
        )

    def record(self, event: DomainEvent) -> SampleUserProfile:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> SampleUserProfile:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())

    @staticmethod
    def validate_name(name: str) -> None:
        """Enforce the rules of ``name``."""
        if not name.strip():
            raise DomainValidationError("name", "Name cannot be blank")

    @staticmethod
    def validate_email(email: str) -> None:
        """Enforce the rules of ``email``."""
        if "@" not in email:
            raise DomainValidationError("email", "Email must be valid")
