"""The domain base every service's aggregates and errors build on."""

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any, Self

import pytest

from eaf.domain import (
    AggregateRoot,
    DomainError,
    DomainValidationError,
    Violation,
    breaks,
    computing,
    decimal_places,
    defined,
    finite,
    is_blank,
    violations_computing,
    with_value,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Opened:
    counter_id: str


@dataclass(frozen=True)
class Added:
    amount: int


@dataclass(frozen=True, kw_only=True)
class Counter(AggregateRoot[Opened | Added]):
    total: int = 0

    @classmethod
    def started_by(cls, event: Any) -> Self:
        return cls(id=event.counter_id, created_at=NOW, updated_at=NOW)

    def apply(self, event: Any) -> Self:
        if isinstance(event, Opened):  # opened anew (as a create-or-replace PUT does)
            return replace(self.started_by(event), born=0)
        return replace(self, total=self.total + event.amount)

    def problems(self, now: datetime) -> list[Violation]:
        return [Violation("total", "Total is at most 10")] if self.total > 10 else []


def test_an_aggregate_is_the_fold_of_its_history() -> None:
    counter = Counter.from_history([Opened("c-1"), Added(2), Added(3)])
    assert (counter.id, counter.total, counter.version) == ("c-1", 5, 3)
    with pytest.raises(ValueError, match="needs at least its creating event"):
        Counter.from_history([])


def test_the_version_a_creating_event_made_tells_whether_it_was_the_last() -> None:
    opened = Counter.from_history([Opened("c-1")])
    assert (opened.born, opened.just_created) == (1, True)
    added = Counter.from_history([Opened("c-1"), Added(2)])
    assert (added.born, added.just_created) == (1, False)
    # made anew after three events: the fourth made it, and its state starts over
    anew = Counter.from_history([Opened("c-1"), Added(2), Added(3), Opened("c-1")])
    assert (anew.total, anew.born, anew.version, anew.just_created) == (0, 4, 4, True)
    later = Counter.from_history([Opened("c-1"), Added(2), Opened("c-1"), Added(1)])
    assert (later.total, later.born, later.version, later.just_created) == (
        1,
        3,
        4,
        False,
    )


def test_a_state_made_anew_continues_the_stream_it_is_stored_on() -> None:
    fresh = Counter.started_by(Opened("c-1")).record(Opened("c-1"))
    assert fresh.anew(0) is fresh
    assert fresh.committed().just_created
    revived = fresh.anew(3)
    assert (revived.version, revived.born, revived.changes) == (3, 4, (Opened("c-1"),))
    stored = revived.committed()
    assert (stored.version, stored.just_created) == (4, True)


def test_recorded_events_are_pending_until_committed() -> None:
    counter = Counter.from_history([Opened("c-1")]).record(Added(1)).record(Added(2))
    assert counter.changes == (Added(1), Added(2))
    committed = counter.committed()
    assert (committed.changes, committed.version) == ((), 3)


def test_checked_raises_every_broken_rule() -> None:
    counter = Counter.from_history([Opened("c-1"), Added(11)])
    with pytest.raises(DomainValidationError) as raised:
        counter.checked(NOW)
    assert raised.value.violations == [Violation("total", "Total is at most 10")]
    assert Counter.from_history([Opened("c-1")]).checked(NOW).total == 0


def test_errors_and_rule_helpers() -> None:
    error = DomainValidationError.of(
        None, Violation("a", "bad a"), Violation("b", "bad b")
    )
    assert (error.field, error.message, len(error.violations)) == ("a", "bad a", 2)
    assert DomainError().detail == "Conflict"
    assert is_blank(" \u3000\t") and not is_blank(" x ")
    assert decimal_places(Decimal("1.255")) == 3 and decimal_places(Decimal("12")) == 0
    # by value, as the request's multipleOf judges it: trailing zeros need no place
    assert (
        decimal_places(Decimal("1.250")) == 2 and decimal_places(Decimal("0.000")) == 0
    )
    assert (
        decimal_places(Decimal("1E+2")) == 0 and decimal_places(Decimal("1.5E-3")) == 4
    )


def test_a_message_shows_the_value_by_its_token_only() -> None:
    assert with_value("Tag {value} is bad", "a b") == 'Tag "a b" is bad'
    assert with_value("{value} {0} {value.__class__}", 7) == "7 {0} {value.__class__}"
    assert with_value("{value}", Decimal("1.50")) == '"1.50"'
    assert (
        with_value("{value}", datetime(2030, 1, 2, tzinfo=UTC))
        == '"2030-01-02T00:00:00Z"'
    )
    assert with_value("{value}", "x" * 100) == '"' + "x" * 62 + "\u2026"
    assert with_value("no token {}", object()) == "no token {}"


def test_a_value_that_cannot_be_computed_is_refused_naming_its_field() -> None:
    with pytest.raises(DomainValidationError) as error, computing("dueOn", "Due on"):
        date(9999, 12, 31) + timedelta(days=1)
    assert error.value.violations == [Violation("dueOn", "Due on is out of range")]
    with pytest.raises(DomainValidationError) as error, computing("share", "Share"):
        Decimal(1) / Decimal(0)
    assert error.value.message == "Share cannot be computed: it divides by zero"
    with pytest.raises(DomainValidationError), computing("rate", "Rate"):
        finite(1e308 * 10)
    assert violations_computing("x", "X", lambda: 1 // 0) == [
        Violation("x", "X cannot be computed: it divides by zero")
    ]
    assert violations_computing("x", "X", lambda: 1) == []
    # 0 / 0 is a division by zero too; a result past a decimal's 28 digits is said apart
    assert violations_computing("x", "X", lambda: Decimal(0) / Decimal(0)) == [
        Violation("x", "X cannot be computed: it divides by zero")
    ]
    assert violations_computing(
        "x", "X", lambda: round(Decimal("1234567890123456789012345678"), 2)
    ) == [
        Violation(
            "x",
            "X cannot be computed: it divides by zero, or needs more than 28 digits",
        )
    ]


def test_an_optional_float_without_a_value_is_finite_as_none() -> None:
    assert finite(None) is None
    assert finite(2.5) == 2.5


def test_what_cannot_be_computed_is_null_or_a_failed_check() -> None:
    assert defined(lambda: Decimal(0) % Decimal(0)) is None
    assert defined(lambda: 7 // 2) == 3
    assert breaks(lambda: 1 / 0 > 1) and not breaks(lambda: 1 / 2 > 1)
