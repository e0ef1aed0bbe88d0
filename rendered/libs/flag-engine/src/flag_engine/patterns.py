"""REGEX constraint patterns: Rust `regex` syntax (what Unleash evaluates) on Python's `re`.

Rust's engine has no look-around or backreferences, so such patterns are invalid, as are the
few constructs `re` cannot express (Unicode classes, set operations, nested classes); an
invalid pattern matches nothing. Rust allows inline flags anywhere (`^(?i)abc$`): they become
scoped groups here. `$` ends the text only, unless `(?m)` appears.
"""

from __future__ import annotations

import re
import warnings

_POSIX = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "ascii": "\\x00-\\x7F",
    "blank": "\\t ",
    "cntrl": "\\x00-\\x1F\\x7F",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@\\[-`{-~",
    "space": "\\t\\n\\v\\f\\r ",
    "upper": "A-Z",
    "word": "0-9A-Za-z_",
    "xdigit": "0-9A-Fa-f",
}
_SCOPED_FLAGS = re.compile(r"\(\?([imsxu]*)(?:-([imsxu]*))?([:)])")
_UNSUPPORTED_GROUPS = ("(?=", "(?!", "(?<=", "(?<!", "(?>", "(?P=", "(?(", "(?#")


class UnsupportedPattern(ValueError):
    """A pattern Rust's regex engine refuses, or one `re` cannot express the same way."""


def _flags(on: str, off: str) -> str:
    on, off = on.replace("u", ""), off.replace("u", "")
    return f"{on}-{off}" if off else on


def _char_class(pattern: str, start: int, out: list[str]) -> int:
    """Copies the class opening at `start`; returns the index after its `]`."""
    i = start + 1
    out.append("[")
    if pattern.startswith("^", i):
        out.append("^")
        i += 1
    if pattern.startswith("]", i):
        out.append("\\]")
        i += 1
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escape = pattern[i : i + 2]
            if escape[1:] in ("p", "P"):
                raise UnsupportedPattern("Unicode classes")
            out.append(escape)
            i += 2
        elif char == "[":
            posix = re.match(r"\[:(\^?)([a-z]+):\]", pattern[i:])
            if posix is None or posix.group(1) or posix.group(2) not in _POSIX:
                raise UnsupportedPattern("nested character classes")
            out.append(_POSIX[posix.group(2)])
            i += posix.end()
        elif char == "]":
            out.append("]")
            return i + 1
        elif pattern[i : i + 2] in ("&&", "--", "~~"):
            raise UnsupportedPattern("character class set operations")
        else:
            out.append(char)
            i += 1
    raise UnsupportedPattern("unterminated character class")


def translate(pattern: str) -> str:
    """The `re` pattern matching what the Rust `pattern` matches."""
    out: list[str] = []
    # Per open group, the inline flags set so far: each is an open `(?flags:` to close
    # before the group's `)` and to reopen after each `|` of the group.
    scopes: list[list[str]] = [[]]
    end_anchor = "$" if re.search(r"\(\?[a-zA-Z]*m", pattern) else "\\Z"
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escape = pattern[i : i + 2]
            follower = escape[1:]
            if (
                follower.isdigit()
                and follower != "0"
                or follower in ("k", "p", "P", "Z")
            ):
                raise UnsupportedPattern(f"escape {escape}")
            if follower == "z":
                out.append("\\Z")
            elif follower == "x" and pattern.startswith("{", i + 2):
                close = pattern.index("}", i)
                out.append(f"\\U{int(pattern[i + 3 : close], 16):08x}")
                i = close + 1
                continue
            else:
                out.append(escape)
            i += 2
        elif char == "[":
            i = _char_class(pattern, i, out)
        elif char == "(":
            if pattern.startswith(_UNSUPPORTED_GROUPS, i):
                raise UnsupportedPattern(
                    "look-around, atomic groups and backreferences"
                )
            flags = _SCOPED_FLAGS.match(pattern, i)
            if flags is not None and flags.group(3) == ")":
                scoped = _flags(flags.group(1), flags.group(2) or "")
                if scoped:
                    out.append(f"(?{scoped}:")
                    scopes[-1].append(scoped)
                i = flags.end()
                continue
            if flags is not None:
                out.append(f"(?{_flags(flags.group(1), flags.group(2) or '')}:")
                i = flags.end()
            elif pattern.startswith("(?<", i):
                out.append("(?P<")
                i += 3
            else:
                out.append("(")
                i += 1
            scopes.append([])
        elif char == ")":
            if len(scopes) == 1:
                raise UnsupportedPattern("unbalanced parenthesis")
            out.append(")" * len(scopes.pop()) + ")")
            i += 1
        elif char == "|":
            open_flags = scopes[-1]
            out.append(
                ")" * len(open_flags) + "|" + "".join(f"(?{f}:" for f in open_flags)
            )
            i += 1
        elif char == "$":
            out.append(end_anchor)
            i += 1
        else:
            out.append(char)
            i += 1
    if len(scopes) != 1:
        raise UnsupportedPattern("unbalanced parenthesis")
    out.append(")" * len(scopes[0]))
    return "".join(out)


def compile_pattern(pattern: str, ignore_case: bool = False) -> re.Pattern[str] | None:
    """The compiled pattern, or None when Rust's engine would refuse it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return re.compile(translate(pattern), re.IGNORECASE if ignore_case else 0)
    except (
        UnsupportedPattern,
        re.error,
        FutureWarning,
        DeprecationWarning,
        ValueError,
    ):
        return None
