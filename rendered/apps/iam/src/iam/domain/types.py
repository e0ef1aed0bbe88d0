# Generated from spec iam by `generate`; edits are merged on re-render.

"""Enums and value objects of the iam domain."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from eaf.domain import JsonValue

from iam.domain.errors import (
    Violation,
    matches,
    with_value,
)


class TenantStatus(StrEnum):
    """The values of TenantStatus."""

    ACTIVE = "ACTIVE"
    SUSPENDED = "SUSPENDED"


class PolicyEffect(StrEnum):
    """The values of PolicyEffect."""

    ALLOW = "allow"
    DENY = "deny"


class ConditionOperator(StrEnum):
    """The values of ConditionOperator."""

    EQ = "eq"
    NE = "ne"
    GT = "gt"
    LT = "lt"
    GTE = "gte"
    LTE = "lte"
    IN = "in"
    NOT_IN = "not_in"
    CIDR = "cidr"


class ClientType(StrEnum):
    """The values of ClientType."""

    CONFIDENTIAL = "confidential"
    PUBLIC = "public"


class GrantType(StrEnum):
    """The values of GrantType."""

    AUTHORIZATION_CODE = "authorization_code"
    REFRESH_TOKEN = "refresh_token"


@dataclass(frozen=True, kw_only=True)
class RotatedKeys:
    """A rotated keys."""

    kid: str
    published: list[str]

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        return found


@dataclass(frozen=True, kw_only=True)
class CheckAnswer:
    """A check answer."""

    allowed: bool
    reason: str

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        return found


@dataclass(frozen=True, kw_only=True)
class PolicyCondition:
    """A policy condition."""

    attribute: str
    op: ConditionOperator
    value_: JsonValue | None = None
    value_of: str | None = None

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_attribute(self.attribute, prefix + "attribute"))
        found.extend(self.check_value_of(self.value_of, prefix + "valueOf"))
        if found:
            return found
        if not ((self.value_ is None) or (self.value_of is None)):
            found.append(
                Violation(
                    prefix + "valueOf", "a condition takes value or valueOf, not both"
                )
            )
        if not (
            (self.op not in [ConditionOperator.IN, ConditionOperator.NOT_IN])
            or (self.value_ is not None)
            or (self.value_of is not None)
        ):
            found.append(
                Violation(
                    prefix + "value",
                    "in and not_in take a list value or valueOf, one of them",
                )
            )
        if not ((self.op != ConditionOperator.CIDR) or (self.value_of is None)):
            found.append(
                Violation(
                    prefix + "valueOf",
                    "a cidr condition needs literal networks, not valueOf",
                )
            )
        if not ((self.op != ConditionOperator.CIDR) or (self.value_ is not None)):
            found.append(
                Violation(
                    prefix + "value",
                    "a cidr condition needs a network or a list of them",
                )
            )
        return found

    @staticmethod
    def check_attribute(value: str, path: str = "attribute") -> list[Violation]:
        """The rules of ``attribute`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:(?:user|resource|env)(?:\\.[^.]+)+)$", value):
            found.append(
                Violation(
                    path,
                    with_value(
                        "Attribute {value} is not user.<name>, resource.<name> or env.<name>",
                        value,
                    ),
                )
            )
        return found

    @staticmethod
    def check_value_of(value: str | None, path: str = "valueOf") -> list[Violation]:
        """The rules of ``valueOf`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        if not matches("^(?:(?:user|resource|env)(?:\\.[^.]+)+)$", value):
            found.append(
                Violation(
                    path,
                    with_value(
                        "Attribute {value} is not user.<name>, resource.<name> or env.<name>",
                        value,
                    ),
                )
            )
        return found
