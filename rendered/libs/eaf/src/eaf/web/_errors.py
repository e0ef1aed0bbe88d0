from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Host, Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eaf.web._head import with_head
from eaf.web._problems import problem_response, problem_title

INTERNAL_ERROR_DETAIL = "The server could not handle this request."

_log = logging.getLogger("eaf.web")
_BODILESS = frozenset({204, 304})
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")
# What routing wrote into the scope while it chose the route that answered 405.
_ROUTING_KEYS = frozenset({"fastapi", "route", "endpoint", "path_params", "router"})


class UnhandledErrorMiddleware:
    """Answers an exception no handler took with a 500 problem body that reveals nothing
    of it, and logs it with its traceback and the request's correlation id (pure ASGI)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            _log.exception("unhandled error in %s %r", scope["method"], scope["path"])
            if started:
                raise  # too late for a response: the server drops the connection
            await problem_response(500, INTERNAL_ERROR_DETAIL)(scope, receive, send)


async def http_error(request: Request, error: Exception) -> Response:
    """An :class:`HTTPException` (also the router's 404 and 405) as a problem body; a 405
    lists in ``Allow`` every method that some route on the path serves."""
    assert isinstance(error, HTTPException)
    status = error.status_code
    headers = dict(error.headers or {})
    if status in _BODILESS:
        return Response(status_code=status, headers=headers)
    detail = error.detail
    extensions: dict[str, Any] = {}
    if not isinstance(detail, str):
        # FastAPI lets a detail be any JSON value; the problem's detail is a sentence.
        extensions["data"] = detail
        detail = problem_title(status)
    if status == 405:
        allowed = allowed_methods(request.app.router.routes, request.scope)
        documented = _documented_methods(request.app, request.scope["path"])
        if documented is not None:
            allowed = [method for method in allowed if method in documented]
        allowed = with_head(allowed)
        if allowed:
            headers["Allow"] = ", ".join(allowed)
        if detail == problem_title(405):
            detail = f"{request.method} is not allowed here; see Allow"
    elif status == 404 and detail == "Not Found":
        detail = "Nothing is served at this path."
    return problem_response(status, detail, headers=headers, **extensions)


async def internal_error(request: Request, error: Exception) -> Response:
    """The last resort of the outermost error middleware (the error is logged by the
    server, which re-raises it)."""
    return problem_response(500, INTERNAL_ERROR_DETAIL)


def _documented_methods(app: Any, path: str) -> frozenset[str] | None:
    """The methods the OpenAPI document states for ``path`` when it is one of its
    concrete (parameterless) paths, else None.

    A concrete path is matched before templated ones (OpenAPI 3.1, Paths Object), so
    ``/items/health`` is its own resource even where ``PUT /items/{id}`` would also
    take the request: ``Allow`` names the methods of that resource.
    """
    openapi = getattr(app, "openapi", None)
    if "{" in path or not callable(openapi):
        return None
    item = openapi().get("paths", {}).get(path)
    if not isinstance(item, dict):
        return None
    return frozenset(method.upper() for method in item if method.upper() in _METHODS)


def allowed_methods(routes: Sequence[BaseRoute], scope: Scope) -> list[str]:
    """Every method that some route serves at the path of ``scope``, sorted.

    Each route is asked whether it would take the request with each method, because
    routers nest (FastAPI keeps included routers as routes of their own). Mounted apps
    match any method, so they are left out.
    """
    fresh = {key: value for key, value in scope.items() if key not in _ROUTING_KEYS}
    candidates = [route for route in routes if not isinstance(route, Mount | Host)]
    return sorted(
        method
        for method in _METHODS
        if any(
            route.matches({**fresh, "method": method})[0] is Match.FULL
            for route in candidates
        )
    )
