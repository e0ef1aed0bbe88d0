# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""User profile aggregates: event-sourced state, rules, and the events their
commands emit (the state is the fold of those events)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Self
from uuid import UUID, uuid4

from eaf.domain import AggregateRoot

from user_profile.domain.errors import (
    Violation,
    is_blank,
)
from user_profile.domain.events import (
    DomainEvent,
    SampleUserProfileCreated,
    SampleUserProfileRemoved,
    SampleUserProfileUpdated,
)


@dataclass(frozen=True, kw_only=True)
class SampleUserProfile(AggregateRoot[DomainEvent]):
    """A sample user profile."""

    name: str
    email: str

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
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

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case SampleUserProfileUpdated():
                return replace(
                    self,
                    name=event.name,
                    email=event.email,
                    updated_at=event.occurred_at,
                )
            case SampleUserProfileRemoved():
                return replace(
                    self,
                    archived=True,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started SampleUserProfile"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_name(self.name))
        found.extend(self.check_email(self.email))
        return found

    @classmethod
    def create(
        cls, *, name: str, email: str, now: datetime, id: str | None = None
    ) -> Self:
        """create a new sample user profile; fails when a value breaks a rule."""
        event = SampleUserProfileCreated(
            profile_id=UUID(id) if id is not None else uuid4(),
            name=name,
            email=email,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def update_profile(self, *, name: str, email: str, now: datetime) -> Self:
        """Apply updateProfile to this sample user profile; fails when a value breaks a rule or its guard."""
        event = SampleUserProfileUpdated(
            profile_id=UUID(self.id),
            name=name,
            email=email,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this sample user profile; fails when a value breaks a rule or its guard."""
        event = SampleUserProfileRemoved(
            profile_id=UUID(self.id),
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Name cannot be blank"))
        return found

    @staticmethod
    def check_email(value: str, path: str = "email") -> list[Violation]:
        """The rules of ``email`` that ``value`` breaks."""
        found: list[Violation] = []
        if "@" not in value:
            found.append(Violation(path, "Email must be valid"))
        return found
