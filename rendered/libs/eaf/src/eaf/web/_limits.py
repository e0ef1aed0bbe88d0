from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote_to_bytes

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eaf.config import Settings
from eaf.web._exact import NO_STORE_KEEPS
from eaf.web._json import JsonBodyError, check_json
from eaf.web._problems import problem_response

NO_NUL = f"holds a NUL character (\\u0000): {NO_STORE_KEEPS}"
NO_TEXT = (
    "holds bytes that are no UTF-8 text (a lone surrogate, such as %ED%A0%80, or %FF):"
    " no text is written so"
)
# a byte past ASCII, written or percent-encoded: where text may not be UTF-8
_HIGH_BYTE = re.compile(rb"%[89a-fA-F][0-9a-fA-F]|[\x80-\xff]")

DEFAULT_MAX_BODY_BYTES = 1024 * 1024
DEFAULT_MAX_JSON_DEPTH = 32


@dataclass(frozen=True)
class RequestLimits:
    """How large a request body and how deep a JSON body may be."""

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_json_depth: int = DEFAULT_MAX_JSON_DEPTH

    def __post_init__(self) -> None:
        if self.max_body_bytes < 1 or self.max_json_depth < 1:
            raise ValueError("request limits must be positive")

    @classmethod
    def from_settings(cls, settings: Settings) -> RequestLimits:
        """The limits of ``server.max_body_bytes`` and ``server.max_json_depth``."""
        return cls(
            max_body_bytes=settings.max_body_bytes,
            max_json_depth=settings.max_json_depth,
        )


class RequestBodyTooLarge(HTTPException):
    """The request body grew beyond the limit while it was read (answered 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than {limit} bytes.")


class BodyLimitMiddleware:
    """Bounds request bodies before the application parses them (pure ASGI).

    A declared ``Content-Length`` over the limit is refused unread, and the bytes are
    counted as they arrive, so a chunked body is bounded too (413). A JSON body is read
    whole first and refused with 400 when it is malformed or nested too deeply, so no
    recursive parser ever sees it; so is a body without a content type, which FastAPI
    parses as JSON when ``strict_content_type`` is off (older versions always did).

    A NUL character (``%00``) no store can keep (PostgreSQL's text refuses it) is refused
    in the path (404: it names nothing) and in the query (422 naming each parameter);
    :class:`~eaf.web.ExactJsonRequest` refuses one in a JSON body. So are bytes that are
    no UTF-8 text (a lone surrogate, ``%ED%A0%80``, or ``%FF``), which the server would
    otherwise read as U+FFFD, so that they would find text holding that character.
    """

    def __init__(self, app: ASGIApp, limits: RequestLimits | None = None) -> None:
        self.app = app
        self.limits = limits or RequestLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = _unreadable_refused(scope)
        if refused is not None:
            await refused(scope, receive, send)
            return
        limit = self.limits.max_body_bytes
        headers = Headers(scope=scope)
        if _declared_length(headers) > limit:
            await problem_response(413, RequestBodyTooLarge(limit).detail)(
                scope, receive, send
            )
            return
        try:
            guarded = await self._guarded(headers, receive)
        except JsonBodyError as error:
            await problem_response(400, str(error), title="Malformed request body")(
                scope, receive, send
            )
            return
        except RequestBodyTooLarge as error:
            await problem_response(413, error.detail)(scope, receive, send)
            return
        if guarded is None:
            return  # the client went away while sending
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, guarded, tracking_send)
        except RequestBodyTooLarge as error:
            if started:
                raise
            await problem_response(413, error.detail)(scope, receive, send)

    async def _guarded(self, headers: Headers, receive: Receive) -> Receive | None:
        """The receive channel the application reads the body from, bounded."""
        limit = self.limits.max_body_bytes
        if not _parsed_as_json(headers):
            return _counting(receive, limit)
        body = await _read_body(receive, limit)
        if body is None:
            return None
        if body:
            check_json(body, max_depth=self.limits.max_json_depth)
        return _replaying(body, receive)


def _unreadable_refused(scope: Scope) -> ASGIApp | None:
    """The answer to a request whose path or query holds a NUL character, or bytes that
    are no UTF-8 text, else None."""
    if "\x00" in scope.get("path", ""):
        return problem_response(404, f"The path {NO_NUL}")
    raw_path: bytes = scope.get("raw_path") or b""
    if _HIGH_BYTE.search(raw_path) and not _utf8(unquote_to_bytes(raw_path)):
        return problem_response(404, f"The path {NO_TEXT}")
    query: bytes = scope.get("query_string", b"")
    nul = b"%00" in query  # a NUL reaches a parameter only written so
    if not nul and not _HIGH_BYTE.search(query):
        return None
    errors = []
    pairs = parse_qsl(
        query.decode("latin-1"), keep_blank_values=True, encoding="latin-1"
    )
    for raw_name, raw_value in pairs:
        # each byte read as the latin-1 character of its value: the bytes again, exactly
        name_bytes, value_bytes = (
            raw_name.encode("latin-1"),
            raw_value.encode("latin-1"),
        )
        name = name_bytes.decode("utf-8", "replace").replace("\x00", "\\u0000")
        if nul and (b"\x00" in name_bytes or b"\x00" in value_bytes):
            errors.append({"field": name, "message": f"The parameter {NO_NUL}"})
        elif not (_utf8(name_bytes) and _utf8(value_bytes)):
            errors.append({"field": name, "message": f"The parameter {NO_TEXT}"})
    if not errors:
        return None
    return problem_response(
        422,
        errors[0]["message"],
        title="Invalid request",
        field=errors[0]["field"],
        errors=errors,
    )


def _utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 text (no lone surrogate: Python's codec refuses one)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _declared_length(headers: Headers) -> int:
    try:
        return int(headers.get("content-length", "0"))
    except ValueError:
        return 0  # the server refuses a malformed Content-Length before we run


def _parsed_as_json(headers: Headers) -> bool:
    content_type = headers.get("content-type")
    if content_type is None:
        return True
    media_type = content_type.partition(";")[0].strip().lower()
    main, _, subtype = media_type.partition("/")
    return main == "application" and (subtype == "json" or subtype.endswith("+json"))


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise RequestBodyTooLarge(limit)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _counting(receive: Receive, limit: int) -> Receive:
    received = 0

    async def counted() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise RequestBodyTooLarge(limit)
        return message

    return counted
