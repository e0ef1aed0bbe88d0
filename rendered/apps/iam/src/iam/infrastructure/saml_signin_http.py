"""The SAML buttons of a realm's sign-in page: the start of a login for the page's form,
and the browser's return, once the ACS accepted the response, for its session."""

from typing import Annotated
from urllib.parse import quote, urlencode

from eaf.web import AnsweringRoute
from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse

from iam.application.identity import ConflictError
from iam.application.ports.saml import SamlError
from iam.application.saml_login import ProviderDisabledError, SamlLogin
from iam.application.saml_signin import SamlSignIn
from iam.application.signin import SignIn, SignInFormError
from iam.domain.errors import DomainValidationError, NotFoundError
from iam.infrastructure.oidc_http import (
    BROWSER_COOKIE,
    PAGES,
    REALM,
    SignInCases,
    TenantRealm,
    session_started,
)
from iam.infrastructure.saml_http import browser_request, identity_answer
from iam.infrastructure.signin_pages import error_page

router = APIRouter(tags=["openid-connect"], route_class=AnsweringRoute)

SAML = REALM + "/saml/{alias}"
CONTINUE_PATH = "/continue"


def saml_signin_of(request: Request) -> SamlSignIn:
    wired: SamlSignIn = request.app.state.saml.signin
    return wired


@router.get(
    SAML + "/login",
    response_class=HTMLResponse,
    responses={**PAGES, 200: {"content": {"text/html": {}}}},
)
async def saml_signin_start(
    request: Request,
    realm: TenantRealm,
    alias: str,
    signin: SignInCases,
    form: Annotated[str, Query(max_length=200)] = "",
) -> Response:
    """The button of a sign-in page: to the identity provider ``alias``, for the page's
    form (which must be this browser's)."""
    try:
        await signin.pending(realm, form, request.cookies.get(BROWSER_COOKIE, ""))
        outgoing = await saml_signin_of(request).start(realm, alias, form)
    except SignInFormError as error:
        return error_page(str(error))
    except (NotFoundError, ProviderDisabledError):
        return error_page("this identity provider is not available", status=404)
    return browser_request(outgoing)


@router.get(
    SAML + CONTINUE_PATH,
    response_class=HTMLResponse,
    responses={**PAGES, 200: {"content": {"text/html": {}}}},
)
async def saml_signin_continue(
    request: Request,
    realm: TenantRealm,
    alias: str,
    signin: SignInCases,
    token: Annotated[str, Query(max_length=200)] = "",
) -> Response:
    """Back from the assertion consumer service: the session of the browser that
    showed the sign-in form, and on to the client."""
    arrival = await saml_signin_of(request).resume(realm, token)
    if arrival is None:
        return error_page("this sign-in expired: start again")
    try:
        signed = await signin.sign_in_as(
            realm,
            arrival.form_id,
            request.cookies.get(BROWSER_COOKIE, ""),
            arrival.user_id,
        )
    except SignInFormError as error:
        return error_page(str(error))
    return await session_started(request, realm, signed, signin)


async def continue_in_browser(request: Request, login: SamlLogin) -> Response:
    """The ACS's completion: a login started from a sign-in page signs its identity in
    and sends the browser back to its realm; any other shows the identity."""
    try:
        arrived = await saml_signin_of(request).arrive(login)
    except SamlError as error:
        return error_page(str(error), status=403)
    except ConflictError as error:
        # the identity matches no user it may take (a local user has its name...)
        return error_page(str(error), status=409)
    except DomainValidationError as error:
        return error_page(
            f"the identity provider gave no valid {error.field or 'value'}: {error.message}"
        )
    if arrived is None:
        return await identity_answer(request, login)
    signin: SignIn = request.app.state.signin
    issuer = signin.issuer_of(arrived.realm_name)
    alias = quote(login.identity.provider_alias, safe="")
    location = (
        f"{issuer}/saml/{alias}{CONTINUE_PATH}?{urlencode({'token': arrived.token})}"
    )
    return Response(
        status_code=303, headers={"Location": location, "Cache-Control": "no-store"}
    )
