from __future__ import annotations

import json
import re

# A string literal, escapes included; possessive, so a match never backtracks, and the
# closing quote is optional, so an unterminated string is consumed to the end in one go
# rather than retried from every later quote (either keeps the scan linear).
_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"?', re.DOTALL)
_NOT_BRACKET = bytes(byte for byte in range(256) if byte not in b"[]{}")
_SQUARE = bytes.maketrans(b"{}", b"[]")


class JsonBodyError(ValueError):
    """A JSON request body that is malformed or nested too deeply."""


def check_json(body: bytes, *, max_depth: int) -> None:
    """Raise :class:`JsonBodyError` unless ``body`` is JSON nested at most ``max_depth``
    arrays or objects deep; linear in the body's size, before any recursive parser runs."""
    if nesting_depth(body, limit=max_depth) is None:
        raise JsonBodyError(
            f"the JSON body is nested more than {max_depth} levels deep"
        )
    try:
        json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise JsonBodyError(f"the body is not valid JSON: {error}") from None


def _no_constant(name: str) -> object:
    # Python's reader takes NaN and Infinity, which JSON (RFC 8259) does not have.
    raise ValueError(f"{name} is not a JSON value")


def nesting_depth(body: bytes, *, limit: int) -> int | None:
    """How deep the arrays and objects of a JSON text nest, or None beyond ``limit``.

    String literals are dropped, then every bracket pair with nothing between them is
    removed in one C-speed pass per level, so the work is at most ``limit + 1`` passes over
    the body. Unbalanced brackets raise :class:`JsonBodyError`.
    """
    brackets = _STRING.sub(b"", body).translate(_SQUARE, _NOT_BRACKET)
    depth = 0
    while brackets:
        if depth == limit:
            return None
        inner_removed = brackets.replace(b"[]", b"")
        if len(inner_removed) == len(brackets):
            raise JsonBodyError("the body is not valid JSON: unbalanced brackets")
        brackets = inner_removed
        depth += 1
    return depth
