"""A short string that matches a regular expression, for the generated tests' examples.

Walks the pattern as Python's own regex parser reads it and takes the first choice at
every step (the fewest repetitions, the first branch, the first character of a class);
the result is checked as the rendered services match it (RE2, ``generator.patterns``).
Patterns it cannot satisfy, or that Python's parser cannot read (RE2's ``\\pL`` or
``[[:alpha:]]``), give None: the field then needs an ``example``."""

from __future__ import annotations

import re
from re import _constants as c  # type: ignore[attr-defined]
from re import _parser as parser  # type: ignore[attr-defined]
from typing import Any

from generator.patterns import fullmatch

_CANDIDATES = "aA0x_ -.@Zz9"
_CATEGORY = {
    c.CATEGORY_DIGIT: "0",
    c.CATEGORY_NOT_DIGIT: "a",
    c.CATEGORY_WORD: "a",
    c.CATEGORY_NOT_WORD: "-",
    c.CATEGORY_SPACE: " ",
    c.CATEGORY_NOT_SPACE: "a",
}
MAX_SAMPLE = 10_000


class _Unsatisfiable(Exception):
    pass


def sample_matching(pattern: str, min_length: int = 0, max_length: int | None = None) -> str | None:
    """A string of ``min_length``..``max_length`` characters that ``pattern`` fully
    matches, or None when none is found."""
    try:
        parsed = parser.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    for extra in _extras(min_length):
        try:
            text = _Builder(extra).build(parsed)
        except (_Unsatisfiable, RecursionError):
            return None
        if len(text) > MAX_SAMPLE:
            return None
        fits = len(text) >= min_length and (max_length is None or len(text) <= max_length)
        if fits and fullmatch(pattern, text):
            return text
    return None


def _extras(min_length: int) -> list[int]:
    steps = [0, 1, min_length, min_length * 2]
    return sorted({step for step in steps if step <= MAX_SAMPLE})


class _Builder:
    def __init__(self, extra: int) -> None:
        self.extra = extra  # characters to add through the first open-ended repetition
        self.groups: dict[int, str] = {}

    def build(self, items: Any) -> str:
        return "".join(self.item(op, value) for op, value in items)

    def item(self, op: Any, value: Any) -> str:
        if op is c.LITERAL:
            return chr(value)
        if op is c.NOT_LITERAL:
            return next(ch for ch in _CANDIDATES if ord(ch) != value)
        if op is c.ANY:
            return "a"
        if op is c.IN:
            return self.choose(value)
        if op is c.CATEGORY:
            return _CATEGORY.get(value, "a")
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = value
            count = max(low, 0)
            text = self.build(sub) if count else ""
            unit = self.build(sub)
            if self.extra and (high is c.MAXREPEAT or high > low) and unit:
                more = -(-self.extra // len(unit))
                if high is not c.MAXREPEAT:
                    more = min(more, high - low)
                self.extra = 0
                count += more
            return unit * count if count else text
        if op is c.SUBPATTERN:
            group, _, _, sub = value
            text = self.build(sub)
            if group is not None:
                self.groups[group] = text
            return text
        if op is c.BRANCH:
            return self.build(value[1][0])
        if op is c.GROUPREF:
            return self.groups.get(value, "")
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            return ""
        if op is getattr(c, "ATOMIC_GROUP", None):
            return self.build(value)
        raise _Unsatisfiable(str(op))

    def choose(self, members: Any) -> str:
        negate = bool(members) and members[0][0] is c.NEGATE
        allowed: list[tuple[Any, Any]] = members[1:] if negate else members
        if not negate:
            op, value = allowed[0]
            if op is c.LITERAL:
                return chr(value)
            if op is c.RANGE:
                return chr(value[0])
            if op is c.CATEGORY:
                return _CATEGORY.get(value, "a")
            raise _Unsatisfiable(str(op))
        pattern = re.compile("[" + "".join(_class_source(op, v) for op, v in allowed) + "]")
        for candidate in _CANDIDATES:
            if not pattern.match(candidate):
                return candidate
        raise _Unsatisfiable("negated class")


def _class_source(op: Any, value: Any) -> str:
    if op is c.LITERAL:
        return re.escape(chr(value))
    if op is c.RANGE:
        return f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}"
    if op is c.CATEGORY:
        return {
            c.CATEGORY_DIGIT: r"\d",
            c.CATEGORY_NOT_DIGIT: r"\D",
            c.CATEGORY_WORD: r"\w",
            c.CATEGORY_NOT_WORD: r"\W",
            c.CATEGORY_SPACE: r"\s",
            c.CATEGORY_NOT_SPACE: r"\S",
        }.get(value, "")
    return ""
