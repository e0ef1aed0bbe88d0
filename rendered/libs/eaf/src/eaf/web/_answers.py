"""A request stopped anywhere with a ready response: a route, or a dependency it runs,
raises :class:`ResponseError`, and :class:`AnsweringRoute` answers with its response
(protocol errors whose body is not a problem: OAuth errors, redirects, HTML pages)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from eaf.web._domain import problem


class ResponseError(Exception):
    """Stops a request with ``response``."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


class AnsweringRoute(APIRoute):
    """A route that answers a :class:`ResponseError` with its response, also when a
    dependency raised it (``APIRouter(route_class=AnsweringRoute)``; no app-wide
    handler needed)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def answer(request: Request) -> Response:
            try:
                return await handle(request)
            except ResponseError as error:
                return error.response

        return answer


def problem_error(
    status: int, title: str, detail: str, headers: Mapping[str, str] | None = None
) -> ResponseError:
    """A :class:`ResponseError` answering an RFC 9457 problem with ``headers``."""
    response = problem(status, title, detail, [])
    response.headers.update(headers or {})
    return ResponseError(response)
