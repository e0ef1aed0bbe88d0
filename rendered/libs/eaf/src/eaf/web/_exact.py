"""JSON bodies read exactly: a number with a fraction or an exponent is read as a
``Decimal``, not through a float, so ``10000.000000000000000001`` reaches a decimal field
as written (and breaks its ``max`` or ``scale``) rather than rounded to ``10000.0``."""

import email.message
import json
from collections.abc import Callable, Coroutine
from decimal import Decimal, InvalidOperation
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from eaf.domain import member_path
from eaf.web._problems import problem_response

MAX_EXPONENT = 1000
"""The largest power of ten a number of a body may have, either way: ``1e9999999`` (20
bytes) would be ten million digits once written in plain notation, or as an integer."""


OUT_OF_RANGE = "a number out of range: "
UNWRITABLE = "text that is not Unicode at "
NUL = "a NUL character (\\u0000) at "
TWICE = "a key twice in one object: "
HELD = (OUT_OF_RANGE, UNWRITABLE, NUL, TWICE)
"""How the messages of a body this module refuses start: each is told after ``The body
holds ``."""
NO_STORE_KEEPS = "no stored text may hold one"
"""Why a NUL character is refused, in a body, a path or a query."""
_WHY = {
    UNWRITABLE: " (a lone surrogate, such as \\ud800)",
    NUL: f": {NO_STORE_KEEPS}",
}


def _out_of_range(text: str) -> json.JSONDecodeError:
    return json.JSONDecodeError(
        f"{OUT_OF_RANGE}{text[:24]}{'…' if len(text) > 24 else ''} (a number's size"
        f" is from 1e-{MAX_EXPONENT} to 1e{MAX_EXPONENT}, or 0)",
        text,
        0,
    )


def exact_number(text: str) -> Decimal:
    """The number ``text`` of a JSON body (with a fraction or an exponent) as written;
    a ``json.JSONDecodeError`` beyond ±10^``MAX_EXPONENT`` (answered 422)."""
    try:
        number = Decimal(text)
    except InvalidOperation:  # an exponent beyond what a Decimal holds
        raise _out_of_range(text) from None
    if number and abs(number.adjusted()) > MAX_EXPONENT:
        raise _out_of_range(text)
    return number


def exact_integer(text: str) -> int:
    """The integer ``text`` of a JSON body; a ``json.JSONDecodeError`` past
    ``MAX_EXPONENT`` digits (as a number with an exponent)."""
    if len(text.lstrip("-")) > MAX_EXPONENT:
        raise _out_of_range(text)
    return int(text)


def _members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object of a body; a ``json.JSONDecodeError`` naming a key it repeats, which
    a parser that keeps the first would read otherwise than this one (RFC 8259 §4 leaves
    it open; I-JSON, RFC 7493, forbids it)."""
    members = dict(pairs)
    if len(members) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise json.JSONDecodeError(f"{TWICE}{json.dumps(key[:80])}", "", 0)
            seen.add(key)
    return members


def _unstorable(text: str) -> str | None:
    """What ``text`` holds that no store can keep, as a message starts (:data:`NUL`:
    PostgreSQL's text refuses it; :data:`UNWRITABLE`: a lone surrogate, ``"\\ud800"`` in
    JSON, which no UTF-8 answer, log or event can carry); None when it holds neither."""
    if "\x00" in text:
        return NUL
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return UNWRITABLE
    return None


def unstorable_text_at(value: Any) -> str | None:
    """Why the first text of a JSON ``value``, in the body's order (a map's keys before
    its values), cannot be stored, with its path (``data.k``, ``lines.1``,
    ``labels["a.b"]``; ``body`` for the whole): ``a NUL character (\\u0000) at data.k:
    …``; None when every text can."""
    pending: list[tuple[Any, str]] = [(value, "")]
    while pending:
        item, path = pending.pop()
        if isinstance(item, str):
            why = _unstorable(item)
            if why is not None:
                return f"{why}{(path or 'body')[:80]}{_WHY[why]}"
            continue
        if isinstance(item, dict):
            for key in item:
                why = _unstorable(key)
                if why is not None:
                    return f"{why}a key of {(path or 'the body')[:80]}{_WHY[why]}"
            steps: list[tuple[str | int, Any]] = list(item.items())
        elif isinstance(item, list):
            steps = list(enumerate(item))
        else:
            continue
        pending.extend(
            (inner, member_path(path, step) if path else str(step))
            for step, inner in reversed(steps)
        )
    return None


class ExactJsonRequest(Request):
    """A request whose JSON body keeps its numbers' digits (``Decimal`` for a fraction or
    an exponent, within ±10^``MAX_EXPONENT``; an integer stays an ``int``), and holds
    only text every store can keep (a lone surrogate or a NUL character is refused, 422,
    before anything is stored), and each key once in an object (422 otherwise)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            read = json.loads(
                body,
                parse_float=exact_number,
                parse_int=exact_integer,
                object_pairs_hook=_members,
            )
            why = unstorable_text_at(read)
            if why is not None:
                raise json.JSONDecodeError(why, body.decode("utf-8", "replace"), 0)
            self._json = read
        return self._json


class ExactJsonRoute(APIRoute):
    """A route reading its JSON body with :class:`ExactJsonRequest`: the request fields
    of ``eaf.web`` take its decimals (a float or a ``json`` value reads them as numbers,
    a decimal as written)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def exact(request: Request) -> Response:
            exact_request = ExactJsonRequest(request.scope, request.receive)
            typed = request.headers.get("content-type")
            if (
                self.body_field is not None
                and not (typed and _json_type(typed))
                and await exact_request.body()
            ):
                # FastAPI would read it as bytes and say it is no object: say what to send
                # (a body without a type too: a browser sends one cross-site unasked)
                sent = (
                    typed.split(";")[0].strip()[:60]
                    if typed
                    else "a body without a type"
                )
                return problem_response(
                    415,
                    f"The body is read as JSON, not {sent}:"
                    " send it with Content-Type: application/json",
                )
            return await handler(exact_request)

        return exact


def _json_type(content_type: str) -> bool:
    """Whether ``content_type`` is JSON (``application/json``, ``application/*+json``), as
    FastAPI reads a body as JSON."""
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )
