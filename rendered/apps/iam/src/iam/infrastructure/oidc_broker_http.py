"""The browser side of identity brokering at a realm: a provider's button leads to
``/broker/{alias}/login``, which sends the browser to the provider; the provider sends
it back to ``/broker/{alias}/endpoint``, which signs it in and answers the pending
authorization request as a password sign-in does."""

from typing import Annotated, Any

from eaf.web import AnsweringRoute
from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import HTMLResponse

from iam.application.brokering import BrokerError, Brokering
from iam.infrastructure.oidc_http import (
    BROWSER_COOKIE,
    PAGES,
    REALM,
    SESSION_COOKIE,
    SignInCases,
    TenantRealm,
    _see_other,
    _set_cookie,
    _signed_in,
)
from iam.infrastructure.signin_pages import error_page

router = APIRouter(tags=["openid-connect"], route_class=AnsweringRoute)

BROKER = REALM + "/broker/{alias}"
CALLBACK_PARAMETERS = ("code", "state", "iss", "error", "error_description")
_HTML: dict[str, Any] = {"content": {"text/html": {}}}
BROKER_PAGES: dict[int | str, dict[str, Any]] = {
    **PAGES,
    403: {**_HTML, "description": "The provider refused, or the user is disabled"},
    409: {**_HTML, "description": "The identity matches no user it may take"},
    502: {**_HTML, "description": "The provider cannot be reached or answered wrong"},
}


def brokering_of(request: Request) -> Brokering:
    brokering: Brokering = request.app.state.brokering
    return brokering


BrokeringCases = Annotated[Brokering, Depends(brokering_of)]
Alias = Annotated[str, Path(max_length=40)]


@router.get(BROKER + "/login", response_class=HTMLResponse, responses=BROKER_PAGES)
async def broker_login(
    request: Request,
    realm: TenantRealm,
    alias: Alias,
    brokering: BrokeringCases,
    form: Annotated[str, Query(max_length=100)] = "",
) -> Response:
    """Off to the provider ``alias`` for the sign-in form ``form`` of this browser."""
    try:
        location = await brokering.start(
            realm,
            alias,
            form,
            request.cookies.get(BROWSER_COOKIE, ""),
            redirect_uri=f"{realm.issuer}/broker/{alias}/endpoint",
        )
    except BrokerError as error:
        return error_page(str(error), error.status)
    return _see_other(location)


@router.get(BROKER + "/endpoint", response_class=HTMLResponse, responses=BROKER_PAGES)
async def broker_endpoint(
    request: Request,
    realm: TenantRealm,
    alias: Alias,
    brokering: BrokeringCases,
    signin: SignInCases,
) -> Response:
    """The provider's answer (its redirect URI): on to the client with a code, or an
    error page."""
    params = {
        name: value[:2000]
        for name in CALLBACK_PARAMETERS
        if (value := request.query_params.get(name))
    }
    try:
        signed = await brokering.finish(
            realm, alias, params, request.cookies.get(BROWSER_COOKIE, "")
        )
    except BrokerError as error:
        return error_page(str(error), error.status)
    answer = await _signed_in(request, signed.request, signed.session, signin)
    _set_cookie(answer, realm, SESSION_COOKIE, signed.session_id, secure=signin.https)
    return answer
