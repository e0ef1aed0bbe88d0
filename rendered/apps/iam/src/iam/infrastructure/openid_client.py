"""The HTTP calls to external OpenID providers, with the standard library's client in a
worker thread (the infrastructure's allowed imports hold no HTTP client)."""

import asyncio
import base64
import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlencode

from iam.application.ports.brokering import (
    ProviderMetadata,
    ProviderRefusedError,
    ProviderUnavailableError,
)

TIMEOUT_SECONDS = 10.0
MAX_BODY = 1 << 20


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def _call(
    request: urllib.request.Request, timeout: float
) -> tuple[int, dict[str, Any]]:
    url = request.full_url
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            status, body = answer.status, answer.read(MAX_BODY)
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read(MAX_BODY)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ProviderUnavailableError(f"{url}: {reason}") from None
    try:
        document = json.loads(body)
    except ValueError:
        raise ProviderUnavailableError(f"{url}: {status}, not JSON") from None
    if not isinstance(document, dict):
        raise ProviderUnavailableError(f"{url}: not a JSON object")
    return status, document


def _text(document: dict[str, Any], name: str) -> str:
    value = document.get(name)
    if not isinstance(value, str) or not value:
        raise ProviderUnavailableError(f"the discovery document has no {name}")
    return value


def _texts(document: dict[str, Any], name: str, default: list[str]) -> list[str]:
    value = document.get(name, default)
    if not isinstance(value, list):
        return default
    return [item for item in value if isinstance(item, str)]


class UrllibOpenIdProviderClient:
    """An :class:`~iam.application.ports.brokering.OpenIdProviderClient` over HTTP(S)
    with the system's certificate authorities; no redirects are followed; each call
    gives up after ``timeout`` seconds."""

    def __init__(self, timeout: float = TIMEOUT_SECONDS) -> None:
        self._timeout = timeout

    async def _json(
        self, request: urllib.request.Request
    ) -> tuple[int, dict[str, Any]]:
        request.add_header("Accept", "application/json")
        return await asyncio.to_thread(_call, request, self._timeout)

    async def metadata(self, issuer: str) -> ProviderMetadata:
        url = issuer.rstrip("/") + "/.well-known/openid-configuration"
        status, document = await self._json(urllib.request.Request(url))
        if status != 200:
            raise ProviderUnavailableError(f"{url}: status {status}")
        return ProviderMetadata(
            issuer=_text(document, "issuer"),
            authorization_endpoint=_text(document, "authorization_endpoint"),
            token_endpoint=_text(document, "token_endpoint"),
            jwks_uri=_text(document, "jwks_uri"),
            token_endpoint_auth_methods=_texts(
                document,
                "token_endpoint_auth_methods_supported",
                ["client_secret_basic"],
            ),
            id_token_signing_algorithms=_texts(
                document, "id_token_signing_alg_values_supported", ["RS256"]
            ),
        )

    async def redeem_code(
        self,
        metadata: ProviderMetadata,
        *,
        client_id: str,
        client_secret: str,
        code: str,
        redirect_uri: str,
        verifier: str,
    ) -> dict[str, Any]:
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": verifier,
        }
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if "client_secret_basic" in metadata.token_endpoint_auth_methods:
            # RFC 6749 §2.3.1: each part form-encoded before the Basic encoding
            pair = f"{quote(client_id, safe='')}:{quote(client_secret, safe='')}"
            headers["Authorization"] = "Basic " + base64.b64encode(
                pair.encode()
            ).decode("ascii")
        else:
            form.update(client_id=client_id, client_secret=client_secret)
        request = urllib.request.Request(
            metadata.token_endpoint,
            data=urlencode(form).encode(),
            headers=headers,
            method="POST",
        )
        status, document = await self._json(request)
        if status != 200:
            error = document.get("error")
            if isinstance(error, str):
                raise ProviderRefusedError(
                    error, str(document.get("error_description") or "")
                )
            raise ProviderUnavailableError(
                f"{metadata.token_endpoint}: status {status}"
            )
        return document

    async def jwks(self, metadata: ProviderMetadata) -> dict[str, Any]:
        status, document = await self._json(urllib.request.Request(metadata.jwks_uri))
        if status != 200 or not isinstance(document.get("keys"), list):
            raise ProviderUnavailableError(f"{metadata.jwks_uri}: no JWK set")
        return document
