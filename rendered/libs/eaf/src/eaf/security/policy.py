"""Authorization per tenant: roles with domains (pycasbin) plus attribute policies.

Roles are casbin RBAC with domains, one domain per tenant, so a role or assignment of
tenant A is never consulted in tenant B. Attribute policies (ABAC) are evaluated here,
from declarative :class:`~eaf.security.conditions.Condition` data: casbin's ABAC
evaluates matcher expressions, which must never be built from tenant-supplied data.

Decisions: a matching deny policy wins; otherwise a role grant or a matching allow
policy allows; otherwise the answer is no.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import casbin  # type: ignore[import-untyped]

from eaf.security.conditions import Condition, environment
from eaf.security.permissions import (
    WILDCARD,
    has_permission,
    permission_matches,
    validate_permission,
    validate_permissions,
)

Effect = Literal["allow", "deny"]

# casbin subjects are namespaced, so that a user whose id equals a role name is not that role
_USER, _ROLE = "user:", "role:"

_MODEL = """
[request_definition]
r = sub, dom, obj, act

[policy_definition]
p = sub, dom, obj, act

[role_definition]
g = _, _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = g(r.sub, p.sub, r.dom) && r.dom == p.dom && keyMatch(r.obj, p.obj) && keyMatch(r.act, p.act)
"""


@dataclass(frozen=True)
class Decision:
    """The answer to an authorization question, with the reason for it."""

    allowed: bool
    reason: str

    def __bool__(self) -> bool:
        return self.allowed


@dataclass(frozen=True)
class Policy:
    """Allow or deny ``permissions`` (patterns) when all ``conditions`` hold."""

    id: str
    effect: Effect
    permissions: frozenset[str]
    conditions: tuple[Condition, ...] = ()

    def __post_init__(self) -> None:
        if self.effect not in ("allow", "deny"):
            raise ValueError(f"policy {self.id!r}: effect must be 'allow' or 'deny'")
        if not self.permissions:
            raise ValueError(f"policy {self.id!r} names no permissions")
        validate_permissions(self.permissions)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Policy:
        unknown = set(data) - {
            "id",
            "effect",
            "permissions",
            "conditions",
            "description",
        }
        if unknown:
            raise ValueError(
                f"policy {data.get('id')!r}: unknown fields {sorted(unknown)}"
            )
        return cls(
            id=data["id"],
            effect=data["effect"],
            permissions=frozenset(data["permissions"]),
            conditions=tuple(
                Condition.from_dict(c) for c in data.get("conditions", ())
            ),
        )

    def applies_to(self, permission: str) -> bool:
        return any(
            permission_matches(granted, permission) for granted in self.permissions
        )

    def matches(self, attributes: Mapping[str, Mapping[str, Any]]) -> bool:
        """Whether the conditions hold; an unknown one (incomparable values) holds for a
        deny policy and fails for an allow policy, so that bad data fails closed."""
        results = (condition.evaluate(attributes) for condition in self.conditions)
        if self.effect == "deny":
            return all(result is not False for result in results)
        return all(result is True for result in results)


@dataclass(frozen=True)
class TenantRules:
    """One tenant's authorization data: roles, role assignments, policies, user attributes."""

    roles: Mapping[str, Collection[str]] = field(default_factory=dict)
    members: Mapping[str, Collection[str]] = field(default_factory=dict)
    policies: Sequence[Policy] = ()
    users: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TenantRules:
        """From plain data: ``{"roles": {role: [permission]}, "members": {user: [role]},
        "policies": [policy dict], "users": {user: {attribute: value}}}``."""
        unknown = set(data) - {"roles", "members", "policies", "users"}
        if unknown:
            raise ValueError(f"unknown tenant rule fields {sorted(unknown)}")
        return cls(
            roles={
                role: list(grants) for role, grants in data.get("roles", {}).items()
            },
            members={
                user: list(roles) for user, roles in data.get("members", {}).items()
            },
            policies=[Policy.from_dict(policy) for policy in data.get("policies", ())],
            users=data.get("users", {}),
        )


class PolicyEngine:
    """Answers "may ``subject`` do ``permission`` in ``tenant``" from per-tenant rules.

    Built from plain data, so a service can rebuild it from its own state whenever the
    rules change; an engine is immutable once built.
    """

    def __init__(
        self,
        tenants: Mapping[str, TenantRules],
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._tenants = dict(tenants)
        self._clock = clock
        model = casbin.Model()
        model.load_model_from_text(_MODEL)
        self._enforcer = casbin.Enforcer(model)
        grants: list[list[str]] = []
        assignments: list[list[str]] = []
        for tenant, rules in self._tenants.items():
            for role, permissions in rules.roles.items():
                grants.extend(
                    [_ROLE + role, tenant, *_split(permission)]
                    for permission in validate_permissions(permissions)
                )
            for user, roles in rules.members.items():
                unknown = set(roles) - set(rules.roles)
                if unknown:
                    raise ValueError(
                        f"tenant {tenant!r}: user {user!r} has undefined roles {sorted(unknown)}"
                    )
                assignments.extend(
                    [_USER + user, _ROLE + role, tenant] for role in roles
                )
        if grants:
            self._enforcer.add_policies(grants)
        if assignments:
            self._enforcer.add_grouping_policies(assignments)

    @classmethod
    def from_data(
        cls, data: Mapping[str, Mapping[str, Any]], **kwargs: Any
    ) -> PolicyEngine:
        """From ``{tenant_id: tenant rules as plain data}`` (see :meth:`TenantRules.from_dict`)."""
        return cls(
            {tenant: TenantRules.from_dict(rules) for tenant, rules in data.items()},
            **kwargs,
        )

    def roles_of(self, subject: str, tenant: str) -> list[str]:
        """The roles ``subject`` has in ``tenant``."""
        roles = self._enforcer.get_roles_for_user_in_domain(_USER + subject, tenant)
        return sorted(role.removeprefix(_ROLE) for role in roles)

    def permissions_of(self, subject: str, tenant: str) -> frozenset[str]:
        """The permissions (patterns) granted to ``subject`` in ``tenant`` by roles, e.g.
        for the ``permissions`` claim of a token; attribute policies are not included."""
        rules = self._tenants.get(tenant)
        if rules is None:
            return frozenset()
        return frozenset(
            permission
            for role in self.roles_of(subject, tenant)
            for permission in rules.roles.get(role, ())
        )

    def check(
        self,
        subject: str,
        tenant: str,
        permission: str,
        *,
        resource: Mapping[str, Any] | None = None,
        env: Mapping[str, Any] | None = None,
        user: Mapping[str, Any] | None = None,
    ) -> Decision:
        """Decide ``permission`` for ``subject`` in ``tenant``.

        ``resource`` and ``env`` are the attributes policies see as ``resource.*`` and
        ``env.*`` (``env`` gets the current time attributes unless given, see
        :func:`~eaf.security.conditions.environment`); ``user.*`` is the tenant's stored
        attributes of the subject, updated by ``user``, with ``id``, ``tenant_id`` and
        ``roles`` always set by the engine.
        """
        validate_permission(permission)
        rules = self._tenants.get(tenant)
        if rules is None:
            return Decision(
                False, f"no role or policy grants {permission} (unknown tenant)"
            )
        roles = self.roles_of(subject, tenant)
        attributes = {
            "user": {
                **rules.users.get(subject, {}),
                **(user or {}),
                "id": subject,
                "tenant_id": tenant,
                "roles": roles,
            },
            "resource": dict(resource or {}),
            "env": {**environment(self._clock()), **(env or {})},
        }
        applicable = [
            policy for policy in rules.policies if policy.applies_to(permission)
        ]
        for policy in applicable:
            if policy.effect == "deny" and policy.matches(attributes):
                return Decision(False, f"denied by policy {policy.id!r}")
        if self._enforcer.enforce(_USER + subject, tenant, *_split(permission)):
            granting = next(
                (
                    role
                    for role in roles
                    if has_permission(rules.roles[role], permission)
                ),
                "?",
            )
            return Decision(True, f"granted by role {granting!r}")
        for policy in applicable:
            if policy.effect == "allow" and policy.matches(attributes):
                return Decision(True, f"allowed by policy {policy.id!r}")
        return Decision(False, f"no role or policy grants {permission}")


def _split(permission: str) -> tuple[str, str]:
    if permission == WILDCARD:
        return WILDCARD, WILDCARD
    resource, action = permission.split(":")
    return resource, action
