"""Constraints compiled into predicates over a context, with Unleash's operator semantics.

A constraint Unleash cannot compile (an unknown operator, a value of the wrong syntax) raises
`InvalidRule`: the engine then holds its whole feature off, as Unleash's own engine does.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from flag_engine.context import Context, parse_timestamp
from flag_engine.model import Constraint
from flag_engine.patterns import compile_pattern
from flag_engine.versions import precedence

Predicate = Callable[[Context], bool]
Resolver = Callable[[Context], str | None]
Clock = Callable[[], datetime]

_EPSILON = 2.220446049250313e-16
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?")
_FLOAT = re.compile(
    r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)", re.IGNORECASE
)
_DATE = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?(?:Z|[+-]\d{2}:\d{2})"
)
_SEMVER = re.compile(
    r"\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)
_ORDINAL = {
    "NUM_EQ": "==",
    "NUM_GT": ">",
    "NUM_GTE": ">=",
    "NUM_LT": "<",
    "NUM_LTE": "<=",
    "DATE_AFTER": ">",
    "DATE_BEFORE": "<",
    "SEMVER_EQ": "==",
    "SEMVER_GT": ">",
    "SEMVER_LT": "<",
    "SEMVER_GTE": ">=",
    "SEMVER_LTE": "<=",
}
_STRING_TESTS: dict[str, Callable[[str, str], bool]] = {
    "STR_CONTAINS": lambda value, item: item in value,
    "STR_STARTS_WITH": str.startswith,
    "STR_ENDS_WITH": str.endswith,
}


class InvalidRule(ValueError):
    """A strategy or constraint Unleash's engine would refuse to compile."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


def field_resolver(name: str, clock: Clock = _utc_now) -> Resolver:
    """Reads the context field a constraint or stickiness names (unknown names: properties)."""
    if name == "userId":
        return lambda context: context.user_id
    if name == "sessionId":
        return lambda context: context.session_id
    if name == "remoteAddress":
        return lambda context: context.remote_address
    if name == "environment":
        return lambda context: context.environment
    if name == "appName":
        return lambda context: context.app_name
    if name == "currentTime":
        return lambda context: (context.current_time or clock()).isoformat()
    return lambda context: context.properties.get(name)


def _compare(op: str) -> Callable[[object, object], bool]:
    return {
        "==": lambda a, b: a == b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
    }[op]


def _ordinal(constraint: Constraint, clock: Clock) -> Predicate:
    """NUM_*, DATE_* and SEMVER_*: like Unleash, the value's syntax decides the comparison."""
    text = constraint.value
    if text is None:
        raise InvalidRule(f"{constraint.operator} needs a value")
    if constraint.operator.startswith("SEMVER") and text.startswith("v"):
        return lambda context: False
    compare = _compare(_ORDINAL[constraint.operator])
    name = constraint.context_name
    if _DATE.fullmatch(text):
        target = parse_timestamp(text)
        if target is None:
            raise InvalidRule(f"not a date: {text!r}")
        date_target = target

        if name == "currentTime":
            return lambda context: compare(context.current_time or clock(), date_target)
        date_field = field_resolver(name)

        def date_test(context: Context) -> bool:
            value = date_field(context)
            moment = None if value is None else parse_timestamp(value)
            return moment is not None and compare(moment, date_target)

        return date_test
    resolve = field_resolver(name, clock)
    if _SEMVER.fullmatch(text):
        version = precedence(text)
        if version is None:
            raise InvalidRule(f"not a semantic version: {text!r}")

        def semver_test(context: Context) -> bool:
            value = resolve(context)
            found = None if value is None else precedence(value)
            return found is not None and compare(found, version)

        return semver_test
    if _NUMBER.fullmatch(text):
        number = float(text)
        exact = _ORDINAL[constraint.operator] == "=="

        def number_test(context: Context) -> bool:
            value = resolve(context)
            if value is None or not _FLOAT.fullmatch(value):
                return False
            if exact:
                return abs(float(value) - number) < _EPSILON
            return compare(float(value), number)

        return number_test
    raise InvalidRule(f"{constraint.operator} cannot compare with {text!r}")


def _networks(
    values: Iterable[str],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def in_networks(resolve: Resolver, values: Iterable[str]) -> Predicate:
    """The address the context field holds lies in one of the networks (bad entries skipped)."""
    networks = _networks(values)

    def test(context: Context) -> bool:
        value = resolve(context)
        if value is None:
            return False
        try:
            address = ipaddress.ip_address(value)
        except ValueError:
            return False
        return any(address in network for network in networks)

    return test


def _positive(constraint: Constraint, clock: Clock) -> Predicate:
    operator = constraint.operator
    resolve = field_resolver(constraint.context_name, clock)
    values = constraint.values
    if operator in ("IN", "NOT_IN"):
        members = frozenset(values)
        if operator == "IN":
            return lambda context: (
                (value := resolve(context)) is not None and value in members
            )
        return lambda context: (
            (value := resolve(context)) is None or value not in members
        )
    if operator in _STRING_TESTS:
        if not values:
            raise InvalidRule(f"{operator} needs values")
        test = _STRING_TESTS[operator]
        fold = constraint.case_insensitive
        items = tuple(item.lower() for item in values) if fold else values

        def string_test(context: Context) -> bool:
            value = resolve(context)
            if value is None:
                return False
            if fold:
                value = value.lower()
            return any(test(value, item) for item in items)

        return string_test
    if operator == "REGEX":
        pattern = compile_pattern(constraint.value or "", constraint.case_insensitive)
        if pattern is None:
            return lambda context: False
        search = pattern.search
        return lambda context: (
            (value := resolve(context)) is not None and search(value) is not None
        )
    if operator == "IN_CIDR":
        if not values:
            raise InvalidRule("IN_CIDR needs values")
        return in_networks(resolve, values)
    if operator in _ORDINAL:
        return _ordinal(constraint, clock)
    raise InvalidRule(f"unknown operator {operator!r}")


def compile_constraint(constraint: Constraint, clock: Clock = _utc_now) -> Predicate:
    """The predicate of one constraint, `inverted` applied."""
    positive = _positive(constraint, clock)
    if constraint.inverted and not (
        constraint.operator.startswith("SEMVER")
        and (constraint.value or "").startswith("v")
    ):
        return lambda context: not positive(context)
    return positive


def compile_all(
    constraints: Iterable[Constraint], clock: Clock = _utc_now
) -> Predicate | None:
    """All the constraints hold; None when there are none."""
    predicates = tuple(
        compile_constraint(constraint, clock) for constraint in constraints
    )
    if not predicates:
        return None
    if len(predicates) == 1:
        return predicates[0]
    return lambda context: all(predicate(context) for predicate in predicates)
