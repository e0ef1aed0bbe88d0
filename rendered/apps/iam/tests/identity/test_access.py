"""Roles and attribute policies of a tenant, and the decisions of /authz/check."""

import json
from typing import Any
from uuid import uuid5

import pytest
from eaf import context
from eaf.eventsourcing import NewEvent

from iam.application.identity import NAMESPACE
from tests.identity.conftest import Iam, bearer

CHECK = "/api/v1/authz/check"


class Tenant:
    """Acme with editors, readers and policies; alice (sales) edits, bob (eng) reads."""

    def __init__(self, iam: Iam) -> None:
        self.iam = iam
        self.id, self.admin = iam.tenant_admin("Acme")
        self.post("roles", {"name": "editor", "permissions": ["doc:*"]})
        self.post("roles", {"name": "reader", "permissions": ["doc:read"]})
        self.alice_id = self.user("alice", ["editor"], "sales")
        self.bob_id = self.user("bob", ["reader"], "eng")
        self.post(
            "policies",
            {
                "name": "deletes-in-sales-only",
                "effect": "deny",
                "permissions": ["doc:delete"],
                "conditions": [
                    {"attribute": "user.department", "op": "ne", "value": "sales"}
                ],
            },
        )
        self.post(
            "policies",
            {
                "name": "owners-write",
                "effect": "allow",
                "permissions": ["doc:write"],
                "conditions": [
                    {"attribute": "resource.owner", "op": "eq", "valueOf": "user.id"}
                ],
            },
        )
        self.no_archive = self.post(
            "policies",
            {"name": "no-archive", "effect": "deny", "permissions": ["doc:archive"]},
        )["policyId"]
        self.alice = iam.access_token(self.id, "alice", "user-password-1")
        self.bob = iam.access_token(self.id, "bob", "user-password-1")

    def post(self, collection: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.iam.http.post(
            f"/api/v1/tenants/{self.id}/{collection}",
            json=body,
            headers=bearer(self.admin),
        )
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def user(self, name: str, roles: list[str], department: str) -> str:
        response = self.iam.create_user(
            self.id,
            self.admin,
            name,
            roles=roles,
            attributes={"department": department},
        )
        assert response.status_code == 201, response.text
        return str(response.json()["userId"])

    def check(self, token: str, permission: str, **body: Any) -> dict[str, Any]:
        response = self.iam.http.post(
            CHECK, json={"permission": permission, **body}, headers=bearer(token)
        )
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer


@pytest.fixture
def acme(iam: Iam) -> Tenant:
    return Tenant(iam)


def test_the_decision_table(acme: Tenant) -> None:
    table = [
        (acme.alice, "doc:read", {}, True, "granted by role 'editor'"),
        (acme.alice, "doc:delete", {}, True, "granted by role 'editor'"),
        (acme.alice, "doc:archive", {}, False, "denied by policy 'no-archive'"),
        (acme.bob, "doc:read", {}, True, "granted by role 'reader'"),
        (acme.bob, "doc:delete", {}, False, "denied by policy 'deletes-in-sales-only'"),
        (
            acme.bob,
            "doc:write",
            {"owner": acme.bob_id},
            True,
            "allowed by policy 'owners-write'",
        ),
        (acme.bob, "doc:write", {"owner": acme.alice_id}, False, None),
        (acme.bob, "billing:read", {}, False, None),
    ]
    for token, permission, resource, allowed, reason in table:
        answer = acme.check(token, permission, resource=resource)
        assert answer["allowed"] is allowed, (permission, resource, answer)
        if reason is not None:
            assert answer["reason"] == reason


def test_disabling_a_policy_lifts_it(acme: Tenant) -> None:
    path = f"/api/v1/tenants/{acme.id}/policies/{acme.no_archive}"

    deleted = acme.iam.http.delete(path, headers=bearer(acme.admin))

    assert deleted.json()["status"] == "DISABLED"
    assert acme.check(acme.alice, "doc:archive")["allowed"] is True


def test_policies_are_listed_by_name_and_replaced_whole(acme: Tenant) -> None:
    policies = f"/api/v1/tenants/{acme.id}/policies"
    one = f"{policies}/{acme.no_archive}"

    replaced = acme.iam.http.put(
        one,
        json={
            "effect": "deny",
            "permissions": ["doc:archive", "doc:purge", "doc:archive"],
            "conditions": [
                {"attribute": "env.ip", "op": "cidr", "value": ["10.0.0.0/8"]}
            ],
        },
        headers=bearer(acme.admin),
    )
    listed = acme.iam.http.get(policies, headers=bearer(acme.admin)).json()

    assert replaced.status_code == 200, replaced.text
    assert replaced.json()["name"] == "no-archive"
    assert replaced.json()["permissions"] == ["doc:archive", "doc:purge"]
    assert [p["name"] for p in listed] == [
        "deletes-in-sales-only",
        "no-archive",
        "owners-write",
    ]
    assert listed[1] == replaced.json()
    inside = {"ip": "10.1.2.3"}
    assert acme.check(acme.alice, "doc:purge", env=inside)["allowed"] is False
    assert acme.check(acme.alice, "doc:archive", env={"ip": "192.0.2.1"})["allowed"]


def test_policies_keep_the_ids_they_were_given_before(acme: Tenant) -> None:
    """The spec's key makes the ids the hand-written access control made."""
    assert acme.no_archive == str(uuid5(NAMESPACE, f"{acme.id}/policy/no-archive"))


def test_policies_stored_before_are_read_with_their_conditions(iam: Iam) -> None:
    """Version 1 events held the conditions as JSON text, with the API's names."""
    tenant_id, admin = iam.tenant_admin("Acme")
    policy_id = str(uuid5(NAMESPACE, f"{tenant_id}/policy/owners"))
    owner = {"attribute": "resource.owner", "op": "eq", "valueOf": "user.id"}
    team = {"attribute": "user.team", "op": "in", "value": ["a", "b"]}
    created = {
        "policy_id": policy_id,
        "name": "owners",
        "effect": "allow",
        "permissions": ["doc:write"],
        "conditions": json.dumps([owner], sort_keys=True),
        "occurred_at": "2026-01-02T03:04:05+00:00",
    }
    changed = {**created, "conditions": json.dumps([owner, team], sort_keys=True)}

    async def store() -> None:
        with context.use(context.SecurityContext(tenant_id=tenant_id)):
            await iam.http.app.state.store.append(  # type: ignore[attr-defined]
                "Policy",
                policy_id,
                [
                    NewEvent("PolicyCreated", created),
                    NewEvent("PolicyChanged", changed),
                ],
                expected_version=0,
            )

    iam.http.portal.call(store)  # type: ignore[union-attr]
    read = iam.http.get(
        f"/api/v1/tenants/{tenant_id}/policies/{policy_id}", headers=bearer(admin)
    )

    assert read.status_code == 200, read.text
    assert read.json()["conditions"] == [
        {**owner, "value": None},
        {**team, "valueOf": None},
    ]
    assert read.json()["effect"] == "allow" and read.json()["name"] == "owners"


def test_changed_role_permissions_apply_at_once(acme: Tenant) -> None:
    roles = acme.iam.http.get(
        f"/api/v1/tenants/{acme.id}/roles", headers=bearer(acme.admin)
    ).json()
    reader = next(role for role in roles if role["name"] == "reader")
    assert {role["name"] for role in roles} >= {"tenant-admin", "user", "editor"}

    changed = acme.iam.http.put(
        f"/api/v1/tenants/{acme.id}/roles/{reader['roleId']}",
        json={"permissions": ["doc:read", "doc:write"]},
        headers=bearer(acme.admin),
    )

    assert changed.json()["permissions"] == ["doc:read", "doc:write"]
    assert acme.check(acme.bob, "doc:write", resource={"owner": "x"})["allowed"]


def test_changed_attributes_change_decisions(acme: Tenant) -> None:
    acme.iam.http.post(
        f"/api/v1/tenants/{acme.id}/roles",
        json={"name": "janitor", "permissions": ["doc:delete"]},
        headers=bearer(acme.admin),
    )
    user = f"/api/v1/tenants/{acme.id}/users/{acme.bob_id}"
    acme.iam.http.patch(user, json={"roles": ["janitor"]}, headers=bearer(acme.admin))
    assert acme.check(acme.bob, "doc:delete")["allowed"] is False

    acme.iam.http.patch(
        user, json={"attributes": {"department": "sales"}}, headers=bearer(acme.admin)
    )

    assert acme.check(acme.bob, "doc:delete")["allowed"] is True


def test_an_admin_checks_for_another_subject(acme: Tenant) -> None:
    for_alice = acme.check(acme.admin, "doc:archive", subject=acme.alice_id)
    by_bob = acme.iam.http.post(
        CHECK,
        json={"permission": "doc:read", "subject": acme.alice_id},
        headers=bearer(acme.bob),
    )

    assert for_alice["allowed"] is False
    assert by_bob.status_code == 403


def test_a_platform_admin_checks_for_a_tenants_subject(acme: Tenant) -> None:
    platform = acme.iam.platform_token()

    def check(body: dict[str, Any]) -> Any:
        return acme.iam.http.post(CHECK, json=body, headers=bearer(platform))

    for_bob = check(
        {"permission": "doc:delete", "subject": acme.bob_id, "tenant": "Acme"}
    )
    for_alice = check(
        {"permission": "doc:delete", "subject": acme.alice_id, "tenant": acme.id}
    )
    no_tenant = check({"permission": "doc:delete", "subject": acme.bob_id})

    assert for_bob.json() == {
        "allowed": False,
        "reason": "denied by policy 'deletes-in-sales-only'",
    }
    assert for_alice.json()["allowed"] is True
    assert no_tenant.json() == {
        "allowed": False,
        "reason": "the subject is no active platform user (name its tenant)",
    }


def test_malformed_rules_are_rejected(acme: Tenant) -> None:
    roles = f"/api/v1/tenants/{acme.id}/roles"
    policies = f"/api/v1/tenants/{acme.id}/policies"
    headers = bearer(acme.admin)

    bad_role = acme.iam.http.post(
        roles,
        json={"name": "x", "permissions": ["doc:read", "nonsense"]},
        headers=headers,
    )
    duplicate = acme.iam.http.post(
        roles, json={"name": "editor", "permissions": []}, headers=headers
    )
    bad_condition = acme.iam.http.post(
        policies,
        json={
            "name": "p",
            "effect": "allow",
            "permissions": ["doc:read"],
            "conditions": [{"attribute": "user.x", "op": "like", "value": "y"}],
        },
        headers=headers,
    )
    bad_effect = acme.iam.http.post(
        policies,
        json={"name": "q", "effect": "maybe", "permissions": ["doc:read"]},
        headers=headers,
    )

    assert bad_role.status_code == 422
    assert '"nonsense"' in bad_role.json()["detail"]
    assert duplicate.status_code == 409
    assert bad_condition.status_code == 422
    assert bad_effect.status_code == 422


def test_rules_are_private_to_their_tenant(acme: Tenant) -> None:
    _, globex = acme.iam.tenant_admin("Globex")

    response = acme.iam.http.get(
        f"/api/v1/tenants/{acme.id}/policies", headers=bearer(globex)
    )

    assert response.status_code == 404


def test_the_check_needs_a_token(acme: Tenant) -> None:
    response = acme.iam.http.post(CHECK, json={"permission": "doc:read"})

    assert response.status_code == 401


def test_a_malformed_permission_is_422_for_every_caller(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    for token in (iam.platform_token(), admin):
        response = iam.http.post(
            CHECK, json={"permission": "bad"}, headers=bearer(token)
        )
        assert response.status_code == 422, response.text
        assert response.headers["content-type"] == "application/problem+json"


def test_a_role_is_read_in_the_tenant_the_path_names_with_the_iam_s_own_tokens(
    acme: Tenant,
) -> None:
    """The generated GET of a role authenticates the tokens the IAM issued (a revoked
    one is refused at once) and runs in the path's tenant: a tenant's own, or for a
    platform administrator any tenant that exists."""
    http, iam = acme.iam.http, acme.iam
    roles = http.get(f"/api/v1/tenants/{acme.id}/roles", headers=bearer(acme.admin))
    reader = next(role for role in roles.json() if role["name"] == "reader")
    path = f"/api/v1/tenants/{acme.id}/roles/{reader['roleId']}"

    mine = http.get(path, headers=bearer(acme.admin))
    assert mine.status_code == 200, mine.text
    assert mine.json() == reader
    platform = iam.platform_token()
    assert http.get(path, headers=bearer(platform)).json() == reader
    ghost = path.replace(acme.id, "00000000-0000-4000-8000-000000000000")
    missing = http.get(ghost, headers=bearer(platform))
    assert (missing.status_code, missing.json()["detail"]) == (404, "Tenant not found")
    globex_id, globex_admin = iam.tenant_admin("Globex")
    other = http.get(path, headers=bearer(globex_admin))
    assert (other.status_code, other.json()["detail"]) == (404, "Tenant not found")
    none = http.get(
        path.replace(reader["roleId"], "no-such-role"), headers=bearer(acme.admin)
    )
    assert (none.status_code, none.json()["detail"]) == (404, "Role not found")
    # a user without iam-roles:read
    assert http.get(path, headers=bearer(acme.alice)).status_code == 403

    revoked = http.post(
        "/api/v1/auth/revoke",
        data={"token": acme.admin},
    )
    assert revoked.status_code == 200, revoked.text
    refused = http.get(path, headers=bearer(acme.admin))
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"] == (
        'Bearer error="invalid_token", error_description="token revoked"'
    )
