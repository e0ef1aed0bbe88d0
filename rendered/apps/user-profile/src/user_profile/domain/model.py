# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""User profile aggregates: event-sourced state, rules, and the events
their commands emit (the state is the fold of those events)."""

from __future__ import annotations

from collections.abc import Sequence
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
    def from_history(cls, events: Sequence[DomainEvent]) -> SampleUserProfile:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: SampleUserProfile | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError("a SampleUserProfile needs at least its creating event")
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> SampleUserProfile:
        match event:
            case SampleUserProfileCreated():
                return cls(
                    id=str(event.profile_id),
                    name=event.name,
                    email=event.email,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a SampleUserProfile")

    def apply(self, event: DomainEvent) -> SampleUserProfile:
        """This state with ``event`` folded in."""
        match event:
            case SampleUserProfileUpdated():
                return replace(
                    self,
                    name=event.name,
                    email=event.email,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started SampleUserProfile"
        )

    @classmethod
    def create(
        cls, *, name: str, email: str, now: datetime, id: str | None = None
    ) -> SampleUserProfile:
        """Create a sample user profile; fails when a value breaks a rule."""
        cls.validate_name(name)
        cls.validate_email(email)
        event = SampleUserProfileCreated(
            profile_id=UUID(id) if id is not None else uuid4(),
            name=name,
            email=email,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def update_profile(
        self, *, name: str, email: str, now: datetime
    ) -> SampleUserProfile:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        self.validate_name(name)
        self.validate_email(email)
        event = SampleUserProfileUpdated(
            profile_id=UUID(self.id),
            name=name,
            email=email,
            occurred_at=now,
        )
        return self.apply(event).record(event)

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
