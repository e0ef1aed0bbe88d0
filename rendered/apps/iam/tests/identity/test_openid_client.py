"""The HTTP adapter of identity brokering against real sockets: discovery, the client's
authentication at the token endpoint, and a provider that refuses or never answers."""

import base64
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import pytest

from iam.application.ports.brokering import (
    ProviderMetadata,
    ProviderRefusedError,
    ProviderUnavailableError,
)
from iam.infrastructure.openid_client import UrllibOpenIdProviderClient


class Provider(ThreadingHTTPServer):
    """Serves a discovery document and a token endpoint, and keeps what it was sent."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server_address[1]}"
        self.received: list[tuple[dict[str, str], dict[str, list[str]]]] = []


class Handler(BaseHTTPRequestHandler):
    server: Provider

    def do_GET(self) -> None:
        issuer = self.server.issuer
        self._answer(
            200,
            {
                "issuer": issuer,
                "authorization_endpoint": f"{issuer}/auth",
                "token_endpoint": f"{issuer}/token",
                "jwks_uri": f"{issuer}/jwks",
                "token_endpoint_auth_methods_supported": ["client_secret_post"],
                "id_token_signing_alg_values_supported": ["ES256"],
            },
        )

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        form = parse_qs(body)
        self.server.received.append((dict(self.headers), form))
        if form["code"] == ["bad"]:
            self._answer(400, {"error": "invalid_grant", "error_description": "used"})
        else:
            self._answer(200, {"id_token": "x.y.z", "token_type": "Bearer"})

    def _answer(self, status: int, document: dict[str, object]) -> None:
        content = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def provider() -> Iterator[Provider]:
    server = Provider()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def metadata_at(issuer: str, *methods: str) -> ProviderMetadata:
    return ProviderMetadata(
        issuer=issuer,
        authorization_endpoint=f"{issuer}/auth",
        token_endpoint=f"{issuer}/token",
        jwks_uri=f"{issuer}/jwks",
        token_endpoint_auth_methods=list(methods),
    )


async def test_discovery_is_read(provider: Provider) -> None:
    metadata = await UrllibOpenIdProviderClient().metadata(provider.issuer + "/")
    assert metadata.token_endpoint == f"{provider.issuer}/token"
    assert metadata.token_endpoint_auth_methods == ["client_secret_post"]
    assert metadata.id_token_signing_algorithms == ["ES256"]


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
async def test_the_client_authenticates_as_the_provider_allows(
    provider: Provider, method: str
) -> None:
    answer = await UrllibOpenIdProviderClient().redeem_code(
        metadata_at(provider.issuer, method),
        client_id="iam:broker",
        client_secret="s3cret/+:",
        code="c-1",
        redirect_uri="http://127.0.0.1/cb",
        verifier="v" * 43,
    )
    assert answer["id_token"] == "x.y.z"
    headers, form = provider.received[0]
    assert form["code_verifier"] == ["v" * 43]
    assert form["grant_type"] == ["authorization_code"]
    if method == "client_secret_basic":
        encoded = headers["Authorization"].removeprefix("Basic ")
        # RFC 6749 §2.3.1: form-encoded before the Basic encoding
        assert base64.b64decode(encoded) == b"iam%3Abroker:s3cret%2F%2B%3A"
        assert "client_secret" not in form
    else:
        assert "Authorization" not in headers
        assert form["client_secret"] == ["s3cret/+:"]


async def test_an_oauth_error_is_a_refusal(provider: Provider) -> None:
    with pytest.raises(ProviderRefusedError, match="invalid_grant"):
        await UrllibOpenIdProviderClient().redeem_code(
            metadata_at(provider.issuer, "client_secret_basic"),
            client_id="iam",
            client_secret="s",
            code="bad",
            redirect_uri="http://127.0.0.1/cb",
            verifier="v" * 43,
        )


async def test_a_closed_port_is_unavailable_with_the_reason() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ProviderUnavailableError, match="refused"):
        await UrllibOpenIdProviderClient().metadata(f"http://127.0.0.1:{port}")


async def test_a_provider_that_never_answers_times_out() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        issuer = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(ProviderUnavailableError, match="timed out"):
            await UrllibOpenIdProviderClient(timeout=0.5).metadata(issuer)
