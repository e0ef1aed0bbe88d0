"""Each tenant as an OpenID provider of its own, at ``{issuer}/realms/{tenant}``: its
discovery documents, the authorization endpoint with the sign-in page, and the token,
userinfo, logout, JWKS, revocation and introspection endpoints."""

import secrets
from collections import Counter
from dataclasses import replace
from typing import Annotated, Any
from urllib.parse import quote, urlencode, urljoin

from eaf.security import SIGNING_ALGORITHM
from eaf.web import (
    PROBLEM_TYPE,
    AnsweringRoute,
    Problem,
    ResponseError,
    component,
    problem,
)
from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from iam_client import bearer_token
from starlette.exceptions import HTTPException

from iam.application.oauth import (
    OIDC_SCOPES,
    InactiveTokenError,
    OAuthError,
    Realm,
    TooManyAttemptsError,
)
from iam.application.ports.signin import ExternalProvider
from iam.application.signin import (
    AuthorizationError,
    AuthorizationRequest,
    BrowserSession,
    InvalidAuthorizationRequestError,
    SignedIn,
    SignIn,
    SignInFormError,
    UnknownRealmError,
)
from iam.infrastructure.api_tokens import (
    CLIENT,
    CLIENT_SECRET_METHODS,
    Tokens,
    introspecting_tenant,
)
from iam.infrastructure.oauth_http import (
    NO_STORE,
    client_credentials,
    oauth_error,
    oauth_errors,
    oauth_request,
    oauth_variants,
    parameters,
    required,
    throttled,
)
from iam.infrastructure.signin_pages import (
    consent_page,
    error_page,
    signed_out_page,
    signin_page,
)

router = APIRouter(tags=["openid-connect"], route_class=AnsweringRoute)

REALM = "/realms/{realm}"
SESSION_COOKIE = "iam_session"
BROWSER_COOKIE = "iam_browser"
ENDPOINTS = {
    "authorization_endpoint": "/authorize",
    "token_endpoint": "/token",
    "userinfo_endpoint": "/userinfo",
    "end_session_endpoint": "/logout",
    "jwks_uri": "/jwks",
    "revocation_endpoint": "/revoke",
    "introspection_endpoint": "/introspect",
}
SIGNIN_PATH, CONSENT_PATH = "/login", "/consent"
MAX_FORM_FIELDS = 8
_PROBLEM = {"model": Problem, "content": {PROBLEM_TYPE: {}}}
REALM_PROBLEMS: dict[int | str, dict[str, Any]] = {
    404: {**_PROBLEM, "description": "No active tenant has this name or id"},
    422: {**_PROBLEM, "description": "The realm in the path is too long"},
}
_HTML: dict[str, Any] = {"content": {"text/html": {}}}
USERINFO_ERRORS: dict[int | str, dict[str, Any]] = {
    **REALM_PROBLEMS,
    401: {"description": "No valid bearer token of this realm (see WWW-Authenticate)"},
    403: {"description": "The token has no openid scope"},
}


def form_body(**fields: str) -> dict[str, Any]:
    """The OpenAPI request body of a page's form (``fields``: name to description)."""
    schema = {
        "type": "object",
        "properties": {
            name: {"type": "string", "description": text}
            for name, text in fields.items()
        },
        "required": list(fields),
    }
    content = {"application/x-www-form-urlencoded": {"schema": schema}}
    return {"requestBody": {"required": True, "content": content}}


PAGES: dict[int | str, dict[str, Any]] = {
    **REALM_PROBLEMS,
    303: {"description": "On to the client's redirect URI"},
    400: {**_HTML, "description": "An error page (never a redirect)"},
}


SignInCases = Annotated[SignIn, Depends(component("signin"))]


async def realm_of(
    realm: Annotated[str, Path(max_length=300)], signin: SignInCases
) -> Realm:
    """The realm of the path: an active tenant, by name or id (404 otherwise)."""
    try:
        return await signin.realm(realm)
    except UnknownRealmError:
        raise ResponseError(
            problem(404, "Not found", "no active tenant has this name or id", [])
        ) from None


TenantRealm = Annotated[Realm, Depends(realm_of)]


@router.get(REALM + "/.well-known/openid-configuration", responses=REALM_PROBLEMS)
@router.get(REALM + "/.well-known/oauth-authorization-server", responses=REALM_PROBLEMS)
async def realm_metadata(realm: TenantRealm) -> JSONResponse:
    """OpenID Connect Discovery 1.0 and RFC 8414 metadata of the tenant's realm: only
    what is implemented."""
    metadata: dict[str, Any] = {"issuer": realm.issuer}
    metadata.update({name: realm.issuer + path for name, path in ENDPOINTS.items()})
    metadata.update(
        {
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": [SIGNING_ALGORITHM],
            "scopes_supported": list(OIDC_SCOPES),
            "claims_supported": [
                "iss",
                "sub",
                "aud",
                "exp",
                "iat",
                "auth_time",
                "nonce",
                "azp",
                "preferred_username",
                "email",
            ],
            "prompt_values_supported": ["none", "login", "consent"],
            "token_endpoint_auth_methods_supported": [*CLIENT_SECRET_METHODS, "none"],
            "revocation_endpoint_auth_methods_supported": [
                *CLIENT_SECRET_METHODS,
                "none",
            ],
            "introspection_endpoint_auth_methods_supported": CLIENT_SECRET_METHODS,
            "authorization_response_iss_parameter_supported": True,
            "request_parameter_supported": False,
            "request_uri_parameter_supported": False,
            "claims_parameter_supported": False,
        }
    )
    return JSONResponse(metadata, headers={"Cache-Control": "public, max-age=60"})


@router.get(REALM + ENDPOINTS["jwks_uri"], responses=REALM_PROBLEMS)
async def realm_jwks(realm: TenantRealm, tokens: Tokens) -> JSONResponse:
    """The public keys of the realm's tokens (every realm's: one key ring)."""
    return JSONResponse(tokens.jwks(), headers={"Cache-Control": "public, max-age=60"})


def _cookie_path(realm: Realm) -> str:
    return "/realms/" + quote(realm.name, safe="")


def _set_cookie(
    response: Response, realm: Realm, name: str, value: str, *, secure: bool
) -> None:
    response.set_cookie(
        name,
        value,
        path=_cookie_path(realm),
        httponly=True,
        secure=secure,
        samesite="lax",
    )


def _see_other(location: str) -> RedirectResponse:
    return RedirectResponse(location, status_code=303, headers=NO_STORE)


async def _query_or_form(request: Request) -> dict[str, str]:
    if request.method == "GET":
        items = list(request.query_params.multi_items())
    else:
        try:
            form = await request.form(max_fields=32, max_files=0)
        except HTTPException:
            raise InvalidAuthorizationRequestError("unreadable form") from None
        items = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]
    repeated = [
        name for name, count in Counter(k for k, _ in items).items() if count > 1
    ]
    if repeated or len(items) > 32:
        raise InvalidAuthorizationRequestError("repeated or too many parameters")
    return {name: value for name, value in items if value != ""}


@router.get(
    REALM + ENDPOINTS["authorization_endpoint"],
    response_class=HTMLResponse,
    responses=PAGES,
)
@router.post(
    REALM + ENDPOINTS["authorization_endpoint"],
    operation_id="authorize_by_form",
    response_class=HTMLResponse,
    responses=PAGES,
)
async def authorize(
    request: Request, realm: TenantRealm, signin: SignInCases
) -> Response:
    """The authorization endpoint (RFC 6749 §4.1.1, with PKCE): the sign-in page, or
    straight back to the client while the browser's session lasts. A request whose
    client or redirect URI is not registered gets an error page, never a redirect."""
    try:
        params = await _query_or_form(request)
        asked = await signin.authorization_request(realm, params)
    except InvalidAuthorizationRequestError as error:
        return error_page(str(error))
    except AuthorizationError as error:
        return _see_other(error.location)
    session = await signin.session(realm, request.cookies.get(SESSION_COOKIE))
    if session is not None and "login" not in asked.prompt:
        return await _signed_in(request, asked, session, signin)
    if "none" in asked.prompt:
        return _see_other(asked.redirect(error="login_required"))
    return await _signin_form(request, asked, signin)


async def _signed_in(
    request: Request,
    asked: AuthorizationRequest,
    session: BrowserSession,
    signin: SignIn,
) -> Response:
    if asked.client.first_party and "consent" not in asked.prompt:
        return _see_other(await signin.issue_code(asked, session))
    if "none" in asked.prompt:
        return _see_other(asked.redirect(error="consent_required"))
    browser, fresh = _browser(request)
    form_id = await signin.show_form(asked, browser, session)
    response = consent_page(
        action=asked.realm.issuer + CONSENT_PATH,
        form_id=form_id,
        realm=asked.realm.name,
        client_name=asked.client.name or asked.client.client_id,
        scope=asked.scope,
    )
    if fresh:
        _set_cookie(response, asked.realm, BROWSER_COOKIE, browser, secure=signin.https)
    return response


def _browser(request: Request) -> tuple[str, bool]:
    """This browser's sign-in cookie (the CSRF binding of its forms), and whether it
    is new."""
    known = request.cookies.get(BROWSER_COOKIE)
    if known and 20 <= len(known) <= 100:
        return known, False
    return secrets.token_urlsafe(32), True


async def _signin_form(
    request: Request,
    asked: AuthorizationRequest,
    signin: SignIn,
    *,
    form_id: str | None = None,
    username: str = "",
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> HTMLResponse:
    browser, fresh = _browser(request)
    if form_id is None:
        form_id = await signin.show_form(asked, browser)
    response = signin_page(
        action=asked.realm.issuer + SIGNIN_PATH,
        form_id=form_id,
        realm=asked.realm.name,
        client_name=asked.client.name or asked.client.client_id,
        username=username,
        errors=errors,
        providers=[
            _bound(provider, asked.realm, form_id)
            for provider in await signin.providers(asked.realm)
        ],
        status=status,
    )
    if fresh:
        _set_cookie(response, asked.realm, BROWSER_COOKIE, browser, secure=signin.https)
    return response


def _bound(provider: ExternalProvider, realm: Realm, form_id: str) -> ExternalProvider:
    """A provider's button for this form: its URL (relative ones to the realm's issuer)
    carries the form's token, binding the external sign-in to the pending request."""
    url = urljoin(realm.issuer + "/", provider.url)
    separator = "&" if "?" in url else "?"
    return replace(provider, url=f"{url}{separator}{urlencode({'form': form_id})}")


async def _form(request: Request) -> dict[str, str]:
    try:
        form = await request.form(max_fields=MAX_FORM_FIELDS, max_files=0)
    except HTTPException:
        return {}
    return {k: v for k, v in form.items() if isinstance(v, str)}


@router.post(
    REALM + SIGNIN_PATH,
    response_class=HTMLResponse,
    openapi_extra=form_body(
        form="the form's token (its hidden field)", username="", password=""
    ),
    responses={
        **PAGES,
        429: {**_HTML, "description": "Too many failed attempts (see Retry-After)"},
    },
)
async def sign_in(
    request: Request, realm: TenantRealm, signin: SignInCases
) -> Response:
    """The sign-in form's answer: the password is checked as the password grant checks
    it (same throttling); a wrong one shows the form again with the error."""
    form = await _form(request)
    form_id, browser = form.get("form", ""), request.cookies.get(BROWSER_COOKIE, "")
    try:
        pending = await signin.pending(realm, form_id, browser)
    except SignInFormError as error:
        return error_page(str(error))
    username, password = form.get("username", ""), form.get("password", "")
    missing = {
        name: f"Enter your {name}."
        for name, value in (("username", username), ("password", password))
        if not value
    }
    if missing:
        return await _signin_form(
            request,
            pending.request,
            signin,
            form_id=form_id,
            username=username,
            errors=missing,
            status=400,
        )
    try:
        signed = await signin.sign_in(realm, form_id, browser, username, password)
    except OAuthError:
        return await _signin_form(
            request,
            pending.request,
            signin,
            form_id=form_id,
            username=username,
            errors={"password": "Wrong username or password."},
            status=400,
        )
    except TooManyAttemptsError as error:
        response = await _signin_form(
            request,
            pending.request,
            signin,
            form_id=form_id,
            username=username,
            errors={
                "form": "Too many failed attempts for this account: try again in"
                f" {error.retry_after} seconds."
            },
            status=429,
        )
        response.headers["Retry-After"] = str(error.retry_after)
        return response
    return await session_started(request, realm, signed, signin)


async def session_started(
    request: Request,
    realm: Realm,
    signed: SignedIn,
    signin: SignIn,
) -> Response:
    """The answer to a browser just signed in (by password or by an external identity
    provider): its session cookie, and the code for the client or the consent form."""
    answer = await _signed_in(request, signed.request, signed.session, signin)
    _set_cookie(answer, realm, SESSION_COOKIE, signed.session_id, secure=signin.https)
    return answer


@router.post(
    REALM + CONSENT_PATH,
    response_class=HTMLResponse,
    responses=PAGES,
    openapi_extra=form_body(
        form="the form's token (its hidden field)", decision="allow or deny"
    ),
)
async def consent(
    request: Request, realm: TenantRealm, signin: SignInCases
) -> Response:
    """The consent form's answer: a code, or ``access_denied``, for the client."""
    form = await _form(request)
    try:
        location = await signin.consent(
            realm,
            form.get("form", ""),
            request.cookies.get(BROWSER_COOKIE, ""),
            allowed=form.get("decision") == "allow",
        )
    except SignInFormError as error:
        return error_page(str(error))
    return _see_other(location)


@router.post(
    REALM + ENDPOINTS["token_endpoint"],
    responses={**oauth_errors(400, 401, 429), **REALM_PROBLEMS},
    openapi_extra=oauth_variants(
        {
            "grant_type=": "authorization_code",
            "code*": "the code the redirect URI received",
            "redirect_uri*": "the redirect URI of the authorization request",
            "code_verifier": "the PKCE verifier (RFC 7636)",
            **CLIENT,
        },
        {
            "grant_type=": "refresh_token",
            "refresh_token*": "the refresh token",
            "scope": "narrows the scope first granted",
            **CLIENT,
        },
    ),
)
async def realm_token(
    request: Request, realm: TenantRealm, signin: SignInCases, tokens: Tokens
) -> JSONResponse:
    """The realm's token endpoint: ``authorization_code`` (with the PKCE verifier) and
    ``refresh_token``, for the realm's registered clients."""
    params = await parameters(request)
    credentials = replace(client_credentials(request, params), tenant=realm.tenant_id)
    grant_type = params.get("grant_type")
    try:
        if grant_type == "authorization_code":
            (code,) = required(params, "code")
            client = await tokens.authenticate_client(credentials)
            if client.registered is None:
                raise OAuthError("unauthorized_client", "not a registered client")
            issued = await signin.redeem(
                realm,
                client,
                code=code,
                redirect_uri=params.get("redirect_uri"),
                verifier=params.get("code_verifier"),
            )
        elif grant_type == "refresh_token":
            (refresh_token,) = required(params, "refresh_token")
            issued = await tokens.refresh_grant(
                refresh_token=refresh_token,
                scope=params.get("scope"),
                client=credentials,
                realm=realm,
            )
        elif grant_type is None:
            raise OAuthError("invalid_request", "missing parameters: grant_type")
        else:
            raise OAuthError(
                "unsupported_grant_type", f"grant type {grant_type!r} is not supported"
            )
    except OAuthError as error:
        raise oauth_error(error) from None
    except TooManyAttemptsError as error:
        raise throttled(error) from None
    return JSONResponse(issued.body(), headers=NO_STORE)


@router.get(REALM + ENDPOINTS["userinfo_endpoint"], responses=USERINFO_ERRORS)
@router.post(
    REALM + ENDPOINTS["userinfo_endpoint"],
    operation_id="userinfo_by_post",
    responses=USERINFO_ERRORS,
)
async def userinfo(
    request: Request, realm: TenantRealm, signin: SignInCases
) -> JSONResponse:
    """OpenID Connect userinfo: the claims about the bearer token's user."""
    token = bearer_token(request)
    try:
        if token is None:
            raise InactiveTokenError("a bearer token is required")
        claims = await signin.userinfo(realm, token)
    except InactiveTokenError as error:
        return JSONResponse(
            {"error": "invalid_token", "error_description": error.reason},
            status_code=401,
            headers={**NO_STORE, "WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    except OAuthError as error:
        return JSONResponse(
            {"error": error.error, "error_description": error.description},
            status_code=error.status,
            headers={
                **NO_STORE,
                "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="openid"',
            },
        )
    return JSONResponse(claims, headers=NO_STORE)


@router.get(
    REALM + ENDPOINTS["end_session_endpoint"],
    response_class=HTMLResponse,
    responses=PAGES,
)
@router.post(
    REALM + ENDPOINTS["end_session_endpoint"],
    operation_id="end_session_by_form",
    response_class=HTMLResponse,
    responses=PAGES,
)
async def end_session(
    request: Request, realm: TenantRealm, signin: SignInCases
) -> Response:
    """RP-initiated logout: ends the browser's session at the realm, then back to a
    registered ``post_logout_redirect_uri`` (identified by ``id_token_hint`` or
    ``client_id``), or a signed-out page."""
    try:
        params = await _query_or_form(request)
        location = await signin.end_session(
            realm,
            request.cookies.get(SESSION_COOKIE),
            id_token_hint=params.get("id_token_hint"),
            post_logout_redirect_uri=params.get("post_logout_redirect_uri"),
            client_id=params.get("client_id"),
            state=params.get("state"),
        )
    except InvalidAuthorizationRequestError as error:
        response: Response = error_page(str(error))
    else:
        response = (
            signed_out_page(realm.name) if location is None else _see_other(location)
        )
    response.delete_cookie(
        SESSION_COOKIE,
        path=_cookie_path(realm),
        httponly=True,
        secure=signin.https,
        samesite="lax",
    )
    return response


@router.post(
    REALM + ENDPOINTS["revocation_endpoint"],
    response_class=Response,
    responses={
        200: {"description": "Revoked, or unknown already, or another client's"},
        **oauth_errors(400, 401, 429),
        **REALM_PROBLEMS,
    },
    openapi_extra=oauth_request(
        **{"token*": "a refresh token or an access token"},
        token_type_hint="refresh_token or access_token (optional)",
        **CLIENT,
    ),
)
async def realm_revoke(
    request: Request, realm: TenantRealm, tokens: Tokens
) -> Response:
    """RFC 7009 at the realm, for its clients."""
    params = await parameters(request)
    (presented,) = required(params, "token")
    credentials = replace(client_credentials(request, params), tenant=realm.tenant_id)
    try:
        await tokens.revoke(presented, credentials)
    except OAuthError as error:
        raise oauth_error(error) from None
    except TooManyAttemptsError as error:
        raise throttled(error) from None
    return Response(status_code=200, headers=NO_STORE)


@router.post(
    REALM + ENDPOINTS["introspection_endpoint"],
    responses={
        **oauth_errors(400, 401, 429, problems=(400, 401)),
        **REALM_PROBLEMS,
    },
    openapi_extra=oauth_request(
        **{"token*": "the token to describe"},
        client_id="client authentication in the body (or HTTP Basic, or a bearer token)",
        client_secret="client authentication in the body",
    ),
)
async def realm_introspect(
    request: Request, realm: TenantRealm, tokens: Tokens
) -> JSONResponse:
    """RFC 7662 at the realm: active tokens of this realm's tenant only."""
    params = await parameters(request)
    (presented,) = required(params, "token")
    params["tenant"] = realm.tenant_id
    caller_tenant = await introspecting_tenant(request, params, tokens)
    answer = await tokens.introspect(presented, caller_tenant=caller_tenant)
    if answer.get("active") and answer.get("tenant_id") != realm.tenant_id:
        answer = {"active": False}
    return JSONResponse(answer, headers=NO_STORE)
