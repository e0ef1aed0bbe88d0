from __future__ import annotations

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware

from eaf.web._errors import UnhandledErrorMiddleware, http_error, internal_error
from eaf.web._head import HeadAsGetMiddleware
from eaf.web._limits import BodyLimitMiddleware, RequestLimits
from eaf.web._openapi import document_body_problems


def install_http_guards(app: FastAPI, limits: RequestLimits | None = None) -> None:
    """Bound ``app``'s request bodies and answer its errors as problem bodies.

    Bodies over ``limits`` get 413, malformed or too deeply nested JSON 400; an unknown
    path 404 (one with a trailing slash too: no redirect), a wrong method 405 with a
    complete ``Allow`` (HEAD is served wherever GET is: its headers, no body), an
    ``HTTPException`` its status, and an unhandled error 500 (logged with its traceback),
    all as ``application/problem+json``. Handlers the app registers for other exceptions (for
    example ``RequestValidationError``) keep working. The middleware goes innermost, so
    the request's correlation id and metrics see its answers, whatever the call order.
    """
    if getattr(app.state, "eaf_web", None) is not None:
        raise RuntimeError("eaf.web is already installed on this app")
    if app.middleware_stack is not None:
        raise RuntimeError("eaf.web must be installed before the app starts")
    app.state.eaf_web = limits or RequestLimits()
    # Starlette answers a path with a trailing slash (or a key holding %2F) by a 307 to
    # the URL without it, built from the Host header: an open redirect behind a proxy,
    # a body posted again, and a status no operation documents. Such a path is a 404.
    app.router.redirect_slashes = False
    app.user_middleware.append(Middleware(UnhandledErrorMiddleware))
    app.user_middleware.append(
        Middleware(BodyLimitMiddleware, limits=app.state.eaf_web)
    )
    app.user_middleware.append(Middleware(HeadAsGetMiddleware))
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)
    document_body_problems(app)
