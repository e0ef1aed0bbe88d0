"""The browser side of SAML 2.0 Web Browser SSO: the service provider's metadata, the
start of a login (HTTP-Redirect or an auto-submitting HTTP-POST form) and the assertion
consumer service (HTTP-POST)."""

from collections.abc import Awaitable, Callable
from html import escape
from typing import Annotated, Any

from eaf.web import AnsweringRoute, problem_error
from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from iam.application.identity import tenant_reference
from iam.application.ports.saml import (
    REDIRECT_BINDING,
    OutgoingRequest,
    SamlError,
)
from iam.application.saml_login import ProviderDisabledError, SamlLogin
from iam.infrastructure.api_saml_providers import SamlCases
from iam.infrastructure.web import PROBLEM

router = APIRouter(
    prefix="/api/v1/tenants/{tenantId}/saml/{alias}",
    tags=["saml"],
    route_class=AnsweringRoute,
)
METADATA_TYPE = "application/samlmetadata+xml"
PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: PROBLEM[404] for status in (400, 403, 404)
}

LoginCompletion = Callable[[Request, SamlLogin], Awaitable[Response]]
"""What follows an accepted response (``app.state.saml_completion``)."""


async def identity_answer(request: Request, login: SamlLogin) -> Response:
    """The external identity as JSON: the completion when no browser session follows."""
    identity = login.identity
    return JSONResponse(
        {
            "tenantId": identity.tenant_id,
            "providerAlias": identity.provider_alias,
            "issuer": identity.issuer,
            "nameId": identity.name_id,
            "nameIdFormat": identity.name_id_format,
            "attributes": identity.attributes,
            "roles": identity.roles,
        }
    )


@router.get(
    "/metadata",
    response_class=Response,
    responses={
        200: {"content": {METADATA_TYPE: {"schema": {"type": "string"}}}},
        404: PROBLEM[404],
    },
)
async def saml_metadata(tenantId: str, alias: str, saml: SamlCases) -> Response:
    """The service provider's metadata for this tenant and identity provider."""
    document = await saml.logins.metadata(tenant_reference(tenantId), alias)
    return Response(document, media_type=METADATA_TYPE)


@router.get(
    "/login",
    response_class=Response,
    responses={
        200: {
            "description": "A form that posts the AuthnRequest (HTTP-POST binding)",
            "content": {"text/html": {"schema": {"type": "string"}}},
        },
        303: {"description": "To the identity provider (HTTP-Redirect binding)"},
        **{status: PROBLEMS[status] for status in (403, 404)},
    },
)
async def saml_login(tenantId: str, alias: str, saml: SamlCases) -> Response:
    """Send the browser to the identity provider with a new AuthnRequest."""
    try:
        outgoing = await saml.logins.start(tenant_reference(tenantId), alias)
    except ProviderDisabledError as error:
        raise problem_error(403, "Forbidden", str(error)) from None
    return browser_request(outgoing)


@router.post(
    "/acs",
    response_class=Response,
    responses={
        200: {
            "description": "The identity, for a login no sign-in page started",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        303: {"description": "Back to the realm that showed the sign-in form"},
        **PROBLEMS,
        400: {
            "description": "The response is refused (a problem), or the identity lacks a"
            " valid value for its user (a page)",
            "content": {**PROBLEM[404]["content"], "text/html": {}},
        },
        403: {
            "description": "The provider is disabled (a problem), or the user is (a page)",
            "content": {**PROBLEM[404]["content"], "text/html": {}},
        },
        409: {
            "description": "The identity matches no user it may take (a page)",
            "content": {"text/html": {}},
        },
        422: PROBLEM[422],
    },
)
async def saml_acs(
    request: Request,
    tenantId: str,
    alias: str,
    saml: SamlCases,
    saml_response: Annotated[str, Form(alias="SAMLResponse", min_length=1)],
    relay_state: Annotated[str, Form(alias="RelayState")] = "",
) -> Response:
    """The assertion consumer service: accept a signed response to an outstanding
    request of this tenant and provider, once."""
    try:
        login = await saml.logins.complete(
            tenant_reference(tenantId), alias, saml_response, relay_state
        )
    except ProviderDisabledError as error:
        raise problem_error(403, "Forbidden", str(error)) from None
    except SamlError as error:
        raise problem_error(400, "SAML response refused", str(error)) from None
    completion: LoginCompletion = getattr(
        request.app.state, "saml_completion", identity_answer
    )
    return await completion(request, login)


def browser_request(outgoing: OutgoingRequest) -> Response:
    """A redirect (HTTP-Redirect binding) or a form that posts itself (HTTP-POST)."""
    if outgoing.binding == REDIRECT_BINDING:
        return RedirectResponse(outgoing.url, status_code=303)
    inputs = "".join(
        f'<input type="hidden" name="{escape(name)}" value="{escape(value)}">'
        for name, value in outgoing.form.items()
    )
    page = (
        "<!doctype html><html><head><title>Signing in</title></head>"
        '<body onload="document.forms[0].submit()">'
        f'<form method="post" action="{escape(outgoing.url)}">{inputs}'
        "<noscript><button>Continue</button></noscript></form></body></html>"
    )
    return HTMLResponse(
        page,
        headers={
            "Cache-Control": "no-store",
            "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; form-action *",
        },
    )
