"""Decision tables for roles (casbin, domains = tenants) and attribute policies."""

from __future__ import annotations

from typing import Any

import pytest

from eaf.security import Condition, Decision, PolicyEngine
from eaf.security.testing import FakeClock

RULES: dict[str, Any] = {
    "acme": {
        "roles": {
            "license-admin": ["license:*"],
            "reader": ["*:read"],
            "owner": ["*"],
            "support": ["ticket:create", "ticket:read"],
        },
        "members": {
            "alice": ["license-admin"],
            "bob": ["reader"],
            "olga": ["owner"],
            "sam": ["support", "reader"],
        },
        "users": {
            "bob": {"department": "sales", "clearance": 2},
            "carol": {"department": "engineering", "clearance": 5},
        },
        "policies": [
            {
                "id": "no-deletes-after-hours",
                "effect": "deny",
                "permissions": ["license:delete"],
                "conditions": [{"attribute": "env.hour", "op": "gte", "value": 18}],
            },
            {
                "id": "owners-edit-their-documents",
                "effect": "allow",
                "permissions": ["document:update", "document:delete"],
                "conditions": [
                    {"attribute": "resource.owner", "op": "eq", "value_of": "user.id"}
                ],
            },
            {
                "id": "department-reads-its-reports",
                "effect": "allow",
                "permissions": ["report:export"],
                "conditions": [
                    {
                        "attribute": "resource.department",
                        "op": "eq",
                        "value_of": "user.department",
                    },
                    {
                        "attribute": "user.clearance",
                        "op": "gte",
                        "value_of": "resource.level",
                    },
                ],
            },
            {
                "id": "office-network-only",
                "effect": "deny",
                "permissions": ["billing:*"],
                "conditions": [
                    {
                        "attribute": "env.ip",
                        "op": "cidr",
                        "value": ["10.0.0.0/8", "2001:db8::/32"],
                    },
                    {"attribute": "env.weekday", "op": "in", "value": ["sat", "sun"]},
                ],
            },
            {
                "id": "weekday-billing",
                "effect": "allow",
                "permissions": ["billing:read"],
                "conditions": [
                    {
                        "attribute": "env.weekday",
                        "op": "not_in",
                        "value": ["sat", "sun"],
                    },
                    {"attribute": "env.ip", "op": "cidr", "value": "10.0.0.0/8"},
                ],
            },
            {
                "id": "no-archived-edits",
                "effect": "deny",
                "permissions": ["*:update"],
                "conditions": [
                    {"attribute": "resource.status", "op": "eq", "value": "archived"}
                ],
            },
            {
                "id": "big-spenders-need-approval",
                "effect": "deny",
                "permissions": ["order:create"],
                "conditions": [
                    {"attribute": "resource.amount", "op": "gt", "value": 10_000}
                ],
            },
            {
                "id": "anyone-orders",
                "effect": "allow",
                "permissions": ["order:create"],
                "conditions": [
                    {"attribute": "resource.amount", "op": "lte", "value": 10_000}
                ],
            },
            {
                "id": "not-the-intern",
                "effect": "deny",
                "permissions": ["ticket:*"],
                "conditions": [
                    {"attribute": "user.id", "op": "ne", "value": "sam"},
                    {"attribute": "user.id", "op": "eq", "value": "ivan"},
                ],
            },
        ],
    },
    "globex": {
        "roles": {"license-admin": ["license:read"]},
        "members": {"alice": ["license-admin"]},
        "policies": [
            {
                "id": "globex-documents",
                "effect": "allow",
                "permissions": ["document:*"],
            },
        ],
    },
}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()  # Monday 10:30 UTC


@pytest.fixture
def engine(clock: FakeClock) -> PolicyEngine:
    return PolicyEngine.from_data(RULES, clock=clock.datetime)


@pytest.mark.parametrize(
    ("subject", "permission", "allowed", "reason"),
    [
        ("alice", "license:create", True, "granted by role 'license-admin'"),
        ("alice", "license:read", True, "granted by role 'license-admin'"),
        ("alice", "user:read", False, "no role or policy grants user:read"),
        ("bob", "license:read", True, "granted by role 'reader'"),
        ("bob", "user-profile:read", True, "granted by role 'reader'"),
        ("bob", "license:create", False, "no role or policy grants license:create"),
        ("olga", "anything:goes", True, "granted by role 'owner'"),
        ("sam", "ticket:create", True, "granted by role 'support'"),
        ("sam", "invoice:read", True, "granted by role 'reader'"),
        ("nobody", "license:read", False, "no role or policy grants license:read"),
    ],
)
def test_roles(
    engine: PolicyEngine, subject: str, permission: str, allowed: bool, reason: str
) -> None:
    assert engine.check(subject, "acme", permission) == Decision(allowed, reason)


def test_deny_wins_over_a_role(engine: PolicyEngine, clock: FakeClock) -> None:
    assert engine.check("alice", "acme", "license:delete").allowed
    evening = engine.check("alice", "acme", "license:delete", env={"hour": 19})
    assert evening == Decision(False, "denied by policy 'no-deletes-after-hours'")
    clock.advance(8 * 3600)  # 18:30 by the engine's clock
    assert not engine.check("olga", "acme", "license:delete")


@pytest.mark.parametrize(
    ("subject", "permission", "resource", "allowed", "reason"),
    [
        (
            "bob",
            "document:update",
            {"owner": "bob"},
            True,
            "allowed by policy 'owners-edit-their-documents'",
        ),
        (
            "bob",
            "document:update",
            {"owner": "carol"},
            False,
            "no role or policy grants document:update",
        ),
        (
            "bob",
            "document:update",
            {},
            False,
            "no role or policy grants document:update",
        ),
        (
            "bob",
            "document:update",
            {"owner": "bob", "status": "archived"},
            False,
            "denied by policy 'no-archived-edits'",
        ),
        (
            "olga",
            "license:update",
            {"status": "archived"},
            False,
            "denied by policy 'no-archived-edits'",
        ),
        (
            "bob",
            "report:export",
            {"department": "sales", "level": 2},
            True,
            "allowed by policy 'department-reads-its-reports'",
        ),
        (
            "bob",
            "report:export",
            {"department": "sales", "level": 3},
            False,
            "no role or policy grants report:export",
        ),
        (
            "bob",
            "report:export",
            {"department": "engineering", "level": 1},
            False,
            "no role or policy grants report:export",
        ),
        (
            "carol",
            "report:export",
            {"department": "engineering", "level": 5},
            True,
            "allowed by policy 'department-reads-its-reports'",
        ),
        (
            "carol",
            "report:export",
            {"department": "engineering", "level": "5"},
            False,
            "no role or policy grants report:export",
        ),
        (
            "bob",
            "order:create",
            {"amount": 10_000},
            True,
            "allowed by policy 'anyone-orders'",
        ),
        (
            "bob",
            "order:create",
            {"amount": 10_001},
            False,
            "denied by policy 'big-spenders-need-approval'",
        ),
        (
            "olga",
            "order:create",
            {"amount": "lots"},
            False,
            "denied by policy 'big-spenders-need-approval'",
        ),
        ("olga", "order:create", {}, True, "granted by role 'owner'"),
        ("bob", "order:create", {}, False, "no role or policy grants order:create"),
    ],
)
def test_attribute_conditions(
    engine: PolicyEngine,
    subject: str,
    permission: str,
    resource: dict[str, Any],
    allowed: bool,
    reason: str,
) -> None:
    assert engine.check(subject, "acme", permission, resource=resource) == Decision(
        allowed, reason
    )


def test_incomparable_values_deny_but_never_allow(engine: PolicyEngine) -> None:
    """A deny whose values cannot be compared applies (fail closed); an allow does not.
    A missing attribute makes a condition false: the policy does not apply."""
    lots = {"amount": "lots"}
    assert engine.check("olga", "acme", "order:create", resource=lots) == Decision(
        False, "denied by policy 'big-spenders-need-approval'"
    )
    assert engine.check("olga", "acme", "order:create").allowed
    condition = Condition("resource.amount", "lte", value=10)
    assert condition.evaluate({"resource": {"amount": "lots"}}) is None
    assert condition.evaluate({"resource": {}}) is False
    assert not engine.check("bob", "acme", "document:update", resource={"owner": None})


def test_user_attributes_passed_in_override_stored_ones(engine: PolicyEngine) -> None:
    resource = {"department": "legal", "level": 1}
    assert not engine.check("bob", "acme", "report:export", resource=resource)
    assert engine.check(
        "bob", "acme", "report:export", resource=resource, user={"department": "legal"}
    )
    assert not engine.check(
        "bob", "acme", "document:update", resource={"owner": "eve"}, user={"id": "eve"}
    )


@pytest.mark.parametrize(
    ("ip", "weekday", "permission", "allowed", "reason"),
    [
        (
            "10.1.2.3",
            "mon",
            "billing:read",
            True,
            "allowed by policy 'weekday-billing'",
        ),
        (
            "192.168.1.1",
            "mon",
            "billing:read",
            False,
            "no role or policy grants billing:read",
        ),
        (
            "10.1.2.3",
            "sat",
            "billing:read",
            False,
            "denied by policy 'office-network-only'",
        ),
        (
            "2001:db8::1",
            "sun",
            "billing:read",
            False,
            "denied by policy 'office-network-only'",
        ),
        (
            "192.168.1.1",
            "sun",
            "billing:read",
            False,
            "no role or policy grants billing:read",
        ),
        (
            "not-an-ip",
            "mon",
            "billing:read",
            False,
            "no role or policy grants billing:read",
        ),
    ],
)
def test_environment_conditions(
    engine: PolicyEngine,
    ip: str,
    weekday: str,
    permission: str,
    allowed: bool,
    reason: str,
) -> None:
    decision = engine.check(
        "carol", "acme", permission, env={"ip": ip, "weekday": weekday}
    )
    assert decision == Decision(allowed, reason)


def test_time_attributes_come_from_the_clock(
    engine: PolicyEngine, clock: FakeClock
) -> None:
    assert engine.check("carol", "acme", "billing:read", env={"ip": "10.0.0.1"})
    clock.advance(5 * 86400)  # Saturday
    assert engine.check(
        "bob", "acme", "billing:read", env={"ip": "10.0.0.1"}
    ).reason == ("denied by policy 'office-network-only'")


@pytest.mark.parametrize(
    ("subject", "tenant", "permission", "allowed"),
    [
        ("alice", "acme", "license:create", True),
        ("alice", "globex", "license:create", False),
        ("alice", "globex", "license:read", True),
        ("bob", "globex", "license:read", False),
        ("olga", "globex", "anything:goes", False),
        ("bob", "globex", "document:update", True),
        ("bob", "acme", "document:read", True),
        ("bob", "acme", "document:create", False),
        ("alice", "initech", "license:read", False),
    ],
)
def test_tenant_isolation(
    engine: PolicyEngine, subject: str, tenant: str, permission: str, allowed: bool
) -> None:
    assert engine.check(subject, tenant, permission).allowed is allowed


def test_acme_deny_policies_do_not_apply_in_globex(engine: PolicyEngine) -> None:
    archived = {"owner": "bob", "status": "archived"}
    assert not engine.check("bob", "acme", "document:update", resource=archived)
    assert engine.check("bob", "globex", "document:update", resource=archived)


def test_roles_and_permissions_of_a_user(engine: PolicyEngine) -> None:
    assert engine.roles_of("sam", "acme") == ["reader", "support"]
    assert engine.roles_of("sam", "globex") == []
    assert engine.permissions_of("sam", "acme") == {
        "*:read",
        "ticket:create",
        "ticket:read",
    }
    assert engine.permissions_of("alice", "globex") == {"license:read"}
    assert engine.permissions_of("alice", "initech") == frozenset()


def test_a_user_named_like_a_role_does_not_get_it() -> None:
    engine = PolicyEngine.from_data(
        {"acme": {"roles": {"admin": ["*"]}, "members": {}}}
    )
    assert not engine.check("admin", "acme", "license:read")


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"roles": {"r": ["license"]}}, "invalid permission 'license'"),
        ({"members": {"u": ["ghost"]}}, "undefined roles \\['ghost'\\]"),
        (
            {"policies": [{"id": "p", "effect": "maybe", "permissions": ["a:b"]}]},
            "effect must be",
        ),
        (
            {"policies": [{"id": "p", "effect": "allow", "permissions": []}]},
            "names no permissions",
        ),
        (
            {
                "policies": [
                    {"id": "p", "effect": "allow", "permissions": ["a:b"], "when": []}
                ]
            },
            "unknown fields",
        ),
        (
            {
                "policies": [
                    {
                        "id": "p",
                        "effect": "allow",
                        "permissions": ["a:b"],
                        "conditions": [
                            {"attribute": "os.system", "op": "eq", "value": 1}
                        ],
                    }
                ]
            },
            "invalid attribute 'os.system'",
        ),
        (
            {
                "policies": [
                    {
                        "id": "p",
                        "effect": "allow",
                        "permissions": ["a:b"],
                        "conditions": [
                            {"attribute": "user.id", "op": "matches", "value": ".*"}
                        ],
                    }
                ]
            },
            "invalid operator 'matches'",
        ),
        (
            {
                "policies": [
                    {
                        "id": "p",
                        "effect": "allow",
                        "permissions": ["a:b"],
                        "conditions": [
                            {
                                "attribute": "env.ip",
                                "op": "cidr",
                                "value": "10.0.0.300/8",
                            }
                        ],
                    }
                ]
            },
            "invalid network",
        ),
        (
            {
                "policies": [
                    {
                        "id": "p",
                        "effect": "allow",
                        "permissions": ["a:b"],
                        "conditions": [
                            {"attribute": "user.id", "op": "in", "value": "abc"}
                        ],
                    }
                ]
            },
            "needs a list",
        ),
        ({"users": {}, "extra": 1}, "unknown tenant rule fields"),
    ],
)
def test_invalid_rules_are_refused_with_a_clear_error(
    rules: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        PolicyEngine.from_data({"acme": rules})


def test_conditions_never_evaluate_code() -> None:
    """Attribute values are data: a string that looks like code is compared, not run."""
    condition = Condition(
        "resource.owner", "eq", value="__import__('os').system('false')"
    )
    assert (
        condition.evaluate({"resource": {"owner": "__import__('os').system('false')"}})
        is True
    )
    assert condition.evaluate({"resource": {"owner": "x"}}) is False
    membership = Condition("user.id", "in", value_of="resource.editors")
    assert (
        membership.evaluate({"user": {"id": "al"}, "resource": {"editors": "alice"}})
        is None
    )
    assert (
        membership.evaluate({"user": {"id": "al"}, "resource": {"editors": ["al"]}})
        is True
    )
