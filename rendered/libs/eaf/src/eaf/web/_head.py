"""HEAD answered wherever GET is (RFC 9110 §9.3.2): the GET's status and headers, no
body."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGetMiddleware:
    """Runs a HEAD request as the GET of its path and sends the answer without its body
    (its ``Content-Length`` stays the GET's, as RFC 9110 allows). Innermost, so the
    metrics, logs and traces around it see HEAD."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        ended = False

        async def headers_only(message: Message) -> None:
            nonlocal ended
            if message["type"] != "http.response.body":
                await send(message)
            elif not ended and not message.get("more_body", False):
                ended = True
                await send({"type": "http.response.body", "body": b""})

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def with_head(methods: list[str]) -> list[str]:
    """``methods`` (sorted) with HEAD wherever GET is served."""
    if "GET" not in methods or "HEAD" in methods:
        return methods
    return sorted([*methods, "HEAD"])
