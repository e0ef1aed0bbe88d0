"""The OAuth 2.0 endpoints: token (RFC 6749), revocation (RFC 7009), introspection
(RFC 7662), the JWKS and the provider metadata, and signing key rotation."""

import base64
import binascii
from typing import Any
from urllib.parse import unquote_plus

from eaf.security import SIGNING_ALGORITHM
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from iam.application.identity import KEYS_WRITE, tenant_reference
from iam.application.oauth import OAuthError, TooManyAttemptsError
from iam.infrastructure.http import (
    Caller,
    IdentityCases,
    ProblemRoute,
    ResponseError,
    platform_admin,
    verified_caller,
)

router = APIRouter(tags=["oauth"], route_class=ProblemRoute)

TOKEN_PATH = "/api/v1/auth/token"
REVOCATION_PATH = "/api/v1/auth/revoke"
INTROSPECTION_PATH = "/api/v1/auth/introspect"
JWKS_PATH = "/.well-known/jwks.json"
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
GRANT_TYPES = ["password", "client_credentials", "refresh_token"]


def oauth_error(error: OAuthError) -> ResponseError:
    headers = dict(NO_STORE)
    if error.status == 401:
        headers["WWW-Authenticate"] = 'Basic realm="iam"'
    return ResponseError(
        JSONResponse(
            {"error": error.error, "error_description": error.description},
            status_code=error.status,
            headers=headers,
        )
    )


def throttled(error: TooManyAttemptsError) -> ResponseError:
    return ResponseError(
        JSONResponse(
            {"error": "temporarily_unavailable", "error_description": str(error)},
            status_code=429,
            headers={**NO_STORE, "Retry-After": str(error.retry_after)},
        )
    )


async def parameters(request: Request) -> dict[str, str]:
    """The request's parameters: form-encoded (RFC 6749) or a JSON object; an empty
    value counts as omitted, a repeated one is an invalid request."""
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            data = await request.json()
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise oauth_error(OAuthError("invalid_request", "expected a JSON object"))
        items = [(str(k), v if isinstance(v, str) else str(v)) for k, v in data.items()]
    else:
        form = await request.form()
        items = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]
    names = [name for name, _ in items]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise oauth_error(
            OAuthError("invalid_request", f"repeated parameters: {', '.join(repeated)}")
        )
    return {name: value for name, value in items if value != ""}


def client_credentials(
    request: Request, params: dict[str, str]
) -> tuple[str, str] | None:
    """The client id and secret of HTTP Basic (RFC 6749 §2.3.1) or the form."""
    scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
    basic = None
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(encoded.strip(), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            raise oauth_error(
                OAuthError("invalid_client", "malformed Basic credentials", 401)
            ) from None
        client_id, colon, secret = decoded.partition(":")
        if not colon:
            raise oauth_error(
                OAuthError("invalid_client", "malformed Basic credentials", 401)
            )
        basic = (unquote_plus(client_id), unquote_plus(secret))
    in_form = "client_secret" in params
    if basic and in_form:
        raise oauth_error(
            OAuthError("invalid_request", "use one client authentication method")
        )
    if in_form:
        return params.get("client_id", ""), params["client_secret"]
    return basic


def required(params: dict[str, str], *names: str) -> list[str]:
    missing = [name for name in names if name not in params]
    if missing:
        raise oauth_error(
            OAuthError("invalid_request", f"missing parameters: {', '.join(missing)}")
        )
    return [params[name] for name in names]


@router.post(TOKEN_PATH)
async def token(request: Request, wired: IdentityCases) -> JSONResponse:
    """RFC 6749 token endpoint: grants ``password`` (``tenant`` by id or name),
    ``client_credentials`` (with ``tenant``) and ``refresh_token``."""
    params = await parameters(request)
    tokens = wired.tokens
    grant_type = params.get("grant_type")
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
                client_id=params.get("client_id"),
            )
        elif grant_type == "client_credentials":
            credentials = client_credentials(request, params)
            if credentials is None:
                raise OAuthError("invalid_client", "client authentication failed", 401)
            issued = await tokens.client_credentials_grant(
                tenant=params.get("tenant"),
                client_id=credentials[0],
                secret=credentials[1],
                scope=params.get("scope"),
            )
        elif grant_type == "refresh_token":
            (refresh_token,) = required(params, "refresh_token")
            issued = await tokens.refresh_grant(
                refresh_token=refresh_token,
                scope=params.get("scope"),
                client_id=params.get("client_id"),
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


@router.post(REVOCATION_PATH)
async def revoke(request: Request, wired: IdentityCases) -> Response:
    """RFC 7009: revoke a refresh token (its whole family) or an access token; 200 even
    for a token that is unknown or revoked already."""
    params = await parameters(request)
    (presented,) = required(params, "token")
    await wired.tokens.revoke(presented)
    return Response(status_code=200, headers=NO_STORE)


@router.post(INTROSPECTION_PATH)
async def introspect(request: Request, wired: IdentityCases) -> JSONResponse:
    """RFC 7662, for callers with a valid bearer token or client credentials (a client
    of the token's tenant, or of ``tenant``): ``{"active": false}`` unless active."""
    params = await parameters(request)
    (presented,) = required(params, "token")
    caller_tenant = await _introspecting_tenant(request, params, wired)
    answer = await wired.tokens.introspect(presented, caller_tenant=caller_tenant)
    return JSONResponse(answer, headers=NO_STORE)


async def _introspecting_tenant(
    request: Request, params: dict[str, str], wired: IdentityCases
) -> str:
    caller: Caller | None = await verified_caller(request, wired)
    if caller is not None:
        return caller.scope_tenant
    credentials = client_credentials(request, params)
    tenant = params.get("tenant") or await wired.tokens.tenant_of(params["token"])
    if credentials is None or tenant is None:
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
        await wired.tokens.authenticate_client(tenant, *credentials)
    except OAuthError as error:
        raise oauth_error(error) from None
    except TooManyAttemptsError as error:
        raise throttled(error) from None
    return tenant_reference(tenant)


@router.get(JWKS_PATH)
async def jwks(wired: IdentityCases) -> JSONResponse:
    """The public keys of every published signing key."""
    return JSONResponse(
        wired.tokens.jwks(), headers={"Cache-Control": "public, max-age=60"}
    )


@router.get("/.well-known/openid-configuration")
async def provider_metadata(wired: IdentityCases) -> dict[str, Any]:
    """Authorization server metadata (RFC 8414 fields, served at the OIDC path)."""
    base = wired.issuer.rstrip("/")
    return {
        "issuer": wired.issuer,
        "token_endpoint": base + TOKEN_PATH,
        "jwks_uri": base + JWKS_PATH,
        "introspection_endpoint": base + INTROSPECTION_PATH,
        "revocation_endpoint": base + REVOCATION_PATH,
        "grant_types_supported": GRANT_TYPES,
        "response_types_supported": ["token"],
        "subject_types_supported": ["public"],
        "token_endpoint_auth_methods_supported": [
            "client_secret_basic",
            "client_secret_post",
            "none",
        ],
        "introspection_endpoint_auth_methods_supported": [
            "client_secret_basic",
            "client_secret_post",
            "bearer",
        ],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "id_token_signing_alg_values_supported": [SIGNING_ALGORITHM],
        "token_endpoint_auth_signing_alg_values_supported": [SIGNING_ALGORITHM],
    }


@router.post(
    "/api/v1/auth/keys/rotate", dependencies=[Depends(platform_admin(KEYS_WRITE))]
)
async def rotate_keys(wired: IdentityCases) -> dict[str, Any]:
    """Sign new tokens with a new key; the old keys stay published until their tokens
    expire (platform administrators only)."""
    kid = wired.tokens.rotate_keys()
    return {
        "kid": kid,
        "published": [key["kid"] for key in wired.tokens.jwks()["keys"]],
    }
