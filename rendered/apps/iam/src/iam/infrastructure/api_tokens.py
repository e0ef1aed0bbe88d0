"""The OAuth 2.0 endpoints: token (RFC 6749), revocation (RFC 7009), introspection
(RFC 7662), the JWKS and the provider metadata, and signing key rotation."""

from typing import Annotated, Any

from eaf.security import TokenIssuer
from eaf.web import AnsweringRoute, ResponseError, component
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from iam_client import AuthenticationError, bearer_token

from iam.application.identity import PLATFORM
from iam.application.oauth import InactiveTokenError, OAuthError, TooManyAttemptsError
from iam.application.tokens import TokenService
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

router = APIRouter(tags=["oauth"], route_class=AnsweringRoute)
Tokens = Annotated[TokenService, Depends(component("tokens"))]
Issuer = Annotated[TokenIssuer, Depends(component("token_issuer"))]

TOKEN_PATH = "/api/v1/auth/token"
REVOCATION_PATH = "/api/v1/auth/revoke"
INTROSPECTION_PATH = "/api/v1/auth/introspect"
JWKS_PATH = "/.well-known/jwks.json"
GRANT_TYPES = ["password", "client_credentials", "refresh_token"]
SCOPE = "narrows the granted permissions (space-separated)"
CLIENT = {
    "client_id": "the client (or in HTTP Basic); without a secret, only the public"
    " client iam",
    "client_secret": "the confidential client's secret, unless HTTP Basic is used",
}
CLIENT_TENANT = "the client's tenant (id or name), when its client id is not enough"


@router.post(
    TOKEN_PATH,
    responses=oauth_errors(400, 401, 429, 503),
    openapi_extra=oauth_variants(
        {
            "grant_type=": "password",
            "tenant*": "the tenant's id or name",
            "username*": "the user's name",
            "password*": "the user's password",
            "scope": SCOPE,
            **CLIENT,
        },
        {
            "grant_type=": "client_credentials",
            "tenant": CLIENT_TENANT,
            **CLIENT,
            "scope": SCOPE,
        },
        {
            "grant_type=": "refresh_token",
            "refresh_token*": "the refresh token",
            "scope": SCOPE,
            **CLIENT,
            "tenant": CLIENT_TENANT,
        },
    ),
)
async def token(request: Request, tokens: Tokens) -> JSONResponse:
    """RFC 6749 token endpoint: grants ``password`` (``tenant`` by id or name),
    ``client_credentials`` and ``refresh_token``, for the authenticated client (HTTP
    Basic or ``client_secret`` in the body) or the public client ``iam``."""
    params = await parameters(request)
    grant_type = params.get("grant_type")
    client = client_credentials(request, params)
    try:
        if grant_type is None:
            raise OAuthError("invalid_request", "missing parameters: grant_type")
        if grant_type == "password":
            tenant, username, password = required(
                params, "tenant", "username", "password"
            )
            issued = await tokens.password_grant(
                tenant=tenant,
                username=username,
                password=password,
                scope=params.get("scope"),
                client=client,
            )
        elif grant_type == "client_credentials":
            issued = await tokens.client_credentials_grant(
                client=client, scope=params.get("scope")
            )
        elif grant_type == "refresh_token":
            (refresh_token,) = required(params, "refresh_token")
            issued = await tokens.refresh_grant(
                refresh_token=refresh_token,
                scope=params.get("scope"),
                client=client,
            )
        else:
            raise OAuthError(
                "unsupported_grant_type", f"grant type {grant_type!r} is not supported"
            )
    except OAuthError as error:
        raise oauth_error(error) from None
    except TooManyAttemptsError as error:
        raise throttled(error) from None
    return JSONResponse(issued.body(), headers=NO_STORE)


@router.post(
    REVOCATION_PATH,
    response_class=Response,
    responses={
        200: {
            "description": "Revoked, or unknown already, or another client's:"
            " no content"
        },
        **oauth_errors(400, 401, 429),
    },
    openapi_extra=oauth_request(
        **{"token*": "a refresh token or an access token"},
        token_type_hint="refresh_token or access_token (optional)",
        **CLIENT,
        tenant=CLIENT_TENANT,
    ),
)
async def revoke(request: Request, tokens: Tokens) -> Response:
    """RFC 7009: revoke a refresh token (its whole family) or an access token issued to
    the authenticated client; 200 even for a token that is unknown, revoked already or
    another client's (which stays valid)."""
    params = await parameters(request)
    (presented,) = required(params, "token")
    try:
        await tokens.revoke(presented, client_credentials(request, params))
    except OAuthError as error:
        raise oauth_error(error) from None
    except TooManyAttemptsError as error:
        raise throttled(error) from None
    return Response(status_code=200, headers=NO_STORE)


@router.post(
    INTROSPECTION_PATH,
    responses=oauth_errors(400, 401, 429, problems=(400, 401)),
    openapi_extra=oauth_request(
        **{"token*": "the token to describe"},
        tenant=CLIENT_TENANT,
        client_id="client authentication in the body (or HTTP Basic, or a bearer token)",
        client_secret="client authentication in the body",
    ),
)
async def introspect(request: Request, tokens: Tokens) -> JSONResponse:
    """RFC 7662, for callers with a valid bearer token or client credentials (a client
    of the token's tenant, or of ``tenant``): ``{"active": false}`` unless active."""
    params = await parameters(request)
    (presented,) = required(params, "token")
    caller_tenant = await introspecting_tenant(request, params, tokens)
    answer = await tokens.introspect(presented, caller_tenant=caller_tenant)
    return JSONResponse(answer, headers=NO_STORE)


async def introspecting_tenant(
    request: Request, params: dict[str, str], tokens: TokenService
) -> str:
    token = bearer_token(request)
    if token is not None:
        try:
            claims = await tokens.authenticate(token)
        except InactiveTokenError as error:
            raise AuthenticationError(error.reason) from None  # 401, as any bearer's
        return claims.tenant_id or PLATFORM
    credentials = client_credentials(request, params)
    if credentials.secret is None:
        raise ResponseError(
            JSONResponse(
                {
                    "error": "invalid_client",
                    "error_description": "authenticate with a bearer token or client credentials",
                },
                status_code=401,
                headers={**NO_STORE, "WWW-Authenticate": 'Bearer, Basic realm="iam"'},
            )
        )
    try:
        client = await tokens.authenticate_client(
            credentials, tenant_hint=await tokens.tenant_of(params["token"])
        )
    except OAuthError as error:
        raise oauth_error(error) from None
    except TooManyAttemptsError as error:
        raise throttled(error) from None
    assert client.tenant_id is not None
    return client.tenant_id


@router.get(JWKS_PATH)
async def jwks(tokens: Tokens) -> JSONResponse:
    """The public keys of every published signing key."""
    return JSONResponse(tokens.jwks(), headers={"Cache-Control": "public, max-age=60"})


CLIENT_SECRET_METHODS = ["client_secret_basic", "client_secret_post"]


@router.get("/.well-known/oauth-authorization-server")
@router.get("/.well-known/openid-configuration")
async def provider_metadata(issuer: Issuer) -> dict[str, Any]:
    """RFC 8414 authorization server metadata (also served at the OIDC discovery path,
    for clients that look there): only what this server implements. There is no
    authorization endpoint, so no response type; ``none`` is the public client."""
    base = issuer.issuer.rstrip("/")
    return {
        "issuer": issuer.issuer,
        "token_endpoint": base + TOKEN_PATH,
        "jwks_uri": base + JWKS_PATH,
        "introspection_endpoint": base + INTROSPECTION_PATH,
        "revocation_endpoint": base + REVOCATION_PATH,
        "grant_types_supported": GRANT_TYPES,
        "response_types_supported": [],
        "token_endpoint_auth_methods_supported": [*CLIENT_SECRET_METHODS, "none"],
        "revocation_endpoint_auth_methods_supported": [*CLIENT_SECRET_METHODS, "none"],
        "introspection_endpoint_auth_methods_supported": CLIENT_SECRET_METHODS,
    }
