"""HTTP conventions of resources served by rendered services: versions as ETags
(``If-Match`` guards a change, ``If-None-Match`` answers 304), ``Idempotency-Key`` on
creating requests, and list queries (filters, sorting, limit/offset pages)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Request

from eaf.projectors import Condition

__all__ = [
    "IdempotencyKey",
    "IfMatch",
    "IfNoneMatch",
    "equal_to",
    "etag",
    "in_range",
    "next_page",
    "order_by",
]

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
        Header(alias="If-None-Match", description="An ETag held: 304 while it is current"),
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


def equal_to(column: str, values: Sequence[Any] | None) -> list[Condition]:
    """``column`` equal to one of ``values`` (a repeated query parameter), if given."""
    if not values:
        return []
    encoded = [_encoded(value) for value in values]
    if len(encoded) == 1:
        return [Condition(column, "eq", encoded[0])]
    return [Condition(column, "in", encoded)]


def in_range(column: str, **bounds: Any) -> list[Condition]:
    """``column`` within the bounds given (``gte``, ``gt``, ``lte``, ``lt``)."""
    return [
        Condition(column, op, _encoded(value))
        for op, value in bounds.items()
        if value is not None
    ]


def order_by(
    sort: Iterable[str] | None, columns: dict[str, str], default: Sequence[tuple[str, bool]]
) -> list[tuple[str, bool]]:
    """The ``sort`` parameters (``dueDate``, ``-dueDate``) as (column, descending)."""
    if not sort:
        return list(default)
    order = []
    for item in sort:
        descending = item.startswith("-")
        order.append((columns[item.lstrip("-")], descending))
    return order


def next_page(request: Request, offset: int, limit: int, total: int) -> str | None:
    """The link to the page after the one at ``offset`` (None on the last page)."""
    following = offset + limit
    if following >= total:
        return None
    url = request.url.include_query_params(offset=following, limit=limit)
    return str(url.path) + "?" + url.query


def _encoded(value: Any) -> Any:
    """A query value as the read model stores it (enums by value, dates as ISO text)."""
    from eaf.eventsourcing.serialization import encode_value

    return encode_value(value)
