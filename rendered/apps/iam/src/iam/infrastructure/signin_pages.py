"""The server-rendered pages of browser sign-in: plain HTML, no script, accessible
(labels bound to inputs, errors tied to their field, visible focus)."""

from collections.abc import Sequence
from html import escape

from fastapi.responses import HTMLResponse

from iam.application.ports.signin import ExternalProvider

PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Pragma": "no-cache",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline';"
    " frame-ancestors 'none'; base-uri 'none'",
}

STYLE = """
body { font: 1rem/1.5 system-ui, sans-serif; color: #1b1b1b; background: #f6f6f6;
       margin: 0; }
main { max-width: 24rem; margin: 3rem auto; padding: 2rem; background: #fff;
       border: 1px solid #c8c8c8; border-radius: 4px; }
h1 { font-size: 1.5rem; margin-top: 0; }
label { display: block; font-weight: 600; margin-top: 1rem; }
input { display: block; width: 100%; box-sizing: border-box; padding: .5rem;
        font: inherit; border: 1px solid #6b6b6b; border-radius: 3px; }
input[aria-invalid="true"] { border: 2px solid #b00020; }
.error { color: #b00020; margin: .25rem 0 0; }
button, .button { display: inline-block; margin-top: 1.5rem; padding: .5rem 1rem;
        font: inherit; color: #fff; background: #1a5fb4; border: 0;
        border-radius: 3px; text-decoration: none; cursor: pointer; }
button.secondary { color: #1a5fb4; background: #fff; border: 1px solid #1a5fb4; }
:focus-visible { outline: 3px solid #f5a700; outline-offset: 2px; }
ul { list-style: none; padding: 0; }
"""


def page(title: str, body: str, status: int = 200) -> HTMLResponse:
    """A whole page around ``body`` (HTML already escaped)."""
    content = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )
    return HTMLResponse(content, status_code=status, headers=PAGE_HEADERS)


def error_page(text: str, status: int = 400) -> HTMLResponse:
    """The page of a request that cannot be answered by redirecting to the client."""
    return page(
        "Sign-in failed",
        "<h1>Sign-in failed</h1>\n"
        f'<p role="alert">{escape(text)}</p>\n'
        "<p>Go back to the application and try again.</p>",
        status,
    )


def signin_page(
    *,
    action: str,
    form_id: str,
    realm: str,
    client_name: str,
    username: str = "",
    errors: dict[str, str] | None = None,
    providers: Sequence[ExternalProvider] = (),
    status: int = 200,
) -> HTMLResponse:
    """The username and password form; ``errors`` by field (``username``,
    ``password``) or ``form`` for the form as a whole."""
    errors = errors or {}
    general = errors.get("form", "")
    alert = f'<p class="error" id="form-error" role="alert">{escape(general)}</p>\n'
    body = (
        f"<h1>Sign in to {escape(realm)}</h1>\n"
        f"<p>to continue to {escape(client_name)}</p>\n"
        f"{alert if general else ''}"
        f'<form method="post" action="{escape(action)}" novalidate>\n'
        f'<input type="hidden" name="form" value="{escape(form_id)}">\n'
        + _field("username", "Username", "text", "username", username, errors)
        + _field("password", "Password", "password", "current-password", "", errors)
        + '<button type="submit">Sign in</button>\n</form>\n'
    )
    if providers:
        buttons = "".join(
            f'<li><a class="button" href="{escape(provider.url)}">'
            f"Sign in with {escape(provider.name)}</a></li>\n"
            for provider in providers
        )
        body += (
            f'<h2>Or</h2>\n<ul aria-label="Other ways to sign in">\n{buttons}</ul>\n'
        )
    return page(f"Sign in to {realm}", body, status)


def _field(
    name: str,
    label: str,
    kind: str,
    autocomplete: str,
    value: str,
    errors: dict[str, str],
) -> str:
    error = errors.get(name)
    described = ""
    message = ""
    if error:
        described = f' aria-invalid="true" aria-describedby="{name}-error"'
        message = f'<p class="error" id="{name}-error">{escape(error)}</p>\n'
    return (
        f'<label for="{name}">{label}</label>\n'
        f'<input id="{name}" name="{name}" type="{kind}" autocomplete="{autocomplete}"'
        f' value="{escape(value)}" required{described}>\n{message}'
    )


def consent_page(
    *, action: str, form_id: str, realm: str, client_name: str, scope: list[str]
) -> HTMLResponse:
    """Asks the signed-in user whether a third-party client may act for them."""
    items = "".join(f"<li>{escape(word)}</li>\n" for word in scope)
    body = (
        f"<h1>Allow {escape(client_name)}?</h1>\n"
        f"<p>{escape(client_name)} asks to use your {escape(realm)} account:</p>\n"
        f"<ul>\n{items}</ul>\n"
        f'<form method="post" action="{escape(action)}">\n'
        f'<input type="hidden" name="form" value="{escape(form_id)}">\n'
        '<button type="submit" name="decision" value="allow">Allow</button>\n'
        '<button type="submit" name="decision" value="deny" class="secondary">'
        "Deny</button>\n</form>\n"
    )
    return page(f"Allow {client_name}?", body)


def signed_out_page(realm: str) -> HTMLResponse:
    return page(
        "Signed out",
        f"<h1>Signed out</h1>\n<p>You are signed out of {escape(realm)}.</p>",
    )
