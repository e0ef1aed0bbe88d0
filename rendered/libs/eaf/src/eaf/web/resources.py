"""HTTP conventions of resources served by rendered services: versions as ETags
(``If-Match`` guards a change, ``If-None-Match`` answers 304), ``Idempotency-Key`` on
creating requests, and links to the next page of a list."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request

__all__ = ["IdempotencyKey", "IfMatch", "IfNoneMatch", "etag", "next_page"]

_VERSION_TAG = re.compile(r'^(?:W/)?"(\d{1,18})"$')
_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")


def etag(version: int) -> str:
    """The entity tag of an aggregate at ``version``."""
    return f'"{version}"'


def _if_match(
    if_match: Annotated[
        str | None,
        Header(
            alias="If-Match",
            description='The ETag of the version read ("3"): the change applies only if '
            "it is still current (412 otherwise)",
        ),
    ] = None,
) -> int | None:
    if if_match is None or if_match.strip() == "*":
        return None
    match = _VERSION_TAG.match(if_match.strip())
    if match is None:
        raise HTTPException(412, 'If-Match takes the ETag of a version, such as "3"')
    return int(match[1])


def _if_none_match(
    if_none_match: Annotated[
        str | None,
        Header(
            alias="If-None-Match", description="An ETag held: 304 while it is current"
        ),
    ] = None,
) -> set[str]:
    if if_none_match is None:
        return set()
    return {part.strip() for part in if_none_match.split(",") if part.strip()}


def _idempotency_key(
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="A key unique to this request: retrying with it returns the first "
            "answer instead of creating twice (kept 24 hours)",
        ),
    ] = None,
) -> str | None:
    if idempotency_key is None:
        return None
    if not _KEY.match(idempotency_key):
        raise HTTPException(400, "Idempotency-Key is 1 to 255 visible ASCII characters")
    return idempotency_key


IfMatch = Annotated[int | None, Depends(_if_match)]
"""The version named by ``If-Match`` (None when absent or ``*``)."""
IfNoneMatch = Annotated[set[str], Depends(_if_none_match)]
"""The entity tags named by ``If-None-Match``."""
IdempotencyKey = Annotated[str | None, Depends(_idempotency_key)]
"""The request's ``Idempotency-Key``, if any."""


def next_page(request: Request, offset: int, limit: int, total: int) -> str | None:
    """The link to the page after the one at ``offset`` (None on the last page)."""
    following = offset + limit
    if following >= total:
        return None
    url = request.url.include_query_params(offset=following, limit=limit)
    return str(url.path) + "?" + url.query
