"""The Unleash client API document as immutable values, and the answer to a variant question."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

EMPTY: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Constraint:
    """A condition on one context field; `operator` is kept as sent so unknown ones can be refused."""

    context_name: str
    operator: str
    values: tuple[str, ...] = ()
    value: str | None = None
    inverted: bool = False
    case_insensitive: bool = False


@dataclass(frozen=True, slots=True)
class Payload:
    type: str
    value: str


@dataclass(frozen=True, slots=True)
class Override:
    """Gives its variant to every context whose `context_name` field is one of `values`."""

    context_name: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VariantDefinition:
    """A weighted variant of a feature or of a strategy."""

    name: str
    weight: int
    stickiness: str | None = None
    payload: Payload | None = None
    overrides: tuple[Override, ...] = ()


@dataclass(frozen=True, slots=True)
class Strategy:
    name: str
    parameters: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    constraints: tuple[Constraint, ...] = ()
    segments: tuple[int, ...] = ()
    variants: tuple[VariantDefinition, ...] = ()


@dataclass(frozen=True, slots=True)
class Dependency:
    """The child is on only when `feature` is on (or off, if `enabled` is false), in one of `variants`."""

    feature: str
    enabled: bool = True
    variants: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Feature:
    name: str
    enabled: bool
    strategies: tuple[Strategy, ...] = ()
    variants: tuple[VariantDefinition, ...] = ()
    dependencies: tuple[Dependency, ...] = ()
    impression_data: bool = False
    project: str = "default"
    type: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Segment:
    id: int
    constraints: tuple[Constraint, ...] = ()
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """The body of `GET /api/client/features`, features by name."""

    features: Mapping[str, Feature] = field(default_factory=dict)
    segments: Mapping[int, Segment] = field(default_factory=dict)
    version: int = 2


@dataclass(frozen=True, slots=True)
class Variant:
    """The answer to `Engine.variant`: `feature_enabled` tells whether the flag itself is on."""

    name: str
    enabled: bool
    payload: Payload | None = None
    feature_enabled: bool = False


DISABLED = Variant("disabled", enabled=False)
