"""The application's components as FastAPI dependencies: what the composition root built."""

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request


def component(name: str) -> Callable[[Request], Awaitable[Any]]:
    """A dependency answering the application's component ``name`` (``app.state.<name>``,
    where the application keeps each of ``bootstrap()``'s services, a test's override
    included): ``Annotated[TokenService, Depends(component("tokens"))]`` gives a
    hand-written route the one the composition root built, not a second one. A coroutine:
    FastAPI runs a plain function dependency on a worker thread."""

    async def wired(request: Request) -> Any:
        try:
            return getattr(request.app.state, name)
        except AttributeError:
            raise LookupError(f"the application has no component {name!r}") from None

    wired.__name__ = f"component_{name}"
    return wired
