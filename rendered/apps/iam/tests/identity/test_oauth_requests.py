"""How the OAuth endpoints read requests: bounded, linear, errors in the RFC 6749 shape;
everything else answers problem bodies."""

import json
from typing import Any

import pytest

from iam.infrastructure.oauth_http import MAX_PARAMETERS
from tests.identity.conftest import ADMIN_PASSWORD, Iam

TOKEN = "/api/v1/auth/token"
OAUTH_PATHS = ["/api/v1/auth/token", "/api/v1/auth/revoke", "/api/v1/auth/introspect"]
PROBLEM_TYPE = "application/problem+json"


def oauth_error(response: Any, description: str) -> None:
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["error"] == "invalid_request"
    assert description in body["error_description"]


@pytest.mark.parametrize("path", OAUTH_PATHS)
def test_a_repeated_form_parameter_is_an_invalid_request(iam: Iam, path: str) -> None:
    response = iam.http.post(
        path,
        content=b"token=a&grant_type=password&token=b",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )

    oauth_error(response, "repeated parameters: token")


def test_a_repeated_json_member_is_an_invalid_request(iam: Iam) -> None:
    response = iam.http.post(
        TOKEN,
        content=b'{"grant_type": "password", "grant_type": "refresh_token"}',
        headers={"Content-Type": "application/json"},
    )

    oauth_error(response, "repeated parameters: grant_type")


@pytest.mark.parametrize(
    ("body", "description"),
    [
        (["grant_type", "password"], "expected a JSON object"),
        ("password", "expected a JSON object"),
        ({"grant_type": {"nested": "value"}}, "grant_type must be a string"),
        ({"grant_type": ["password"]}, "grant_type must be a string"),
        ({"grant_type": 1}, "grant_type must be a string"),
        ({"grant_type": "password", "extra": True}, "extra must be a string"),
    ],
)
def test_a_json_body_must_be_an_object_of_strings(
    iam: Iam, body: Any, description: str
) -> None:
    oauth_error(iam.http.post(TOKEN, json=body), description)


def test_too_many_parameters_are_an_invalid_request(iam: Iam) -> None:
    many = {f"p{index}": "x" for index in range(MAX_PARAMETERS + 1)}

    as_json = iam.http.post(TOKEN, json=many)
    as_form = iam.http.post(TOKEN, data=many)

    oauth_error(as_json, f"more than {MAX_PARAMETERS} parameters")
    oauth_error(as_form, "unreadable form")


def test_a_file_is_not_a_parameter(iam: Iam) -> None:
    response = iam.http.post(
        TOKEN,
        data={"grant_type": "password"},
        files={"password": ("secret.txt", b"x")},
    )

    oauth_error(response, "unreadable form")


def test_json_parameters_still_grant_tokens(iam: Iam) -> None:
    iam.tenant_admin("Acme")
    body = {
        "grant_type": "password",
        "tenant": "Acme",
        "username": "admin",
        "password": ADMIN_PASSWORD,
        "scope": None,
    }

    response = iam.http.post(TOKEN, json=body)

    assert response.status_code == 200, response.text


def test_unknown_parameters_are_ignored(iam: Iam) -> None:
    iam.tenant_admin("Acme")
    body = {
        "grant_type": "password",
        "tenant": "Acme",
        "username": "admin",
        "password": ADMIN_PASSWORD,
        "prompt": "none",
        "nonce": None,
    }

    assert iam.http.post(TOKEN, json=body).status_code == 200
    assert iam.http.post(TOKEN, data={**body, "nonce": ""}).status_code == 200


def test_the_token_request_is_documented_by_grant(iam: Iam) -> None:
    operation = iam.http.get("/openapi.json").json()["paths"][TOKEN]["post"]

    for media_type, content in operation["requestBody"]["content"].items():
        grants = {
            variant["properties"]["grant_type"]["const"]: set(variant["required"])
            for variant in content["schema"]["oneOf"]
        }
        assert grants == {
            "password": {"grant_type", "tenant", "username", "password"},
            "client_credentials": {"grant_type"},
            "refresh_token": {"grant_type", "refresh_token"},
        }, media_type
        for variant in content["schema"]["oneOf"]:
            assert {"client_id", "client_secret", "scope"} <= set(variant["properties"])


@pytest.mark.parametrize(
    ("path", "parameters"),
    [
        ("/api/v1/auth/revoke", {"token", "token_type_hint", "client_id", "tenant"}),
        ("/api/v1/auth/introspect", {"token", "client_id", "client_secret", "tenant"}),
    ],
)
def test_the_client_parameters_are_documented(
    iam: Iam, path: str, parameters: set[str]
) -> None:
    operation = iam.http.get("/openapi.json").json()["paths"][path]["post"]

    for media_type, content in operation["requestBody"]["content"].items():
        assert parameters <= set(content["schema"]["properties"]), media_type
        assert content["schema"]["required"] == ["token"]
    assert "401" in operation["responses"]


def test_revocation_answers_no_content(iam: Iam) -> None:
    response = iam.http.post("/api/v1/auth/revoke", data={"token": "unknown"})
    operation = iam.http.get("/openapi.json").json()["paths"]["/api/v1/auth/revoke"]

    assert (response.status_code, response.content) == (200, b"")
    assert "content" not in operation["post"]["responses"]["200"]


def test_a_body_the_guards_refuse_is_a_problem(iam: Iam) -> None:
    malformed = iam.http.post(
        TOKEN, content=b'{"grant_type": ', headers={"Content-Type": "application/json"}
    )
    deep = iam.http.post(
        TOKEN,
        content=b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
        headers={"Content-Type": "application/json"},
    )
    large = iam.http.post(
        TOKEN,
        content=json.dumps({f"k{index}": "v" for index in range(100_000)}).encode(),
        headers={"Content-Type": "application/json"},
    )

    for response, status in ((malformed, 400), (deep, 400), (large, 413)):
        assert response.status_code == status, response.text
        assert response.headers["content-type"] == PROBLEM_TYPE


def test_unknown_paths_and_wrong_methods_are_problems(iam: Iam) -> None:
    unknown = iam.http.get("/api/v1/nowhere")
    wrong_method = iam.http.get(TOKEN)
    users = iam.http.delete("/api/v1/tenants/t-1/users")

    assert unknown.status_code == 404
    assert unknown.headers["content-type"] == PROBLEM_TYPE
    assert wrong_method.status_code == 405
    assert wrong_method.headers["content-type"] == PROBLEM_TYPE
    assert wrong_method.headers["allow"] == "POST"
    assert users.status_code == 405
    assert users.headers["allow"] == "GET, HEAD, POST"


def test_the_openapi_document_describes_the_oauth_errors(iam: Iam) -> None:
    document = iam.http.get("/openapi.json").json()

    error_schema = document["components"]["schemas"]["OAuthErrorBody"]
    assert set(error_schema["required"]) == {"error", "error_description"}
    for path, statuses in zip(
        OAUTH_PATHS,
        (("400", "401", "429"), ("400",), ("400", "401", "429")),
        strict=True,
    ):
        operation = document["paths"][path]["post"]
        for status in statuses:
            schema = operation["responses"][status]["content"]["application/json"]
            assert schema["schema"] == {"$ref": "#/components/schemas/OAuthErrorBody"}
        assert PROBLEM_TYPE in operation["responses"]["413"]["content"]
        assert (
            "application/x-www-form-urlencoded" in operation["requestBody"]["content"]
        )
