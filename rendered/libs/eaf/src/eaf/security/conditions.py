"""Declarative attribute conditions for ABAC policies, evaluated without ``eval``.

A condition compares an attribute (``user.department``, ``resource.owner``, ``env.ip``)
with a literal ``value`` or with another attribute (``value_of``). A condition on a
missing attribute is false (the policy does not apply). Values that cannot be compared
(text against a number, an address that is not one) make a condition unknown (``None``):
an allow policy then does not apply, and a deny policy does (fail closed).
"""

from __future__ import annotations

import ipaddress
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

ATTRIBUTE_SCOPES = ("user", "resource", "env")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_MISSING = object()

Attributes = Mapping[str, Mapping[str, Any]]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _contained(left: Any, right: Any) -> bool:
    # membership in a collection only: ``in`` on a string would be a substring test
    if not isinstance(right, list | tuple | set | frozenset):
        raise TypeError("membership needs a collection")
    return left in right


_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "in": _contained,
    "not_in": lambda left, right: not _contained(left, right),
    "gt": operator.gt,
    "lt": operator.lt,
    "gte": operator.ge,
    "lte": operator.le,
}
OPERATORS = frozenset({*_COMPARISONS, "cidr"})


def environment(now: datetime, **attributes: Any) -> dict[str, Any]:
    """The ``env`` attributes at ``now``: ``now`` (ISO), ``date``, ``time`` (HH:MM:SS),
    ``hour``, ``weekday`` (``mon`` … ``sun``), plus ``attributes`` such as ``ip``."""
    return {
        "now": now.isoformat(),
        "date": now.date().isoformat(),
        "time": now.strftime("%H:%M:%S"),
        "hour": now.hour,
        "weekday": _WEEKDAYS[now.weekday()],
        **attributes,
    }


def _check_path(path: str) -> str:
    scope, _, name = path.partition(".")
    if scope not in ATTRIBUTE_SCOPES or not name or "" in name.split("."):
        raise ValueError(
            f"invalid attribute {path!r}: expected user.<name>, resource.<name> or env.<name>"
        )
    return path


def resolve(attributes: Attributes, path: str) -> Any:
    """The value at the dotted ``path``, or ``_MISSING``."""
    value: Any = attributes
    for name in path.split("."):
        if not isinstance(value, Mapping) or name not in value:
            return _MISSING
        value = value[name]
    return value


@dataclass(frozen=True)
class Condition:
    """``<attribute> <op> <value | value_of>``, e.g. ``resource.owner eq value_of user.id``."""

    attribute: str
    op: str
    value: Any = None
    value_of: str | None = None
    _networks: tuple[Network, ...] = field(
        default=(), init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        _check_path(self.attribute)
        if self.op not in OPERATORS:
            raise ValueError(
                f"invalid operator {self.op!r} in condition on {self.attribute!r}:"
                f" expected one of {sorted(OPERATORS)}"
            )
        if self.value_of is not None:
            _check_path(self.value_of)
            if self.value is not None:
                raise ValueError(
                    f"condition on {self.attribute!r} has both value and value_of"
                )
            if self.op == "cidr":
                raise ValueError(
                    "a cidr condition needs literal networks, not value_of"
                )
        if (
            self.op in ("in", "not_in")
            and self.value_of is None
            and not isinstance(self.value, list | tuple | set | frozenset)
        ):
            raise ValueError(f"operator {self.op!r} on {self.attribute!r} needs a list")
        if self.op == "cidr":
            object.__setattr__(self, "_networks", _networks(self.value))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Condition:
        unknown = set(data) - {"attribute", "op", "value", "value_of"}
        if unknown:
            raise ValueError(
                f"unknown condition fields {sorted(unknown)} in {dict(data)!r}"
            )
        return cls(
            attribute=data["attribute"],
            op=data["op"],
            value=data.get("value"),
            value_of=data.get("value_of"),
        )

    def evaluate(self, attributes: Attributes) -> bool | None:
        """True, False (also for a missing attribute), or None for incomparable values."""
        left = resolve(attributes, self.attribute)
        if left is _MISSING:
            return False
        if self.op == "cidr":
            try:
                address = ipaddress.ip_address(left)
            except ValueError:
                return None
            return any(address in network for network in self._networks)
        right = (
            self.value if self.value_of is None else resolve(attributes, self.value_of)
        )
        if right is _MISSING:
            return False
        try:
            return _COMPARISONS[self.op](left, right)
        except TypeError:
            return None


def _networks(value: Any) -> tuple[Network, ...]:
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list | tuple) or not values:
        raise ValueError(
            f"a cidr condition needs a network or a list of them, not {value!r}"
        )
    try:
        return tuple(ipaddress.ip_network(network, strict=False) for network in values)
    except (ValueError, TypeError) as error:
        raise ValueError(f"invalid network in cidr condition: {error}") from error
