# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Repository adapters: SQLite (state + event log in one transaction) and in-memory."""

import dataclasses
import json
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from user_profile.domain.errors import ConcurrencyError
from user_profile.domain.events import SCHEMA_VERSIONS, DomainEvent
from user_profile.domain.model import SampleUserProfile
from user_profile.infrastructure.database import Database


def _json_default(value: object) -> str:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    raise TypeError(f"cannot store {type(value).__name__} as JSON")


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def event_payload(event: DomainEvent) -> str:
    """The JSON payload of an event, with the spec's (camelCase) field names."""
    fields = {_camel(key): value for key, value in dataclasses.asdict(event).items()}
    return json.dumps(fields, default=_json_default, sort_keys=True)


def sample_user_profile_state(profile: SampleUserProfile) -> dict[str, Any]:
    """The stored JSON form of a SampleUserProfile."""
    value = profile
    return {
        "id": value.id,
        "name": value.name,
        "email": value.email,
        "createdAt": value.created_at.isoformat(),
        "updatedAt": value.updated_at.isoformat(),
    }


def sample_user_profile_from_state(
    data: dict[str, Any], version: int
) -> SampleUserProfile:
    """A SampleUserProfile from its stored JSON form."""
    return SampleUserProfile(
        id=str(data["id"]),
        name=str(data["name"]),
        email=str(data["email"]),
        created_at=datetime.fromisoformat(data["createdAt"]),
        updated_at=datetime.fromisoformat(data["updatedAt"]),
        version=version,
    )


class SqliteSampleUserProfileRepository:
    """SampleUserProfile state and its event log in a SQLite file."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def get(self, id: str) -> SampleUserProfile | None:
        rows = self._database.read(
            "SELECT state, version FROM sample_user_profile WHERE id = ?", (id,)
        )
        if not rows:
            return None
        return sample_user_profile_from_state(
            json.loads(rows[0]["state"]), rows[0]["version"]
        )

    def save(self, aggregate: SampleUserProfile) -> SampleUserProfile:
        committed = aggregate.committed()
        state = json.dumps(sample_user_profile_state(committed), sort_keys=True)
        with self._database.transaction() as connection:
            row = connection.execute(
                "SELECT version FROM sample_user_profile WHERE id = ?", (aggregate.id,)
            ).fetchone()
            stored = 0 if row is None else int(row[0])
            if stored != aggregate.version:
                raise ConcurrencyError(
                    f"SampleUserProfile {aggregate.id} is at version {stored}, not {aggregate.version}"
                )
            connection.execute(
                "INSERT INTO sample_user_profile (id, version, state) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET version = excluded.version, state = excluded.state",
                (committed.id, committed.version, state),
            )
            connection.executemany(
                "INSERT INTO sample_user_profile_events "
                "(aggregate_id, version, event_type, schema_version, payload) VALUES (?, ?, ?, ?, ?)",
                [
                    (
                        aggregate.id,
                        aggregate.version + offset,
                        type(event).__name__,
                        SCHEMA_VERSIONS[type(event).__name__],
                        event_payload(event),
                    )
                    for offset, event in enumerate(aggregate.changes, start=1)
                ],
            )
        return committed


class InMemorySampleUserProfileRepository:
    """SampleUserProfile aggregates in a dict; for unit tests and demos."""

    def __init__(self) -> None:
        self.items: dict[str, SampleUserProfile] = {}
        self.events: list[DomainEvent] = []

    def get(self, id: str) -> SampleUserProfile | None:
        return self.items.get(id)

    def save(self, aggregate: SampleUserProfile) -> SampleUserProfile:
        stored = self.items.get(aggregate.id)
        if (0 if stored is None else stored.version) != aggregate.version:
            raise ConcurrencyError(
                f"SampleUserProfile {aggregate.id} changed since it was loaded"
            )
        committed = aggregate.committed()
        self.items[aggregate.id] = committed
        self.events.extend(aggregate.changes)
        return committed
