"""The OpenAPI document states the rules the identity API enforces: what it allows is
accepted, what it refuses breaks a stated rule."""

import re
from typing import Any

import pytest
from eaf.security import PERMISSION_PATTERN
from hypothesis import given
from hypothesis import strategies as st

from iam.application.saml_login import USERNAME_PATTERN
from iam.domain.model import User
from iam.infrastructure.federation_http import ROLE_NAME_PATTERN
from tests.identity.conftest import Iam, bearer


def schema_of(iam: Iam, name: str) -> dict[str, Any]:
    document = iam.http.get("/openapi.json").json()
    schema: dict[str, Any] = document["components"]["schemas"][name]
    return schema


@given(st.from_regex(USERNAME_PATTERN, fullmatch=True))
def test_every_documented_username_is_one(username: str) -> None:
    assert User.check_username(username) == []


def test_the_request_bodies_state_the_rules(iam: Iam) -> None:
    tenant = schema_of(iam, "NewTenant")["properties"]
    user = schema_of(iam, "NewUser")["properties"]
    role = schema_of(iam, "NewRole")["properties"]
    check = schema_of(iam, "CheckRequest")["properties"]
    status = schema_of(iam, "TenantPatch")["properties"]["status"]
    assert status["$ref"] == "#/components/schemas/TenantStatus"
    status = schema_of(iam, "TenantStatus")

    assert tenant["adminUsername"]["pattern"] == USERNAME_PATTERN
    assert tenant["adminPassword"]["minLength"] == 8
    assert tenant["name"]["maxLength"] == 100
    assert user["roles"]["items"]["pattern"] == ROLE_NAME_PATTERN
    assert role["name"]["pattern"] == ROLE_NAME_PATTERN
    assert role["permissions"]["items"]["pattern"] == PERMISSION_PATTERN
    assert check["permission"]["pattern"] == PERMISSION_PATTERN
    assert status["enum"] == ["ACTIVE", "SUSPENDED"]


def test_a_condition_states_its_attribute_and_operator(iam: Iam) -> None:
    condition = schema_of(iam, "PolicyConditionBody")["properties"]
    operators = schema_of(iam, "ConditionOperator")["enum"]
    pattern = condition["attribute"]["pattern"]

    assert condition["valueOf"]["anyOf"][0]["pattern"] == pattern
    assert operators == ["eq", "ne", "gt", "lt", "gte", "lte", "in", "not_in", "cidr"]
    for attribute in ("user.department", "resource.owner.id", "env.ip"):
        assert re.fullmatch(pattern, attribute)
    for text in ("user", "subject.id", "user..x", "env."):
        assert not re.fullmatch(pattern, text)


@pytest.mark.parametrize(
    "condition",
    [
        {"attribute": "user", "op": "eq", "value": 1},
        {"attribute": "user.a", "op": "eq", "value": 1, "valueOf": "user.b"},
        {"attribute": "user.a", "op": "in", "value": "x"},
        {"attribute": "user.a", "op": "in"},
        {"attribute": "env.ip", "op": "cidr", "value": "10.0.0.256"},
        {"attribute": "env.ip", "op": "cidr", "value": []},
        {"attribute": "env.ip", "op": "cidr", "valueOf": "env.net"},
    ],
)
def test_a_condition_breaking_its_shape_is_refused(
    iam: Iam, condition: dict[str, Any]
) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    response = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/policies",
        json={
            "name": "p",
            "effect": "deny",
            "permissions": ["doc:read"],
            "conditions": [condition],
        },
        headers=bearer(admin),
    )

    assert response.status_code == 422, response.text


@pytest.mark.parametrize("name", ["caf\u00e9", "", "x" * 65, "tab\there"])
def test_a_role_name_is_printable_ascii(iam: Iam, name: str) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    response = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/roles",
        json={"name": name, "permissions": []},
        headers=bearer(admin),
    )

    assert response.status_code == 422, response.text
    assert response.json()["detail"] == "Role name is 1-64 printable ASCII characters"
    assert not re.search(ROLE_NAME_PATTERN, name)
