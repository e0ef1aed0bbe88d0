"""What every service's domain shares: the aggregate root (state as the fold of its events),
the errors a domain raises, and the rules' helpers. Pure Python: no framework, no I/O."""

from __future__ import annotations

import enum
import functools
import json
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal, DivisionUndefined, InvalidOperation
from types import TracebackType
from typing import Any, ClassVar, Generic, Self, TypeAlias, TypeVar, overload

import re2

EventT = TypeVar("EventT")
T = TypeVar("T")

JsonValue: TypeAlias = Any
"""A JSON value kept as parsed (text, a number, true or false, a list or an object of JSON
values): the domain type of a spec's ``json`` fields. The HTTP models check what it holds
(``eaf.web.JsonData``); the domain stores and answers it as it is."""


@dataclass(frozen=True)
class Violation:
    """One broken rule: the field it is about (a path such as ``lines.0.sku``) and why."""

    field: str
    message: str


class DomainValidationError(ValueError):
    """Values break rules of the domain; ``violations`` lists every one (the first also as
    ``field`` and ``message``)."""

    def __init__(self, field: str, message: str, *more: Violation) -> None:
        super().__init__(message)
        self.violations = [Violation(field, message), *more]
        self.field = field
        self.message = message

    @classmethod
    def of(cls, *violations: Violation | None) -> DomainValidationError:
        """The error listing ``violations`` (None entries are skipped)."""
        found = [v for v in violations if v is not None]
        first, *more = found or [Violation("", "invalid")]
        return cls(first.field, first.message, *more)

    @classmethod
    def raise_for(cls, violations: list[Violation]) -> None:
        """Raise the error listing ``violations``, if there are any."""
        if violations:
            raise cls.of(*violations)


class NotFoundError(ValueError):
    """No aggregate has the requested id."""


class ConcurrencyError(RuntimeError):
    """Another writer changed the aggregate since it was loaded."""


class DomainError(Exception):
    """A command refused in the aggregate's current state: an RFC 9457 problem with its own
    ``type``, ``title`` and ``status``."""

    status: ClassVar[int] = 409
    type: ClassVar[str] = "about:blank"
    title: ClassVar[str] = "Conflict"

    def __init__(self, detail: str | None = None) -> None:
        self.detail = detail or self.title
        super().__init__(self.detail)


# What ECMAScript's \s matches: OpenAPI patterns are ECMAScript regular expressions, so a
# text is blank for the domain exactly when the OpenAPI document's pattern says so.
BLANK = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def is_blank(value: str) -> bool:
    """Whether ``value`` holds nothing but white space."""
    return not value.strip(BLANK)


MAX_PATTERN_MEMORY = 8 << 20
"""The most memory (bytes) one compiled pattern may take; a larger one is refused."""


def _pattern_options() -> re2.Options:
    """How spec patterns compile: RE2 syntax, whose matching takes time linear in the
    text (no backtracking, so no pattern can hold a request for ever), UTF-8 text, no
    error logging (a refused pattern is reported by whoever compiles it)."""
    options = re2.Options()
    options.log_errors = False
    options.max_mem = MAX_PATTERN_MEMORY
    return options


@functools.lru_cache(maxsize=1024)
def _compiled_pattern(pattern: str) -> re2._Regexp[str]:
    """``pattern`` compiled as RE2 (``re2.error`` if it is not RE2 syntax)."""
    return re2.compile(pattern, _pattern_options())


def matches(pattern: str, value: str) -> bool:
    """Whether ``value`` matches ``pattern`` (RE2 syntax) whole, in linear time."""
    return _compiled_pattern(pattern).fullmatch(value) is not None


def decimal_text(value: Decimal) -> str:
    """``value`` in plain positional notation (``0.000000000000000001``, ``100``), the one
    form the OpenAPI documents state for a decimal given as text; never ``1E-18``. Zero
    has no sign (``-0.00`` is written ``0.00``: a price of minus nothing is nothing)."""
    return format(value.copy_abs() if value.is_zero() else value, "f")


def decimal_places(value: Decimal) -> int:
    """The digits ``value`` needs after the point: ``12.500`` needs 1, as ``12.5`` (by
    value, as a request's JSON Schema ``multipleOf`` judges it), and ``0.000`` none."""
    _, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int) or exponent >= 0 or not any(digits):
        return 0
    trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return max(-exponent - trailing, 0)


VALUE_TOKEN = "{value}"
"""What a rule's message writes where the offending value goes."""
SHOWN_VALUE = 64
"""The most characters of a value a message shows (the rest is cut, with an ellipsis)."""


def with_value(message: str, value: object) -> str:
    """``message`` with each ``{value}`` replaced by ``value`` written as JSON (text in
    double quotes, a decimal, date or time as its JSON text), at most 64 characters.
    The token is replaced as text: nothing else in the message is read or formatted."""
    if VALUE_TOKEN not in message:
        return message
    try:
        text = json.dumps(value, ensure_ascii=False, default=_json_text)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > SHOWN_VALUE:
        text = text[: SHOWN_VALUE - 1] + "\u2026"
    return message.replace(VALUE_TOKEN, text)


@overload
def finite(value: float) -> float: ...


@overload
def finite(value: float | None) -> float | None: ...


def finite(value: float | None) -> float | None:
    """``value``, if it is a number (or None, an optional value that has none): a float
    that overflowed to infinity (or NaN) raises OverflowError, as an int or a decimal
    that overflows does."""
    if value is None or math.isfinite(value):
        return value
    raise OverflowError("the value overflowed the range of a float")


def uncomputable(title: str, error: ArithmeticError) -> str:
    """Why the value named ``title`` has no value: a division by zero, or a result out of
    range (a date past year 9999, a number overflowing)."""
    signals = error.args[0] if error.args and isinstance(error.args[0], list) else []
    if isinstance(error, ZeroDivisionError) or DivisionUndefined in signals:
        return f"{title} cannot be computed: it divides by zero"
    if isinstance(error, InvalidOperation):
        # a remainder by zero, or a result with more digits than a decimal holds (28:
        # round(x, 2) of a 27-digit x): the decimal module tells them apart by no more
        return (
            f"{title} cannot be computed: it divides by zero, or needs more than"
            " 28 digits"
        )
    return f"{title} is out of range"


@dataclass(frozen=True)
class Computing:
    """A block computing the value of ``field`` (``title`` in messages): an arithmetic
    error in it is refused as a violation of that field, before anything is stored."""

    field: str
    title: str

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if isinstance(error, ArithmeticError):
            raise DomainValidationError(
                self.field, uncomputable(self.title, error)
            ) from None


def computing(field: str, title: str) -> Computing:
    """``with computing("dueOn", "Due on"): ...`` refuses what cannot be computed."""
    return Computing(field, title)


@dataclass(frozen=True)
class EveryViolation:
    """A block running a command whose request already broke rules ``missing`` (unknown
    references): the rules the command finds broken are listed with them, and a refusal
    of the command's guard waits until they are fixed (422 before 409)."""

    missing: Sequence[Violation]

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if not self.missing:
            return  # nothing to add: the command's own error, as it is
        if isinstance(error, DomainValidationError):
            raise DomainValidationError.of(*self.missing, *error.violations) from None
        if isinstance(error, DomainError):
            raise DomainValidationError.of(*self.missing) from None


@contextmanager
def of_another(reference: str, title: str) -> Iterator[None]:
    """``with of_another("eventId", "event"): tx.save(event.take_seats(...))``: a block
    running the command of another aggregate (an ``also``), whose broken rules are
    reported at the reference naming it, as that aggregate's (the request holds none of
    its fields)."""
    try:
        yield
    except DomainValidationError as error:
        raise DomainValidationError.of(
            *(
                Violation(reference, f"The {title} it names: {v.message}")
                for v in error.violations
            )
        ) from None


def every_violation(missing: Sequence[Violation]) -> EveryViolation:
    """``with every_violation(missing): made = Order.place(...)``: one answer lists the
    unknown references and every rule the values break."""
    return EveryViolation(missing)


def violations_computing(
    field: str, title: str, compute: Callable[[], object]
) -> list[Violation]:
    """The violation of ``field`` when ``compute`` cannot be computed (else none)."""
    try:
        with computing(field, title):
            compute()
    except DomainValidationError as error:
        return error.violations
    return []


def defined(compute: Callable[[], T]) -> T | None:
    """What ``compute`` gives, or None when it has no value (a division by zero, a result
    out of range)."""
    try:
        return compute()
    except ArithmeticError:
        return None


def breaks(refused: Callable[[], bool]) -> bool:
    """Whether a check fails: ``refused`` holds, or cannot be computed (a check that
    divides by zero or overflows is not passed)."""
    try:
        return refused()
    except ArithmeticError:
        return True


class Unchanged(enum.Enum):
    """What a merge patch gives a use case for an optional secret it leaves out: the
    aggregate keeps the one it holds (``None`` clears it), which the caller cannot read
    back to send again."""

    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED


_PATH_MARKS = frozenset('.[]"')


def member_path(path: str, key: str | int) -> str:
    """The path of the item ``key`` (a list's index, a map's key) of the value at ``path``:
    ``tags.1``, ``labels.red``. A key that could be read as more than one step (empty, or
    with a dot, a bracket or a double quote) is written as a JSON string in brackets:
    ``labels["a.b"]``, never ``labels.a.b``."""
    if isinstance(key, int) or (key and _PATH_MARKS.isdisjoint(key)):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _json_text(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, Decimal):
        return decimal_text(value)
    return str(value)


@dataclass(frozen=True, kw_only=True)
class AggregateRoot(Generic[EventT]):
    """What every aggregate has: identity, timestamps, the version it was loaded at, and
    the events (of type ``EventT``) its commands recorded since (saved, they make the next
    version)."""

    id: str
    created_at: datetime
    updated_at: datetime
    archived: bool = False
    version: int = 0
    changes: tuple[EventT, ...] = field(default=(), compare=False, repr=False)
    born: int = field(default=1, compare=False, repr=False)
    """The version its latest creating event made: 1, or more when it was made anew once
    it was gone (a create-or-replace ``PUT``); so ``version == born`` tells that the last
    event stored created it. 0 for a state that a creating event just started anew during
    :meth:`from_history`, which numbers it."""

    UNIQUE: ClassVar[tuple[str, ...]] = ()
    """Fields no two aggregates of a tenant share; ``venue_id+name`` names a combination."""

    @classmethod
    def started_by(cls, event: Any) -> Self:
        """The state a creating event makes."""
        raise NotImplementedError

    def apply(self, event: Any) -> Self:
        """This state with ``event`` folded in."""
        raise NotImplementedError

    def problems(self, now: datetime) -> list[Violation]:
        """The rules and invariants the state breaks."""
        return []

    @classmethod
    def from_history(cls, events: Sequence[EventT]) -> Self:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        if not events:
            raise ValueError(f"a {cls.__name__} needs at least its creating event")
        state = cls.started_by(events[0])
        for number, event in enumerate(events[1:], start=2):
            state = state.apply(event)
            if state.born == 0:  # a creating event made it anew: the event's number
                state = replace(state, born=number)
        return replace(state, version=len(events))

    def anew(self, stored: int) -> Self:
        """This state, just made by its creating event (pending), as the next of a stream
        that holds ``stored`` events already (a gone aggregate made anew; 0: none)."""
        return replace(self, version=stored, born=stored + 1) if stored else self

    @property
    def just_created(self) -> bool:
        """Whether the latest event stored is the one that created it (anew or not)."""
        return self.version == self.born

    def record(self, event: EventT) -> Self:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> Self:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())

    def checked(self, now: datetime) -> Self:
        """This state, if it breaks no rule (else DomainValidationError listing them)."""
        DomainValidationError.raise_for(self.problems(now))
        return self
