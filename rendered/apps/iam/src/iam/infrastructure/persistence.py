# Generated from spec iam by `generate`; edits are merged on re-render.

"""Event-sourced repositories on the eaf event store (SQLite, PostgreSQL or in-memory):
an aggregate is the fold of its stream; saving appends its new events, with the outbox,
in one transaction; stored events of older schema versions are upcast on read."""

from eaf.context import platform_context, use
from eaf.eventsourcing import ConcurrencyError as StreamConflict
from eaf.eventsourcing import (
    EventRegistry,
    EventStore,
    InMemoryEventStore,
    create_event_store,
)

from iam.domain.errors import ConcurrencyError
from iam.domain.events import (
    SCHEMA_VERSIONS,
    AccessTokenRevoked,
    PolicyChanged,
    PolicyCreated,
    PolicyStatusChanged,
    RefreshTokenFamilyRevoked,
    RefreshTokenIssued,
    RefreshTokenRotated,
    RoleCreated,
    RoleDescribed,
    RolePermissionsChanged,
    ServiceAccountCreated,
    ServiceAccountSecretChanged,
    ServiceAccountStatusChanged,
    TenantCreatedEvent,
    TenantStatusChanged,
    UserAttributesChanged,
    UserCreated,
    UserPasswordChanged,
    UserRolesChanged,
    UserStatusChanged,
)
from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    Role,
    ServiceAccount,
    Tenant,
    User,
)

EVENTS = EventRegistry()
for event_class in (
    TenantCreatedEvent,
    TenantStatusChanged,
    UserCreated,
    UserStatusChanged,
    UserRolesChanged,
    UserAttributesChanged,
    UserPasswordChanged,
    RoleCreated,
    RolePermissionsChanged,
    RoleDescribed,
    PolicyCreated,
    PolicyChanged,
    PolicyStatusChanged,
    ServiceAccountCreated,
    ServiceAccountStatusChanged,
    ServiceAccountSecretChanged,
    RefreshTokenIssued,
    RefreshTokenRotated,
    RefreshTokenFamilyRevoked,
    AccessTokenRevoked,
):
    EVENTS.register(event_class, version=SCHEMA_VERSIONS[event_class.__name__])


async def open_event_store(url: str | None) -> EventStore:
    """The event store at ``url`` (``sqlite+aiosqlite://...``, ``postgresql+asyncpg://...``),
    or an in-memory one when ``url`` is None."""
    if url is None:
        return InMemoryEventStore()
    return await create_event_store(url)


async def close_event_store(store: EventStore) -> None:
    close = getattr(store, "close", None)
    if close is not None:
        await close()


async def event_store_ready(store: EventStore) -> bool:
    """True when the event store answers a read."""
    try:
        with use(platform_context()):
            await store.read_all(limit=1)
    except Exception:
        return False
    return True


class EventSourcedTenantRepository:
    """Tenant aggregates as streams of the current tenant's events."""

    STREAM = "Tenant"

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def get(self, id: str) -> Tenant | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return Tenant.from_history([EVENTS.decode(event) for event in stored])

    async def save(self, aggregate: Tenant) -> Tenant:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()


class EventSourcedUserRepository:
    """User aggregates as streams of the current tenant's events."""

    STREAM = "User"

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def get(self, id: str) -> User | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return User.from_history([EVENTS.decode(event) for event in stored])

    async def save(self, aggregate: User) -> User:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()


class EventSourcedRoleRepository:
    """Role aggregates as streams of the current tenant's events."""

    STREAM = "Role"

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def get(self, id: str) -> Role | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return Role.from_history([EVENTS.decode(event) for event in stored])

    async def save(self, aggregate: Role) -> Role:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()


class EventSourcedPolicyRepository:
    """Policy aggregates as streams of the current tenant's events."""

    STREAM = "Policy"

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def get(self, id: str) -> Policy | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return Policy.from_history([EVENTS.decode(event) for event in stored])

    async def save(self, aggregate: Policy) -> Policy:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()


class EventSourcedServiceAccountRepository:
    """ServiceAccount aggregates as streams of the current tenant's events."""

    STREAM = "ServiceAccount"

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def get(self, id: str) -> ServiceAccount | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return ServiceAccount.from_history([EVENTS.decode(event) for event in stored])

    async def save(self, aggregate: ServiceAccount) -> ServiceAccount:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()


class EventSourcedRefreshTokenFamilyRepository:
    """RefreshTokenFamily aggregates as streams of the current tenant's events."""

    STREAM = "RefreshTokenFamily"

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def get(self, id: str) -> RefreshTokenFamily | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return RefreshTokenFamily.from_history(
            [EVENTS.decode(event) for event in stored]
        )

    async def save(self, aggregate: RefreshTokenFamily) -> RefreshTokenFamily:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()


class EventSourcedAccessTokenRevocationRepository:
    """AccessTokenRevocation aggregates as streams of the current tenant's events."""

    STREAM = "AccessTokenRevocation"

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def get(self, id: str) -> AccessTokenRevocation | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return AccessTokenRevocation.from_history(
            [EVENTS.decode(event) for event in stored]
        )

    async def save(self, aggregate: AccessTokenRevocation) -> AccessTokenRevocation:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()
