"""HTTP conventions of resources served by rendered services: versions as ETags
(``If-Match`` guards a change, ``If-None-Match`` answers 304), ``Idempotency-Key`` on
creating requests, and links to the next page of a list."""

from __future__ import annotations

import re
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Annotated, TypeVar
from urllib.parse import quote

from fastapi import Depends, Header, HTTPException, Request
from pydantic import WithJsonSchema

from eaf.domain import ConcurrencyError
from eaf.eventsourcing import PreconditionFailedError

T = TypeVar("T")

__all__ = [
    "EntityTags",
    "IdempotencyKey",
    "IfMatch",
    "IfNoneMatch",
    "PutCondition",
    "PutPreconditions",
    "after_merge",
    "etag",
    "next_page",
    "sent_path",
]

# The patterns are stated in the OpenAPI document, and FastAPI answers 422 for a header
# that breaks them (in ECMA-262 syntax, as JSON Schema has it).
IF_MATCH_PATTERN = r'^(?:\*|(?:W/)?"[0-9]{1,18}")$'
IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x7e]{1,255}$"
_VERSION_TAG = re.compile(r'(?:W/)?"([0-9]{1,18})"')


def _text(**schema: str) -> WithJsonSchema:
    # An absent header is None here, but a header is never null on the wire: the
    # document states a string (optional), not "string or null".
    return WithJsonSchema({"type": "string", **schema})


def etag(version: int) -> str:
    """The entity tag of an aggregate at ``version``."""
    return f'"{version}"'


async def _if_match(
    if_match: Annotated[
        str | None,
        Header(
            alias="If-Match",
            description='The ETag of the version read ("3"), or *: the change applies '
            "only if it is still current (412 otherwise)",
            pattern=IF_MATCH_PATTERN,
        ),
        _text(pattern=IF_MATCH_PATTERN),
    ] = None,
) -> int | None:
    if if_match is None or if_match == "*":
        return None
    match = _VERSION_TAG.fullmatch(if_match)
    if match is None:  # the header's pattern admits nothing else
        raise HTTPException(412, 'If-Match takes the ETag of a version, such as "3"')
    return int(match[1])


@dataclass(frozen=True)
class PutPreconditions:
    """The preconditions of a create-or-replace ``PUT`` (RFC 9110 §13.1): ``version``,
    the one ``If-Match`` names (None: any); ``exists``, True for ``If-Match: *`` (replace
    only), False for ``If-None-Match: *`` (create only), None when either will do."""

    version: int | None = None
    exists: bool | None = None


async def _put_preconditions(
    version: Annotated[int | None, Depends(_if_match)],
    if_match: Annotated[
        str | None, Header(alias="If-Match", include_in_schema=False)
    ] = None,
    if_none_match: Annotated[
        str | None,
        Header(
            alias="If-None-Match",
            description="*: make it only if none exists (412 otherwise)",
            pattern=r"^\*$",
        ),
        _text(pattern=r"^\*$"),
    ] = None,
) -> PutPreconditions:
    if if_match == "*" and if_none_match == "*":
        raise HTTPException(412, "If-Match: * and If-None-Match: * exclude each other")
    exists = True if if_match == "*" else False if if_none_match == "*" else None
    return PutPreconditions(version, exists)


class EntityTags(frozenset[str]):
    """The entity tags ``If-None-Match`` names, each compared weakly (RFC 9110 13.1.2:
    ``W/"3"`` names the version ``"3"`` too), ``*`` naming any current one."""

    def __contains__(self, tag: object) -> bool:
        if not isinstance(tag, str):
            return False
        held = super().__contains__
        return held("*") or held(tag.removeprefix("W/"))


async def _if_none_match(
    if_none_match: Annotated[
        str | None,
        Header(
            alias="If-None-Match",
            description="ETags held (W/ or not), or *: 304 while one is current",
        ),
        _text(),
    ] = None,
) -> EntityTags:
    if if_none_match is None:
        return EntityTags()
    parts = (part.strip() for part in if_none_match.split(","))
    return EntityTags(part.removeprefix("W/") for part in parts if part)


async def _idempotency_key(
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="A key unique to this request, 1 to 255 visible ASCII characters: "
            "retrying with it returns the first answer instead of creating twice (kept "
            "24 hours)",
            pattern=IDEMPOTENCY_KEY_PATTERN,
        ),
        _text(pattern=IDEMPOTENCY_KEY_PATTERN),
    ] = None,
) -> str | None:
    return idempotency_key


# The header dependencies are coroutines: FastAPI runs a plain function dependency on a
# worker thread, a hop per request for what is a string check.
IfMatch = Annotated[int | None, Depends(_if_match)]
"""The version named by ``If-Match`` (None when absent or ``*``)."""
IfNoneMatch = Annotated[EntityTags, Depends(_if_none_match)]
"""The entity tags named by ``If-None-Match`` (``tag in if_none_match``: weakly, or ``*``)."""
PutCondition = Annotated[PutPreconditions, Depends(_put_preconditions)]
"""``If-Match`` (a version, or * to replace only) and ``If-None-Match: *`` (create only)."""
IdempotencyKey = Annotated[str | None, Depends(_idempotency_key)]
"""The request's ``Idempotency-Key``, if any."""


async def after_merge(change: Awaitable[T], if_match: int | None) -> T:
    """The answer of the command a merge patch (``PATCH``) runs at the version it read and
    merged the body into: another write committed since is a conflict to retry (409),
    unless the client's own ``If-Match`` named that version (412)."""
    try:
        return await change
    except PreconditionFailedError:
        if if_match is not None:
            raise
        raise ConcurrencyError(
            "The resource was changed by a concurrent request; retry"
        ) from None


def next_page(request: Request, offset: int, limit: int, total: int) -> str | None:
    """The link to the page after the one at ``offset`` (None on the last page)."""
    following = offset + limit
    if following >= total:
        return None
    url = request.url.include_query_params(offset=following, limit=limit)
    return str(url.path) + "?" + url.query


def sent_path(request: Request) -> str:
    """The request's path as the client sent it (percent-encoded as it was: ``a%3Fb``
    stays one segment), with the application's root path: the URL of what a PUT made."""
    raw = request.scope.get("raw_path")
    root = str(request.scope.get("root_path", ""))
    if isinstance(raw, bytes) and raw:
        sent = raw.decode("latin-1")
        return sent if not root or sent.startswith(root) else root + sent
    return root + quote(request.scope["path"])
