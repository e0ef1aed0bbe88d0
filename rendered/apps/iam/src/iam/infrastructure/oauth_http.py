"""How the OAuth endpoints read their parameters (form-encoded or JSON, bounded) and
answer errors (RFC 6749 §5.2), with the OpenAPI description of both."""

import base64
import binascii
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote_plus

from eaf.web import PROBLEM_TYPE, ResponseError
from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from iam.application.oauth import ClientCredentials, OAuthError, TooManyAttemptsError

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
# An OAuth request carries a handful of parameters; the bound keeps every check trivial.
MAX_PARAMETERS = 32


class OAuthErrorBody(BaseModel):
    """An OAuth 2.0 error response (RFC 6749 §5.2, RFC 7009 §2.2.1, RFC 7662 §2.3)."""

    error: str = Field(
        description="invalid_request, invalid_client, invalid_grant, invalid_scope,"
        " unauthorized_client, unsupported_grant_type or temporarily_unavailable",
        examples=["invalid_request"],
    )
    error_description: str = Field(
        description="What went wrong, for the client's developer",
        examples=["missing parameters: grant_type"],
    )


_OAUTH_ERRORS: dict[int, str] = {
    400: "An OAuth error (RFC 6749 §5.2)",
    401: "Client authentication failed (see WWW-Authenticate)",
    429: "Too many failed attempts for this account (see Retry-After)",
    503: "temporarily_unavailable: the tenant's user directory cannot answer",
}
_AS_PROBLEM: dict[int, str] = {
    400: "; a body refused before it is read (malformed or too deeply nested JSON)"
    " is an RFC 9457 problem",
    401: "; a bearer token that is not valid is an RFC 9457 problem",
}
_PROBLEM_CONTENT = {PROBLEM_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}


def oauth_errors(
    *statuses: int, problems: tuple[int, ...] = (400,)
) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI responses of the OAuth errors an endpoint answers; those of
    ``problems`` may come as problem bodies too."""
    responses: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        response: dict[str, Any] = {
            "model": OAuthErrorBody,
            "description": _OAUTH_ERRORS[status],
        }
        if status in problems:
            response["description"] += _AS_PROBLEM[status]
            response["content"] = dict(_PROBLEM_CONTENT)
        responses[status] = response
    return responses


def oauth_request(**parameters: str) -> dict[str, Any]:
    """The OpenAPI request body of an OAuth endpoint (``parameters``: name to description;
    a name ending in ``*`` is required), form-encoded or JSON."""
    return oauth_variants(parameters)


def oauth_variants(*variants: Mapping[str, str]) -> dict[str, Any]:
    """The OpenAPI request body of an OAuth endpoint that takes one of ``variants``
    (each as :func:`oauth_request` takes its parameters; a name ending in ``=`` is a
    parameter fixed to the value of its description), form-encoded or JSON.

    Every parameter is a string (in JSON, null counts as omitted, as an empty string
    does), a required one not empty; unknown ones are ignored (RFC 6749 §3.2), up to
    ``MAX_PARAMETERS`` in all."""

    def schema(json: bool) -> dict[str, Any]:
        shapes = [_variant(parameters, json) for parameters in variants]
        return shapes[0] if len(shapes) == 1 else {"oneOf": shapes}

    content = {
        "application/x-www-form-urlencoded": {"schema": schema(json=False)},
        "application/json": {"schema": schema(json=True)},
    }
    return {"requestBody": {"required": True, "content": content}}


def _variant(parameters: Mapping[str, str], json: bool) -> dict[str, Any]:
    text: dict[str, Any] = {"type": ["string", "null"] if json else "string"}
    properties: dict[str, Any] = {}
    required = []
    for name, description in parameters.items():
        key = name.rstrip("*=")
        if name.endswith("="):
            properties[key] = {"const": description}
            required.append(key)
        elif name.endswith("*"):
            properties[key] = {
                "type": "string",
                "minLength": 1,
                "description": description,
            }
            required.append(key)
        else:
            properties[key] = {**text, "description": description}
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": text,
        "maxProperties": MAX_PARAMETERS,
    }


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


def invalid_request(description: str) -> ResponseError:
    return oauth_error(OAuthError("invalid_request", description))


def throttled(error: TooManyAttemptsError) -> ResponseError:
    return ResponseError(
        JSONResponse(
            {"error": "temporarily_unavailable", "error_description": str(error)},
            status_code=429,
            headers={**NO_STORE, "Retry-After": str(error.retry_after)},
        )
    )


async def parameters(request: Request) -> dict[str, str]:
    """The request's parameters: form-encoded (RFC 6749) or a JSON object of strings; an
    empty value counts as omitted, a repeated one (or more than ``MAX_PARAMETERS``) is an
    invalid request. Linear in the body's size."""
    if request.headers.get("content-type", "").lower().startswith("application/json"):
        items = _json_parameters(await request.body())
    else:
        items = await _form_parameters(request)
    if len(items) > MAX_PARAMETERS:
        raise invalid_request(f"more than {MAX_PARAMETERS} parameters")
    counts = Counter(name for name, _ in items)
    repeated = sorted(name for name, count in counts.items() if count > 1)
    if repeated:
        raise invalid_request(f"repeated parameters: {', '.join(repeated)}")
    return {name: value for name, value in items if value != ""}


class _Members(list[tuple[str, Any]]):
    """A JSON object's members in order, duplicates kept (``json.loads`` would drop them)."""


def _json_parameters(body: bytes) -> list[tuple[str, str]]:
    try:
        # The HTTP guards have refused bodies that are too large or nested too deeply.
        data = json.loads(body, object_pairs_hook=_Members)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, _Members):
        raise invalid_request("expected a JSON object")
    if len(data) > MAX_PARAMETERS:
        raise invalid_request(f"more than {MAX_PARAMETERS} parameters")
    items = []
    for name, value in data:
        if value is not None and not isinstance(value, str):
            raise invalid_request(f"parameter {name[:64]} must be a string")
        items.append((name, value or ""))
    return items


async def _form_parameters(request: Request) -> list[tuple[str, str]]:
    try:
        form = await request.form(max_fields=MAX_PARAMETERS, max_files=0)
    except HTTPException as error:
        if error.status_code != 400:
            raise
        raise invalid_request(f"unreadable form: {error.detail}") from None
    return [
        (name, value) for name, value in form.multi_items() if isinstance(value, str)
    ]


def client_credentials(request: Request, params: dict[str, str]) -> ClientCredentials:
    """What the request presents of its client: HTTP Basic (RFC 6749 §2.3.1), or
    ``client_id`` and ``client_secret`` in the body, or only a ``client_id`` (the public
    client); ``tenant`` names the client's tenant."""
    scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
    tenant = params.get("tenant")
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
        basic = ClientCredentials(unquote_plus(client_id), unquote_plus(secret), tenant)
    in_form = "client_secret" in params
    if basic and in_form:
        raise oauth_error(
            OAuthError("invalid_request", "use one client authentication method")
        )
    if basic is not None:
        if params.get("client_id", basic.client_id) != basic.client_id:
            raise oauth_error(
                OAuthError("invalid_request", "client_id differs from the Basic one")
            )
        return basic
    return ClientCredentials(
        params.get("client_id"), params.get("client_secret"), tenant
    )


def required(params: dict[str, str], *names: str) -> list[str]:
    missing = [name for name in names if name not in params]
    if missing:
        raise oauth_error(
            OAuthError("invalid_request", f"missing parameters: {', '.join(missing)}")
        )
    return [params[name] for name in names]
