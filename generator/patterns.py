"""Spec patterns as the rendered services match them: RE2 syntax, whose matching takes time
linear in the text. A backtracking engine (Python's ``re``) can take for ever on a pattern
such as ``(a+)+$``; RE2 has no lookarounds or back-references, so it refuses them, and
a pattern whose compiled program is too large."""

from __future__ import annotations

import functools

import re2

MAX_PATTERN_MEMORY = 8 << 20
"""The most memory (bytes) one compiled pattern may take: ``eaf.domain``'s, which the
rendered services compile with (the generator does not import the runtime; a test holds
the two equal)."""


def _options() -> re2.Options:
    options = re2.Options()
    options.log_errors = False
    options.max_mem = MAX_PATTERN_MEMORY
    return options


@functools.lru_cache(maxsize=1024)
def compiled(pattern: str) -> re2._Regexp[str]:
    """``pattern`` compiled as the rendered services compile it (``re2.error`` if it is no
    RE2 pattern)."""
    return re2.compile(pattern, _options())


# what RE2 says of a construct a backtracking engine has and it has not (or too large)
_UNSUPPORTED = ("perl operator", "escape sequence", "repetition", "too large", "too big")


def pattern_error(pattern: str) -> str | None:
    """Why ``pattern`` is no pattern the rendered services can match, or None."""
    try:
        compiled(pattern)
    except re2.error as error:
        reason = error.args[0] if error.args else ""
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        if any(word in reason for word in _UNSUPPORTED):
            return (
                f"{reason} (patterns are RE2 syntax, matched in linear time: no lookarounds, "
                "back-references or repetitions above {1000})"
            )
        return str(reason)
    return None


def fullmatch(pattern: str, text: str) -> bool:
    """Whether ``text`` matches ``pattern`` whole, as a rendered service decides it."""
    return compiled(pattern).fullmatch(text) is not None
