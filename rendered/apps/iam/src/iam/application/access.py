"""Authorization decisions over each tenant's roles and attribute policies (RBAC +
ABAC); the policies themselves are served from the spec (``application/policies.py``)."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from eaf import context
from eaf.context import in_tenant
from eaf.domain import JsonValue
from eaf.security import (
    Decision,
    PolicyEngine,
    TenantRules,
    has_permission,
    validate_permission,
)
from eaf.security import Policy as EnginePolicy
from iam_client import PermissionDeniedError

from iam.application.identity import (
    ACTIVE,
    AUTHZ_READ,
    PLATFORM,
    PLATFORM_PERMISSIONS,
    tenant_reference,
)
from iam.application.policies import engine_condition
from iam.application.ports.outbound import (
    Clock,
    PolicyRepository,
    RoleRepository,
    ServiceAccountRepository,
    UserRepository,
)
from iam.domain.errors import DomainValidationError, RulesNotEvaluable
from iam.domain.model import Policy, Role
from iam.domain.types import CheckAnswer, PolicyEffect


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


def _engine_policy(policy: Policy) -> EnginePolicy:
    return EnginePolicy(
        id=policy.name,
        effect="deny" if policy.effect == PolicyEffect.DENY else "allow",
        permissions=frozenset(policy.permissions),
        conditions=tuple(engine_condition(c) for c in policy.conditions),
    )


class AccessControl:
    """The roles and policies of each tenant, and the decisions they make."""

    def __init__(
        self,
        *,
        users: UserRepository,
        service_accounts: ServiceAccountRepository,
        roles: RoleRepository,
        policies: PolicyRepository,
        clock: Clock,
    ) -> None:
        self._users = users
        self._service_accounts = service_accounts
        self._roles = roles
        self._policies = policies
        self._clock = clock

    async def _roles_by_name(self) -> dict[str, Role]:
        """The tenant's roles by name, as of the last stored event."""
        return {role.name: role for role in await self._roles.all()}

    async def unknown_roles(self, tenant_id: str, names: Iterable[str]) -> list[str]:
        with in_tenant(tenant_id):
            known = await self._roles_by_name()
        return [name for name in names if name not in known]

    async def permissions_of(self, tenant_id: str, roles: Iterable[str]) -> set[str]:
        """The union of the permissions of ``roles`` in ``tenant_id``."""
        with in_tenant(tenant_id):
            known = await self._roles_by_name()
        return {
            permission
            for name in roles
            if name in known
            for permission in known[name].permissions
        }

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

    async def decide(
        self,
        *,
        permission: str,
        resource: dict[str, JsonValue],
        env: dict[str, JsonValue],
        subject: str | None,
        tenant: str | None,
    ) -> CheckAnswer:
        """The decision of the caller's tenant on ``permission`` for the caller (or, with
        ``iam-authz:read``, for ``subject``; a platform caller names its ``tenant``);
        ``env`` defaults to the client's IP (and the engine's, to the time)."""
        caller = context.current()
        asks_for_another = subject is not None and subject != caller.user_id
        if caller.platform and not asks_for_another:
            allowed = has_permission(caller.permissions, permission)
            return CheckAnswer(allowed=allowed, reason="platform token permissions")
        if asks_for_another and not has_permission(caller.permissions, AUTHZ_READ):
            raise PermissionDeniedError(AUTHZ_READ)
        if caller.platform and tenant is None:
            # without a tenant, the subject is one of the platform's, whose tokens hold *:*
            known = await self.subject(PLATFORM, str(subject)) is not None
            return CheckAnswer(
                allowed=known and has_permission(PLATFORM_PERMISSIONS, permission),
                reason="platform permissions"
                if known
                else "the subject is no active platform user (name its tenant)",
            )
        tenant_id = tenant_reference(tenant) if caller.platform and tenant else None
        tenant_id = tenant_id or caller.tenant_id or PLATFORM
        if caller.client_ip is not None:
            env = {"ip": caller.client_ip, **env}
        try:
            decision = await self.check(
                tenant_id,
                subject if subject is not None else caller.user_id or "",
                permission,
                resource=resource,
                env=env,
            )
        except ValueError as error:
            raise RulesNotEvaluable(str(error)) from None
        return CheckAnswer(allowed=decision.allowed, reason=decision.reason)

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
            roles = await self._roles_by_name()
            policies = await self._policies.all()
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
