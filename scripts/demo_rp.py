"""The demo's browser application: a public OpenID Connect client of the IAM's "demo" realm.

`/` sends the browser to the realm's sign-in (authorization code with PKCE S256, `state` and
`nonce`); `/callback` exchanges the code, checks `state`, and shows who signed in (the ID
token's claims, read from the token endpoint's answer over TLS-less loopback: a demo, not a
template for production) and what the sample service answers with the access token.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import secrets
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

SCOPES = "openid profile email user-profile:read user-profile:write"


def _claims(jwt: str) -> dict[str, Any]:
    payload = jwt.split(".")[1]
    decoded: dict[str, Any] = json.loads(base64.urlsafe_b64decode(payload + "=" * 4))
    return decoded


class Client:
    """The client's settings and the sign-ins under way (by `state`)."""

    def __init__(self, realm: str, client_id: str, redirect_uri: str, app: str) -> None:
        self.realm, self.client_id, self.redirect_uri, self.app = (
            realm,
            client_id,
            redirect_uri,
            app,
        )
        self.pending: dict[str, tuple[str, str]] = {}  # state -> (verifier, nonce)
        self._discovery: dict[str, Any] = {}

    @property
    def discovery(self) -> dict[str, Any]:
        """The realm's discovery document, read at the first sign-in (the demo starts
        this application before it creates the tenant)."""
        if not self._discovery:
            found = httpx.get(f"{self.realm}/.well-known/openid-configuration")
            found.raise_for_status()
            self._discovery = found.json()
        return self._discovery

    def authorize_url(self) -> str:
        state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
        self.pending[state] = (verifier, nonce)
        query = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "scope": SCOPES,
            "state": state,
            "nonce": nonce,
            "code_challenge": challenge.decode().rstrip("="),
            "code_challenge_method": "S256",
        }
        return f"{self.discovery['authorization_endpoint']}?{urlencode(query)}"

    def finish(self, query: dict[str, list[str]]) -> str:
        state = query.get("state", [""])[0]
        if state not in self.pending:
            return "<p>Unknown or used <code>state</code>: start again.</p>"
        verifier, nonce = self.pending.pop(state)
        if "error" in query:
            return f"<p>The IAM answered <code>{escape(query['error'][0])}</code>.</p>"
        tokens = httpx.post(
            self.discovery["token_endpoint"],
            data={
                "grant_type": "authorization_code",
                "code": query.get("code", [""])[0],
                "redirect_uri": self.redirect_uri,
                "client_id": self.client_id,
                "code_verifier": verifier,
            },
        )
        if tokens.status_code != 200:
            return f"<p>The token endpoint refused the code: {escape(tokens.text)}</p>"
        answer = tokens.json()
        claims = _claims(answer["id_token"])
        if claims.get("nonce") != nonce:
            return "<p>The ID token's nonce is not this sign-in's.</p>"
        profiles = httpx.get(
            f"{self.app}/api/v1/user-profiles",
            headers={"Authorization": f"Bearer {answer['access_token']}"},
        )
        who = escape(str(claims.get("preferred_username", claims["sub"])))
        shown = escape(json.dumps(claims, indent=2))
        return (
            f"<p>Signed in as <strong>{who}</strong>.</p>"
            f"<p>user-profile answered {profiles.status_code} with "
            f"{len(profiles.json()) if profiles.status_code == 200 else 0} profiles.</p>"
            f"<h2>ID token claims</h2><pre>{shown}</pre>"
            f'<p><a href="/">Sign in again</a></p>'
        )


def handler(client: Client) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path == "/":
                self.send_response(303)
                self.send_header("Location", client.authorize_url())
                self.end_headers()
                return
            if url.path != "/callback":
                self.send_error(404)
                return
            body = (
                '<!doctype html><html lang="en"><head><meta charset="utf-8">'
                "<title>Demo application</title></head><body><h1>Demo application</h1>"
                f"{client.finish(parse_qs(url.query))}</body></html>"
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realm", required=True, help="the tenant's issuer URL")
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--app", required=True, help="the sample service's base URL")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    redirect = f"http://127.0.0.1:{args.port}/callback"
    client = Client(args.realm, args.client_id, redirect, args.app)
    ThreadingHTTPServer(("127.0.0.1", args.port), handler(client)).serve_forever()


if __name__ == "__main__":
    main()
