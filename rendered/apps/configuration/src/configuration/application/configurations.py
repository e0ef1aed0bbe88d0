"""Layered, validated, encrypted and versioned configuration (hand-written: what the spec
cannot say), on the generated property-set and schema use cases.

Layers, least specific first (the later wins a property both hold), all at one label:

1. application ``application``, profile ``default``: defaults for every application;
2. the application, profile ``default``: its own properties;
3. the application, the profile asked for.

A property set is checked against its application's JSON Schema (every violation at
once) before its secrets are sealed; a secret is stored as ciphertext only and opened
only for callers allowed to (``reveal``), others read :data:`MASK`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from eaf.context import require_tenant

from configuration.application.ports.inbound import (
    ConfigSchemaUseCases,
    PropertySetUseCases,
)
from configuration.application.secrets import SecretBox, sealed_for
from configuration.application.validation import schema_problems, violations
from configuration.application.watch import Changes
from configuration.domain.errors import (
    DomainValidationError,
    NotFoundError,
    Violation,
)
from configuration.domain.events import PropertiesChanged, PropertiesCreated
from configuration.domain.model import PropertySet
from configuration.domain.types import Property

__all__ = [
    "DEFAULTS",
    "DEFAULT_PROFILE",
    "MASK",
    "Configurations",
    "Diff",
    "History",
    "PropertySource",
    "Resolved",
    "Version",
    "layer_keys",
]

DEFAULTS = "application"
"""The application whose properties every application inherits."""
DEFAULT_PROFILE = "default"
MASK = "******"


class History(Protocol):
    """The stored events of one property set, in order."""

    async def __call__(self, set_id: str, /) -> Sequence[object]: ...


def set_key(application: str, profile: str, label: str) -> str:
    return f"{application}:{profile}:{label}"


def layer_keys(application: str, profile: str, label: str) -> list[str]:
    """The property sets an application reads, least specific first (no repeats)."""
    keys = [
        set_key(DEFAULTS, DEFAULT_PROFILE, label),
        set_key(application, DEFAULT_PROFILE, label),
        set_key(application, profile, label),
    ]
    return list(dict.fromkeys(keys))


@dataclass(frozen=True)
class PropertySource:
    """One layer as read: its set's key, revision and values."""

    name: str
    revision: int
    source: dict[str, Any]


@dataclass(frozen=True)
class Resolved:
    """An application's configuration: the layers, most specific first, and the merge."""

    application: str
    profile: str
    label: str
    version: str
    sources: list[PropertySource]
    merged: dict[str, Any]
    origins: dict[str, str]


@dataclass(frozen=True)
class Version:
    revision: int
    occurred_at: datetime
    rolled_back_to: int | None


@dataclass(frozen=True)
class Diff:
    added: dict[str, Any]
    removed: dict[str, Any]
    changed: dict[str, tuple[Any, Any]]


def _digest(parts: Sequence[tuple[str, int]]) -> str:
    text = ";".join(f"{name}@{revision}" for name, revision in parts)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class Configurations:
    """What the configuration HTTP API runs."""

    def __init__(
        self,
        property_sets: PropertySetUseCases,
        schemas: ConfigSchemaUseCases,
        history: History,
        box: SecretBox,
        changes: Changes,
    ) -> None:
        self._sets = property_sets
        self._schemas = schemas
        self._history = history
        self._box = box
        self.changes = changes

    def _values(
        self, key: str, properties: Mapping[str, Property], reveal: bool
    ) -> dict[str, Any]:
        tenant = require_tenant()
        values: dict[str, Any] = {}
        for name, stored in sorted(properties.items()):
            if not stored.secret:
                values[name] = json.loads(stored.value_)
            elif reveal:
                plain = self._box.open(
                    stored.value_, stored.key_id, sealed_for(tenant, key, name)
                )
                values[name] = json.loads(plain)
            else:
                values[name] = MASK
        return values

    async def _existing(self, key: str) -> PropertySet | None:
        return await self._sets.get_by_key(key)

    async def resolve(
        self, application: str, profile: str, label: str, *, reveal: bool
    ) -> Resolved:
        """The merged configuration of ``application`` in ``profile`` at ``label``."""
        layers: list[PropertySource] = []
        for key in layer_keys(application, profile, label):
            found = await self._existing(key)
            if found is not None:
                values = self._values(key, found.properties, reveal)
                layers.append(PropertySource(key, found.revision, values))
        merged: dict[str, Any] = {}
        origins: dict[str, str] = {}
        for layer in layers:
            for name, value in layer.source.items():
                merged[name] = value
                origins[name] = layer.name
        version = _digest([(layer.name, layer.revision) for layer in layers])
        return Resolved(
            application,
            profile,
            label,
            version,
            list(reversed(layers)),
            dict(sorted(merged.items())),
            origins,
        )

    async def _check(self, application: str, values: Mapping[str, Any]) -> None:
        schema = await self._schemas.get_by_application(application)
        if schema is None:
            return
        problems = schema_problems(schema.document)
        if problems:
            raise DomainValidationError.of(
                *(
                    Violation("$schema", f"the schema is not valid: {p}")
                    for p in problems
                )
            )
        broken = violations(schema.document, values)
        if broken:
            raise DomainValidationError.of(*(Violation(f, m) for f, m in broken))

    def _sealed(
        self, key: str, values: Mapping[str, Any], secret: frozenset[str]
    ) -> dict[str, Property]:
        tenant = require_tenant()
        stored: dict[str, Property] = {}
        for name, value in values.items():
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
            if name in secret:
                sealed, kid = self._box.seal(text, sealed_for(tenant, key, name))
                stored[name] = Property(value_=sealed, secret=True, key_id=kid)
            else:
                stored[name] = Property(value_=text)
        return stored

    async def write(
        self,
        application: str,
        profile: str,
        label: str,
        values: Mapping[str, Any],
        secret: frozenset[str],
    ) -> PropertySet:
        """The set's properties replaced by ``values`` (``secret`` names those to seal):
        a new revision, or the set created at revision 1."""
        unknown = secret - set(values)
        if unknown:
            raise DomainValidationError.of(
                *(Violation(n, "a secret without a value") for n in sorted(unknown))
            )
        await self._check(application, values)
        key = set_key(application, profile, label)
        properties = self._sealed(key, values, secret)
        existing = await self._existing(key)
        if existing is None:
            written = await self._sets.create(
                key_=key,
                application=application,
                profile=profile,
                label=label,
                properties=properties,
            )
        else:
            written = await self._sets.change(
                existing.id, properties=properties, rolled_back_to=None
            )
        self.changes.notify(require_tenant())
        return written

    async def values_of(self, found: PropertySet, *, reveal: bool) -> dict[str, Any]:
        """The set's values as a caller sees them."""
        return self._values(found.key_, found.properties, reveal)

    async def required(self, application: str, profile: str, label: str) -> PropertySet:
        """The set, or NotFoundError."""
        found = await self._existing(set_key(application, profile, label))
        if found is None:
            raise NotFoundError("Property set not found")
        return found

    async def _revisions(
        self, found: PropertySet
    ) -> list[PropertiesCreated | PropertiesChanged]:
        return [
            event
            for event in await self._history(found.id)
            if isinstance(event, PropertiesCreated | PropertiesChanged)
        ]

    async def versions(
        self, application: str, profile: str, label: str
    ) -> list[Version]:
        """Every revision of the set, oldest first."""
        found = await self.required(application, profile, label)
        return [
            Version(
                event.revision,
                event.occurred_at,
                event.rolled_back_to if isinstance(event, PropertiesChanged) else None,
            )
            for event in await self._revisions(found)
        ]

    async def _at(self, found: PropertySet, revision: int) -> dict[str, Property]:
        for event in await self._revisions(found):
            if event.revision == revision:
                return dict(event.properties)
        raise NotFoundError(f"No revision {revision} of this property set")

    async def diff(
        self,
        application: str,
        profile: str,
        label: str,
        first: int,
        second: int,
        *,
        reveal: bool,
    ) -> Diff:
        """What changed from revision ``first`` to ``second`` (secrets masked unless
        ``reveal``; a secret sealed again with the same value is unchanged)."""
        found = await self.required(application, profile, label)
        before = self._values(found.key_, await self._at(found, first), True)
        after = self._values(found.key_, await self._at(found, second), True)
        secret = {
            name
            for revision in (first, second)
            for name, stored in (await self._at(found, revision)).items()
            if stored.secret
        }

        def shown(name: str, value: Any) -> Any:
            return MASK if name in secret and not reveal else value

        return Diff(
            added={n: shown(n, v) for n, v in after.items() if n not in before},
            removed={n: shown(n, v) for n, v in before.items() if n not in after},
            changed={
                n: (shown(n, before[n]), shown(n, v))
                for n, v in after.items()
                if n in before and before[n] != v
            },
        )

    async def rollback(
        self, application: str, profile: str, label: str, revision: int
    ) -> PropertySet:
        """A new revision holding what ``revision`` held (checked by today's schema)."""
        found = await self.required(application, profile, label)
        properties = await self._at(found, revision)
        await self._check(application, self._values(found.key_, properties, True))
        written = await self._sets.change(
            found.id, properties=properties, rolled_back_to=revision
        )
        self.changes.notify(require_tenant())
        return written
