"""Roles, attribute policies and authorization decisions, per tenant (RBAC + ABAC)."""

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from eaf.security import (
    Condition,
    Decision,
    PolicyEngine,
    TenantRules,
    validate_permission,
)
from eaf.security import Policy as EnginePolicy

from iam.application.identity import (
    ACTIVE,
    DISABLED,
    AlreadyExistsError,
    in_tenant,
    policy_id_for,
)
from iam.application.ports.access import AccessRules
from iam.application.ports.outbound import (
    Clock,
    PolicyRepository,
    RoleRepository,
    ServiceAccountRepository,
    UserRepository,
)
from iam.domain.errors import ConcurrencyError, DomainValidationError, NotFoundError
from iam.domain.model import Policy


@dataclass(frozen=True)
class Subject:
    """Whom a decision is about: a user or a service account of the tenant."""

    id: str
    roles: list[str]
    attributes: Mapping[str, Any]


def checked_permissions(permissions: Iterable[str]) -> list[str]:
    """``permissions`` deduplicated in order; 422 naming the first malformed one."""
    checked: list[str] = []
    for permission in permissions:
        try:
            validate_permission(permission)
        except ValueError as error:
            raise DomainValidationError("permissions", str(error)) from None
        if permission not in checked:
            checked.append(permission)
    return checked


def conditions_json(conditions: Sequence[Mapping[str, Any]]) -> str:
    """The stored form of API conditions (``{attribute, op, value | valueOf}``), checked."""
    stored = []
    for condition in conditions:
        unknown = set(condition) - {"attribute", "op", "value", "valueOf"}
        if unknown:
            raise DomainValidationError(
                "conditions", f"unknown condition fields {sorted(unknown)}"
            )
        try:
            _engine_condition(condition)
        except (KeyError, ValueError, TypeError) as error:
            raise DomainValidationError("conditions", str(error)) from None
        stored.append(dict(condition))
    return json.dumps(stored, sort_keys=True)


def conditions_of(policy: Policy) -> list[dict[str, Any]]:
    """The conditions of ``policy`` as the API shows them."""
    return cast(list[dict[str, Any]], json.loads(policy.conditions or "[]"))


def _engine_condition(condition: Mapping[str, Any]) -> Condition:
    return Condition(
        attribute=condition["attribute"],
        op=condition["op"],
        value=condition.get("value"),
        value_of=condition.get("valueOf"),
    )


def _engine_policy(policy: Policy) -> EnginePolicy:
    return EnginePolicy(
        id=policy.name,
        effect="deny" if policy.effect == "deny" else "allow",
        permissions=frozenset(policy.permissions),
        conditions=tuple(_engine_condition(c) for c in conditions_of(policy)),
    )


class AccessControl:
    """The roles and policies of each tenant, and the decisions they make."""

    def __init__(
        self,
        *,
        roles: RoleRepository,
        policies: PolicyRepository,
        users: UserRepository,
        service_accounts: ServiceAccountRepository,
        rules: AccessRules,
        clock: Clock,
    ) -> None:
        self._roles = roles
        self._policies = policies
        self._users = users
        self._service_accounts = service_accounts
        self._rules = rules
        self._clock = clock

    async def unknown_roles(self, tenant_id: str, names: Iterable[str]) -> list[str]:
        with in_tenant(tenant_id):
            known = await self._rules.roles()
        return [name for name in names if name not in known]

    async def permissions_of(self, tenant_id: str, roles: Iterable[str]) -> set[str]:
        """The union of the permissions of ``roles`` in ``tenant_id``."""
        with in_tenant(tenant_id):
            known = await self._rules.roles()
        return {
            permission
            for name in roles
            if name in known
            for permission in known[name].permissions
        }

    async def create_policy(
        self,
        tenant_id: str,
        *,
        name: str,
        effect: str,
        permissions: list[str],
        conditions: Sequence[Mapping[str, Any]],
    ) -> Policy:
        policy = Policy.create(
            name=name,
            effect=effect,
            permissions=self._policy_permissions(permissions),
            conditions=conditions_json(conditions),
            now=self._clock.now(),
            id=policy_id_for(tenant_id, name),
        )
        with in_tenant(tenant_id):
            try:
                return await self._policies.save(policy)
            except ConcurrencyError:
                raise AlreadyExistsError(f"A policy named {name} exists") from None

    async def policies(self, tenant_id: str) -> list[Policy]:
        with in_tenant(tenant_id):
            return sorted(await self._rules.policies(), key=lambda p: p.name)

    async def policy(self, tenant_id: str, policy_id: str) -> Policy:
        with in_tenant(tenant_id):
            policy = await self._policies.get(policy_id)
        if policy is None:
            raise NotFoundError("Policy not found")
        return policy

    async def change_policy(
        self,
        tenant_id: str,
        policy_id: str,
        *,
        effect: str,
        permissions: list[str],
        conditions: Sequence[Mapping[str, Any]],
    ) -> Policy:
        """Replace the rule of a policy; its name (and so its id) stays."""
        policy = await self.policy(tenant_id, policy_id)
        changed = policy.change(
            name=policy.name,
            effect=effect,
            permissions=self._policy_permissions(permissions),
            conditions=conditions_json(conditions),
            now=self._clock.now(),
        )
        with in_tenant(tenant_id):
            return await self._policies.save(changed)

    async def disable_policy(self, tenant_id: str, policy_id: str) -> Policy:
        policy = await self.policy(tenant_id, policy_id)
        if policy.status == DISABLED:
            return policy
        with in_tenant(tenant_id):
            return await self._policies.save(
                policy.change_status(status=DISABLED, now=self._clock.now())
            )

    async def subject(self, tenant_id: str, subject_id: str) -> Subject | None:
        """The active user or service account ``subject_id`` of the tenant."""
        with in_tenant(tenant_id):
            user = await self._users.get(subject_id)
            if user is not None:
                if user.status != ACTIVE:
                    return None
                return Subject(user.id, user.roles, user.attributes)
            account = await self._service_accounts.get(subject_id)
        if account is None or account.status != ACTIVE:
            return None
        return Subject(account.id, account.roles, {"client_id": account.client_id})

    async def check(
        self,
        tenant_id: str,
        subject_id: str,
        permission: str,
        *,
        resource: Mapping[str, Any],
        env: Mapping[str, Any],
    ) -> Decision:
        """The tenant's decision on ``permission`` for the subject: a matching deny policy
        wins, then a role grant or a matching allow policy allows."""
        checked_permissions([permission])
        subject = await self.subject(tenant_id, subject_id)
        if subject is None:
            return Decision(False, "the subject is unknown or not active")
        with in_tenant(tenant_id):
            roles = await self._rules.roles()
            policies = await self._rules.policies()
        engine = PolicyEngine(
            {
                tenant_id: TenantRules(
                    roles={name: role.permissions for name, role in roles.items()},
                    members={subject.id: [r for r in subject.roles if r in roles]},
                    policies=[
                        _engine_policy(p) for p in policies if p.status == ACTIVE
                    ],
                    users={subject.id: subject.attributes},
                )
            },
            clock=self._clock.now,
        )
        return engine.check(
            subject.id, tenant_id, permission, resource=resource, env=env
        )

    @staticmethod
    def _policy_permissions(permissions: list[str]) -> list[str]:
        if not permissions:
            raise DomainValidationError("permissions", "A policy names permissions")
        return checked_permissions(permissions)
