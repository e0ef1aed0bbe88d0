"""The roles and policies of each tenant, folded from its stored events.

Each tenant's fold is cached with the global position it has seen; every read folds
in only the newer events, so a write is visible to the next read in any process."""

import asyncio
from dataclasses import dataclass, field

from eaf import context
from eaf.eventsourcing import EventStore

from iam.domain.model import Policy, Role
from iam.infrastructure.persistence import (
    EVENTS,
    EventSourcedPolicyRepository,
    EventSourcedRoleRepository,
)

ROLE_EVENTS = ("RoleCreated", "RoleChanged", "RolePermissionsChanged", "RoleDescribed")
POLICY_EVENTS = ("PolicyCreated", "PolicyChanged", "PolicyStatusChanged")
PAGE = 500


@dataclass
class _TenantRules:
    # One catch-up at a time per tenant; tenants never wait for each other.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    position: int = 0
    roles: dict[str, Role] = field(default_factory=dict)
    policies: dict[str, Policy] = field(default_factory=dict)


class StoredAccessRules:
    """An :class:`~iam.application.ports.access.AccessRules` on the event store."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._tenants: dict[str, _TenantRules] = {}

    async def roles(self) -> dict[str, Role]:
        rules = await self._current()
        return {role.name: role for role in rules.roles.values()}

    async def policies(self) -> list[Policy]:
        return list((await self._current()).policies.values())

    async def _current(self) -> _TenantRules:
        rules = self._tenants.setdefault(context.require_tenant(), _TenantRules())
        async with rules.lock:
            while True:
                events = await self._store.read_all(
                    after=rules.position,
                    limit=PAGE,
                    event_types=ROLE_EVENTS + POLICY_EVENTS,
                )
                for stored in events:
                    event = EVENTS.decode(stored)
                    if stored.stream_type == EventSourcedRoleRepository.STREAM:
                        role = rules.roles.get(stored.stream_id)
                        rules.roles[stored.stream_id] = (
                            Role.from_history([event])
                            if role is None
                            else role.apply(event)
                        )
                    elif stored.stream_type == EventSourcedPolicyRepository.STREAM:
                        policy = rules.policies.get(stored.stream_id)
                        rules.policies[stored.stream_id] = (
                            Policy.from_history([event])
                            if policy is None
                            else policy.apply(event)
                        )
                    rules.position = stored.position
                if len(events) < PAGE:
                    return rules
