"""The configuration HTTP API (hand-written): property sets written and read per
application, profile and label, their versions, diffs and rollbacks, the merged
configuration as Spring Cloud Config serves it, and a long-poll watch.

Permissions: ``configuration:read`` to read (secrets masked), ``configuration:secrets``
besides it to read secrets in clear, ``configuration:write`` to write and roll back.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from eaf.context import require_tenant
from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from iam_client import User, require
from pydantic import BaseModel, Field

from configuration.application.configurations import (
    Configurations,
    Resolved,
    Version,
)
from configuration.domain.model import PropertySet

READ = "configuration:read"
WRITE = "configuration:write"
SECRETS = "configuration:secrets"
LONGEST_WAIT = 60.0

router = APIRouter(tags=["configuration"])

Reader = Annotated[User, Depends(require(READ))]
Writer = Annotated[User, Depends(require(WRITE))]
Application = Annotated[str, Path(pattern=r"^[a-z][a-z0-9-]{0,62}$")]
Profile = Annotated[str, Path(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")]
Label = Annotated[str, Path(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")]
Revision = Annotated[int, Path(ge=1)]


class PropertiesBody(BaseModel):
    """A property set's new content: every property (any JSON value) and which are secret."""

    properties: dict[str, Any] = Field(max_length=1000)
    secrets: list[str] = Field(default_factory=list, max_length=1000)


def _configurations(request: Request) -> Configurations:
    configurations: Configurations = request.app.state.configurations
    return configurations


def _reveals(request: Request, user: User) -> bool:
    return bool(request.app.state.iam_client.has_permission(user, SECRETS))


def _etag(version: str) -> str:
    return f'"{version}"'


def _known(header: str | None, version: str | None) -> str | None:
    """The version the caller holds: ``?version=``, else ``If-None-Match``."""
    if version:
        return version
    if header:
        return header.strip().removeprefix("W/").strip('"')
    return None


def _document(resolved: Resolved) -> dict[str, Any]:
    return {
        "name": resolved.application,
        "profiles": [resolved.profile],
        "label": resolved.label,
        "version": resolved.version,
        "propertySources": [
            {"name": s.name, "revision": s.revision, "source": s.source}
            for s in resolved.sources
        ],
        "properties": resolved.merged,
        "origins": resolved.origins,
    }


def _answer(resolved: Resolved) -> JSONResponse:
    return JSONResponse(_document(resolved), headers={"ETag": _etag(resolved.version)})


async def _config(
    request: Request,
    user: User,
    application: str,
    profile: str,
    label: str,
    if_none_match: str | None,
) -> Response:
    resolved = await _configurations(request).resolve(
        application, profile, label, reveal=_reveals(request, user)
    )
    if _known(if_none_match, None) == resolved.version:
        return Response(status_code=304, headers={"ETag": _etag(resolved.version)})
    return _answer(resolved)


@router.get(
    "/api/v1/config/{application}/{profile}",
    summary="The merged configuration of an application in a profile, label main",
)
async def config_main(
    request: Request,
    user: Reader,
    application: Application,
    profile: Profile,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    return await _config(request, user, application, profile, "main", if_none_match)


@router.get(
    "/api/v1/config/{application}/{profile}/{label}",
    summary="The merged configuration of an application in a profile and label",
)
async def config(
    request: Request,
    user: Reader,
    application: Application,
    profile: Profile,
    label: Label,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    return await _config(request, user, application, profile, label, if_none_match)


@router.get(
    "/api/v1/config/{application}/{profile}/{label}/watch",
    summary="Long-poll: the configuration once its version differs from the one held",
)
async def watch(
    request: Request,
    user: Reader,
    application: Application,
    profile: Profile,
    label: Label,
    version: Annotated[str | None, Query(max_length=100)] = None,
    timeout: Annotated[float, Query(gt=0, le=LONGEST_WAIT)] = 30.0,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    configurations = _configurations(request)
    reveal = _reveals(request, user)
    known = _known(if_none_match, version)
    tenant = require_tenant()
    deadline = time.monotonic() + timeout
    while True:
        ticket = configurations.changes.ticket(tenant)
        resolved = await configurations.resolve(
            application, profile, label, reveal=reveal
        )
        if resolved.version != known:
            return _answer(resolved)
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not await configurations.changes.wait(ticket, remaining):
            return Response(status_code=304, headers={"ETag": _etag(resolved.version)})


def _set_view(written: PropertySet, values: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": written.id,
        "key": written.key_,
        "application": written.application,
        "profile": written.profile,
        "label": written.label,
        "revision": written.revision,
        "properties": values,
        "secrets": sorted(n for n, p in written.properties.items() if p.secret),
    }


@router.put(
    "/api/v1/properties/{application}/{profile}/{label}",
    summary="Replace a property set (a new revision), checked by the application's schema",
)
async def put_properties(
    request: Request,
    user: Writer,
    application: Application,
    profile: Profile,
    label: Label,
    body: PropertiesBody,
) -> JSONResponse:
    configurations = _configurations(request)
    written = await configurations.write(
        application, profile, label, body.properties, frozenset(body.secrets)
    )
    values = await configurations.values_of(written, reveal=_reveals(request, user))
    return JSONResponse(
        _set_view(written, values), headers={"ETag": f'"{written.revision}"'}
    )


@router.get(
    "/api/v1/properties/{application}/{profile}/{label}",
    summary="One property set (secrets masked without configuration:secrets)",
)
async def get_properties(
    request: Request,
    user: Reader,
    application: Application,
    profile: Profile,
    label: Label,
) -> JSONResponse:
    configurations = _configurations(request)
    found = await configurations.required(application, profile, label)
    values = await configurations.values_of(found, reveal=_reveals(request, user))
    return JSONResponse(
        _set_view(found, values), headers={"ETag": f'"{found.revision}"'}
    )


def _version(version: Version) -> dict[str, Any]:
    return {
        "revision": version.revision,
        "occurredAt": version.occurred_at.isoformat().replace("+00:00", "Z"),
        "rolledBackTo": version.rolled_back_to,
    }


@router.get(
    "/api/v1/properties/{application}/{profile}/{label}/versions",
    summary="Every revision of a property set, oldest first",
)
async def versions(
    request: Request,
    _user: Reader,
    application: Application,
    profile: Profile,
    label: Label,
) -> dict[str, Any]:
    found = await _configurations(request).versions(application, profile, label)
    return {"items": [_version(v) for v in found]}


@router.get(
    "/api/v1/properties/{application}/{profile}/{label}/versions/{first}/diff/{second}",
    summary="What changed from one revision to another",
)
async def diff(
    request: Request,
    user: Reader,
    application: Application,
    profile: Profile,
    label: Label,
    first: Revision,
    second: Revision,
) -> dict[str, Any]:
    found = await _configurations(request).diff(
        application, profile, label, first, second, reveal=_reveals(request, user)
    )
    return {
        "from": first,
        "to": second,
        "added": found.added,
        "removed": found.removed,
        "changed": {n: {"from": a, "to": b} for n, (a, b) in found.changed.items()},
    }


@router.post(
    "/api/v1/properties/{application}/{profile}/{label}/versions/{revision}/rollback",
    summary="A new revision equal to an older one",
)
async def rollback(
    request: Request,
    user: Writer,
    application: Application,
    profile: Profile,
    label: Label,
    revision: Revision,
) -> JSONResponse:
    configurations = _configurations(request)
    written = await configurations.rollback(application, profile, label, revision)
    values = await configurations.values_of(written, reveal=_reveals(request, user))
    return JSONResponse(
        _set_view(written, values), headers={"ETag": f'"{written.revision}"'}
    )
