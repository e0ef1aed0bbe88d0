# Generated from spec iam by `generate`; edits are merged on re-render.

"""Read models: projections of the stored events, one row per aggregate, kept up to date
by projectors that follow the event store (each batch and its checkpoint in one
transaction, so a restart neither skips nor repeats an event)."""

import asyncio
from datetime import datetime
from typing import Any

from eaf.eventsourcing import EventStore, StoredEvent
from eaf.projectors import (
    InMemoryProjectionStore,
    Projection,
    ProjectionStore,
    Projector,
    ReadModel,
    SqlProjectionStore,
    StoreFollower,
    read_model_table,
    update,
    upsert,
)

from iam.domain.model import Policy, Role, ServiceAccount, Tenant, User

TENANT_TABLE = read_model_table(
    "tenant_list",
    {
        "id": "str",
        "name": "str",
        "admin_user_id": "str",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
)
TENANT_PROJECTION = Projection("TenantList", TENANT_TABLE)


def _tenant_key(event: StoredEvent) -> dict[str, Any]:
    return {"id": str(event.payload["tenant_id"])}


def _tenant_created_event_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "id": str(payload["tenant_id"]),
        "created_at": payload["occurred_at"],
        "name": payload["name"],
        "admin_user_id": payload["admin_user_id"],
        "status": "ACTIVE",
        "updated_at": payload["occurred_at"],
    }


def _tenant_status_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "status": payload["status"],
        "updated_at": payload["occurred_at"],
    }


TENANT_PROJECTION.on(
    "TenantCreatedEvent",
    upsert(_tenant_created_event_row),
)
TENANT_PROJECTION.on(
    "TenantStatusChanged",
    update(_tenant_key, _tenant_status_changed_row),
)


class ReadModelTenantListing:
    """Lists the tenant's tenant rows of the read model."""

    def __init__(self, store: ProjectionStore) -> None:
        self._rows = ReadModel(store, TENANT_PROJECTION)

    async def list(self) -> list[Tenant]:
        return [_tenant_of(row) for row in await self._rows.find()]


def _tenant_of(row: dict[str, Any]) -> Tenant:
    return Tenant(
        id=str(row["id"]),
        name=str(row["name"]),
        admin_user_id=str(row["admin_user_id"]),
        status=str(row["status"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


USER_TABLE = read_model_table(
    "user_list",
    {
        "id": "str",
        "username": "str",
        "email": "str",
        "password_hash": "str",
        "roles": "json",
        "attributes": "json",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
)
USER_PROJECTION = Projection("UserList", USER_TABLE)


def _user_key(event: StoredEvent) -> dict[str, Any]:
    return {"id": str(event.payload["user_id"])}


def _user_attributes_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "attributes": payload["attributes"],
        "updated_at": payload["occurred_at"],
    }


def _user_created_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "id": str(payload["user_id"]),
        "created_at": payload["occurred_at"],
        "username": payload["username"],
        "email": payload["email"],
        "password_hash": payload["password_hash"],
        "roles": payload["roles"],
        "attributes": payload["attributes"],
        "status": "ACTIVE",
        "updated_at": payload["occurred_at"],
    }


def _user_password_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "password_hash": payload["password_hash"],
        "updated_at": payload["occurred_at"],
    }


def _user_roles_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "roles": payload["roles"],
        "updated_at": payload["occurred_at"],
    }


def _user_status_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "status": payload["status"],
        "updated_at": payload["occurred_at"],
    }


USER_PROJECTION.on(
    "UserAttributesChanged",
    update(_user_key, _user_attributes_changed_row),
)
USER_PROJECTION.on(
    "UserCreated",
    upsert(_user_created_row),
)
USER_PROJECTION.on(
    "UserPasswordChanged",
    update(_user_key, _user_password_changed_row),
)
USER_PROJECTION.on(
    "UserRolesChanged",
    update(_user_key, _user_roles_changed_row),
)
USER_PROJECTION.on(
    "UserStatusChanged",
    update(_user_key, _user_status_changed_row),
)


class ReadModelUserListing:
    """Lists the tenant's user rows of the read model."""

    def __init__(self, store: ProjectionStore) -> None:
        self._rows = ReadModel(store, USER_PROJECTION)

    async def list(self) -> list[User]:
        return [_user_of(row) for row in await self._rows.find()]


def _user_of(row: dict[str, Any]) -> User:
    return User(
        id=str(row["id"]),
        username=str(row["username"]),
        email=str(row["email"]),
        password_hash=str(row["password_hash"]),
        roles=[str(item) for item in row["roles"]],
        attributes=dict(row["attributes"]),
        status=str(row["status"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


ROLE_TABLE = read_model_table(
    "role_list",
    {
        "id": "str",
        "name": "str",
        "permissions": "json",
        "description": "str",
        "created_at": "str",
        "updated_at": "str",
    },
)
ROLE_PROJECTION = Projection("RoleList", ROLE_TABLE)


def _role_key(event: StoredEvent) -> dict[str, Any]:
    return {"id": str(event.payload["role_id"])}


def _role_created_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "id": str(payload["role_id"]),
        "created_at": payload["occurred_at"],
        "name": payload["name"],
        "permissions": payload["permissions"],
        "description": "",
        "updated_at": payload["occurred_at"],
    }


def _role_described_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "description": payload["description"],
        "updated_at": payload["occurred_at"],
    }


def _role_permissions_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "permissions": payload["permissions"],
        "updated_at": payload["occurred_at"],
    }


ROLE_PROJECTION.on(
    "RoleCreated",
    upsert(_role_created_row),
)
ROLE_PROJECTION.on(
    "RoleDescribed",
    update(_role_key, _role_described_row),
)
ROLE_PROJECTION.on(
    "RolePermissionsChanged",
    update(_role_key, _role_permissions_changed_row),
)


class ReadModelRoleListing:
    """Lists the tenant's role rows of the read model."""

    def __init__(self, store: ProjectionStore) -> None:
        self._rows = ReadModel(store, ROLE_PROJECTION)

    async def list(self) -> list[Role]:
        return [_role_of(row) for row in await self._rows.find()]


def _role_of(row: dict[str, Any]) -> Role:
    return Role(
        id=str(row["id"]),
        name=str(row["name"]),
        permissions=[str(item) for item in row["permissions"]],
        description=str(row["description"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


POLICY_TABLE = read_model_table(
    "policy_list",
    {
        "id": "str",
        "name": "str",
        "effect": "str",
        "permissions": "json",
        "conditions": "str",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
)
POLICY_PROJECTION = Projection("PolicyList", POLICY_TABLE)


def _policy_key(event: StoredEvent) -> dict[str, Any]:
    return {"id": str(event.payload["policy_id"])}


def _policy_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "name": payload["name"],
        "effect": payload["effect"],
        "permissions": payload["permissions"],
        "conditions": payload["conditions"],
        "updated_at": payload["occurred_at"],
    }


def _policy_created_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "id": str(payload["policy_id"]),
        "created_at": payload["occurred_at"],
        "name": payload["name"],
        "effect": payload["effect"],
        "permissions": payload["permissions"],
        "conditions": payload["conditions"],
        "status": "ACTIVE",
        "updated_at": payload["occurred_at"],
    }


def _policy_status_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "status": payload["status"],
        "updated_at": payload["occurred_at"],
    }


POLICY_PROJECTION.on(
    "PolicyChanged",
    update(_policy_key, _policy_changed_row),
)
POLICY_PROJECTION.on(
    "PolicyCreated",
    upsert(_policy_created_row),
)
POLICY_PROJECTION.on(
    "PolicyStatusChanged",
    update(_policy_key, _policy_status_changed_row),
)


class ReadModelPolicyListing:
    """Lists the tenant's policy rows of the read model."""

    def __init__(self, store: ProjectionStore) -> None:
        self._rows = ReadModel(store, POLICY_PROJECTION)

    async def list(self) -> list[Policy]:
        return [_policy_of(row) for row in await self._rows.find()]


def _policy_of(row: dict[str, Any]) -> Policy:
    return Policy(
        id=str(row["id"]),
        name=str(row["name"]),
        effect=str(row["effect"]),
        permissions=[str(item) for item in row["permissions"]],
        conditions=str(row["conditions"]),
        status=str(row["status"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


SERVICE_ACCOUNT_TABLE = read_model_table(
    "service_account_list",
    {
        "id": "str",
        "client_id": "str",
        "secret_hash": "str",
        "roles": "json",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
)
SERVICE_ACCOUNT_PROJECTION = Projection("ServiceAccountList", SERVICE_ACCOUNT_TABLE)


def _service_account_key(event: StoredEvent) -> dict[str, Any]:
    return {"id": str(event.payload["service_account_id"])}


def _service_account_created_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "id": str(payload["service_account_id"]),
        "created_at": payload["occurred_at"],
        "client_id": payload["client_id"],
        "secret_hash": payload["secret_hash"],
        "roles": payload["roles"],
        "status": "ACTIVE",
        "updated_at": payload["occurred_at"],
    }


def _service_account_secret_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "secret_hash": payload["secret_hash"],
        "updated_at": payload["occurred_at"],
    }


def _service_account_status_changed_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "status": payload["status"],
        "updated_at": payload["occurred_at"],
    }


SERVICE_ACCOUNT_PROJECTION.on(
    "ServiceAccountCreated",
    upsert(_service_account_created_row),
)
SERVICE_ACCOUNT_PROJECTION.on(
    "ServiceAccountSecretChanged",
    update(_service_account_key, _service_account_secret_changed_row),
)
SERVICE_ACCOUNT_PROJECTION.on(
    "ServiceAccountStatusChanged",
    update(_service_account_key, _service_account_status_changed_row),
)


class ReadModelServiceAccountListing:
    """Lists the tenant's service account rows of the read model."""

    def __init__(self, store: ProjectionStore) -> None:
        self._rows = ReadModel(store, SERVICE_ACCOUNT_PROJECTION)

    async def list(self) -> list[ServiceAccount]:
        return [_service_account_of(row) for row in await self._rows.find()]


def _service_account_of(row: dict[str, Any]) -> ServiceAccount:
    return ServiceAccount(
        id=str(row["id"]),
        client_id=str(row["client_id"]),
        secret_hash=str(row["secret_hash"]),
        roles=[str(item) for item in row["roles"]],
        status=str(row["status"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


PROJECTIONS = [
    TENANT_PROJECTION,
    USER_PROJECTION,
    ROLE_PROJECTION,
    POLICY_PROJECTION,
    SERVICE_ACCOUNT_PROJECTION,
]


def projection_store(events: EventStore) -> ProjectionStore:
    """Read models live in the event store's database (in memory beside a memory store)."""
    database = getattr(events, "database", None)
    return (
        InMemoryProjectionStore() if database is None else SqlProjectionStore(database)
    )


class Projectors:
    """Runs one projector per read model, following the event store until stopped."""

    def __init__(self, events: EventStore, store: ProjectionStore) -> None:
        self._followers = [
            StoreFollower(Projector(projection, store), events, poll_interval=0.1)
            for projection in PROJECTIONS
        ]
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        for follower in self._followers:
            await follower.projector.start()
            self._tasks.append(asyncio.create_task(follower.run(self._stop)))

    async def stop(self) -> None:
        self._stop.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)
