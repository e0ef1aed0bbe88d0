# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Enums and value objects of the feature flags domain."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from uuid import UUID

from feature_flags.domain.errors import (
    Violation,
    is_blank,
    matches,
)


class FlagType(StrEnum):
    """The values of FlagType."""

    RELEASE = "release"
    EXPERIMENT = "experiment"
    OPERATIONAL = "operational"
    KILL_SWITCH = "kill-switch"
    PERMISSION = "permission"


class Operator(StrEnum):
    """The values of Operator."""

    IN = "IN"
    NOT_IN = "NOT_IN"
    STR_CONTAINS = "STR_CONTAINS"
    STR_STARTS_WITH = "STR_STARTS_WITH"
    STR_ENDS_WITH = "STR_ENDS_WITH"
    NUM_EQ = "NUM_EQ"
    NUM_GT = "NUM_GT"
    NUM_GTE = "NUM_GTE"
    NUM_LT = "NUM_LT"
    NUM_LTE = "NUM_LTE"
    DATE_AFTER = "DATE_AFTER"
    DATE_BEFORE = "DATE_BEFORE"
    SEMVER_EQ = "SEMVER_EQ"
    SEMVER_GT = "SEMVER_GT"
    SEMVER_LT = "SEMVER_LT"


class PayloadType(StrEnum):
    """The values of PayloadType."""

    STRING = "string"
    JSON = "json"
    CSV = "csv"
    NUMBER = "number"


@dataclass(frozen=True, kw_only=True)
class Constraint:
    """A constraint."""

    context_name: str
    operator: Operator
    values_: list[str] = field(default_factory=list)
    value_: str | None = None
    inverted: bool = False
    case_insensitive: bool = False

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_context_name(self.context_name, prefix + "contextName"))
        found.extend(self.check_values_(self.values_, prefix + "values"))
        found.extend(self.check_value_(self.value_, prefix + "value"))
        return found

    @staticmethod
    def check_context_name(value: str, path: str = "contextName") -> list[Violation]:
        """The rules of ``contextName`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z][A-Za-z0-9_.-]{0,99})$", value):
            found.append(
                Violation(
                    path, "Context name must match ^[A-Za-z][A-Za-z0-9_.-]{0,99}$"
                )
            )
        return found

    @staticmethod
    def check_values_(value: list[str], path: str = "values") -> list[Violation]:
        """The rules of ``values`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 1000:
            found.append(Violation(path, "Values allows at most 1000 items"))
        return found

    @staticmethod
    def check_value_(value: str | None, path: str = "value") -> list[Violation]:
        """The rules of ``value`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        if len(value) > 1000:
            found.append(Violation(path, "Value allows at most 1000 characters"))
        return found


@dataclass(frozen=True, kw_only=True)
class Payload:
    """A payload."""

    type_: PayloadType
    value_: str

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_value_(self.value_, prefix + "value"))
        return found

    @staticmethod
    def check_value_(value: str, path: str = "value") -> list[Violation]:
        """The rules of ``value`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 10000:
            found.append(Violation(path, "Value allows at most 10000 characters"))
        return found


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A variant."""

    name: str
    weight: int
    stickiness: str = "default"
    payload_: Payload | None = None

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_name(self.name, prefix + "name"))
        found.extend(self.check_weight(self.weight, prefix + "weight"))
        found.extend(self.check_stickiness(self.stickiness, prefix + "stickiness"))
        found.extend(self.check_payload_(self.payload_, prefix + "payload"))
        return found

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Name must not be blank"))
        if len(value) > 100:
            found.append(Violation(path, "Name allows at most 100 characters"))
        return found

    @staticmethod
    def check_weight(value: int, path: str = "weight") -> list[Violation]:
        """The rules of ``weight`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 0:
            found.append(Violation(path, "Weight must be at least 0"))
        if value > 1000:
            found.append(Violation(path, "Weight must be at most 1000"))
        return found

    @staticmethod
    def check_stickiness(value: str, path: str = "stickiness") -> list[Violation]:
        """The rules of ``stickiness`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Stickiness allows at most 100 characters"))
        return found

    @staticmethod
    def check_payload_(value: Payload | None, path: str = "payload") -> list[Violation]:
        """The rules of ``payload`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        found.extend(value.problems(path + "."))
        return found


@dataclass(frozen=True, kw_only=True)
class Strategy:
    """A strategy."""

    name: str
    parameters: dict[str, str] = field(default_factory=dict)
    constraints: list[Constraint] = field(default_factory=list)
    segments: list[UUID] = field(default_factory=list)
    variants: list[Variant] = field(default_factory=list)

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_name(self.name, prefix + "name"))
        found.extend(self.check_parameters(self.parameters, prefix + "parameters"))
        found.extend(self.check_constraints(self.constraints, prefix + "constraints"))
        found.extend(self.check_segments(self.segments, prefix + "segments"))
        found.extend(self.check_variants(self.variants, prefix + "variants"))
        return found

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z][A-Za-z0-9_-]{0,99})$", value):
            found.append(
                Violation(path, "Name must match ^[A-Za-z][A-Za-z0-9_-]{0,99}$")
            )
        return found

    @staticmethod
    def check_parameters(
        value: dict[str, str], path: str = "parameters"
    ) -> list[Violation]:
        """The rules of ``parameters`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 50:
            found.append(Violation(path, "Parameters allows at most 50 items"))
        return found

    @staticmethod
    def check_constraints(
        value: list[Constraint], path: str = "constraints", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``constraints`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Constraints allows at most 100 items"))
        for index, item in enumerate(value if nested else []):
            found.extend(item.problems(f"{path}.{index}."))
        return found

    @staticmethod
    def check_segments(value: list[UUID], path: str = "segments") -> list[Violation]:
        """The rules of ``segments`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 50:
            found.append(Violation(path, "Segments allows at most 50 items"))
        return found

    @staticmethod
    def check_variants(
        value: list[Variant], path: str = "variants", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``variants`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Variants allows at most 100 items"))
        for index, item in enumerate(value if nested else []):
            found.extend(item.problems(f"{path}.{index}."))
        return found


@dataclass(frozen=True, kw_only=True)
class Dependency:
    """A dependency."""

    feature: str
    enabled: bool = True
    variants: list[str] = field(default_factory=list)

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_feature(self.feature, prefix + "feature"))
        found.extend(self.check_variants(self.variants, prefix + "variants"))
        return found

    @staticmethod
    def check_feature(value: str, path: str = "feature") -> list[Violation]:
        """The rules of ``feature`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99})$", value):
            found.append(
                Violation(path, "Feature must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
            )
        return found

    @staticmethod
    def check_variants(value: list[str], path: str = "variants") -> list[Violation]:
        """The rules of ``variants`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Variants allows at most 100 items"))
        return found


@dataclass(frozen=True, kw_only=True)
class ToggleUsage:
    """A toggle usage."""

    yes: int = 0
    no: int = 0
    variants: dict[str, int] = field(default_factory=dict)

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_yes(self.yes, prefix + "yes"))
        found.extend(self.check_no(self.no, prefix + "no"))
        found.extend(self.check_variants(self.variants, prefix + "variants"))
        return found

    @staticmethod
    def check_yes(value: int, path: str = "yes") -> list[Violation]:
        """The rules of ``yes`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 0:
            found.append(Violation(path, "Yes must be at least 0"))
        return found

    @staticmethod
    def check_no(value: int, path: str = "no") -> list[Violation]:
        """The rules of ``no`` that ``value`` breaks."""
        found: list[Violation] = []
        if value < 0:
            found.append(Violation(path, "No must be at least 0"))
        return found

    @staticmethod
    def check_variants(
        value: dict[str, int], path: str = "variants"
    ) -> list[Violation]:
        """The rules of ``variants`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Variants allows at most 100 items"))
        return found


@dataclass(frozen=True, kw_only=True)
class EnvironmentConfig:
    """An environment config."""

    enabled: bool = False
    strategies: list[Strategy] = field(default_factory=list)

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_strategies(self.strategies, prefix + "strategies"))
        return found

    @staticmethod
    def check_strategies(
        value: list[Strategy], path: str = "strategies", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``strategies`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "Strategies allows at most 100 items"))
        for index, item in enumerate(value if nested else []):
            found.extend(item.problems(f"{path}.{index}."))
        return found
