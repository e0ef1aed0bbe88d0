# Generated from spec iam by `generate`; edits are merged on re-render.

"""Read models: projections of the stored events, kept up to date by projectors that follow
the event store (each batch and its checkpoint in one transaction, so a restart neither
skips nor repeats an event). Events are upcast to their current schema version first; a
read model whose shape changed is rebuilt from the first event."""

from eaf.eventsourcing import StoredEvent
from eaf.eventsourcing.serialization import encode_value
from eaf.projectors import (
    Projection,
    ProjectionStore,
    ReadModelWriter,
    RowQueries,
    key_value,
    read_model_table,
)

from iam.domain.events import (
    PolicyChanged,
    PolicyCreated,
    PolicyStatusChanged,
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
from iam.domain.model import Policy, Role, ServiceAccount, Tenant, User

# Private names: a read model's constant (its name in capitals) may be EVENTS or E.
from iam.infrastructure.persistence import EVENTS as _EVENT_TYPES

TENANT_LIST_TABLE = read_model_table(
    "tenant_list",
    {
        "id": "str",
        "name": "str",
        "admin_user_id": "str",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
TENANT_LIST = Projection("TenantList", TENANT_LIST_TABLE, version="082e11b06d08")


@TENANT_LIST.handles("TenantCreatedEvent")
async def _tenant_created_event_tenant_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, TenantCreatedEvent)
    key = {
        "id": key_value(event.tenant_id),
    }
    await writer.upsert(
        {
            **key,
            "name": encode_value(event.name),
            "admin_user_id": encode_value(event.admin_user_id),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "status": encode_value("ACTIVE"),
        }
    )


@TENANT_LIST.handles("TenantStatusChanged")
async def _tenant_status_changed_tenant_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, TenantStatusChanged)
    key = {
        "id": key_value(event.tenant_id),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelTenantListing(RowQueries[Tenant]):
    """Reads the tenant's rows of TenantList (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, TENANT_LIST, Tenant)


USER_LIST_TABLE = read_model_table(
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
    key=("id",),
)
USER_LIST = Projection("UserList", USER_LIST_TABLE, version="99145f200d29")


@USER_LIST.handles("UserCreated")
async def _user_created_user_list(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, UserCreated)
    key = {
        "id": key_value(event.user_id),
    }
    await writer.upsert(
        {
            **key,
            "username": encode_value(event.username),
            "email": encode_value(event.email),
            "password_hash": encode_value(event.password_hash),
            "roles": encode_value(event.roles),
            "attributes": encode_value(event.attributes),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "status": encode_value("ACTIVE"),
        }
    )


@USER_LIST.handles("UserStatusChanged")
async def _user_status_changed_user_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, UserStatusChanged)
    key = {
        "id": key_value(event.user_id),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@USER_LIST.handles("UserRolesChanged")
async def _user_roles_changed_user_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, UserRolesChanged)
    key = {
        "id": key_value(event.user_id),
    }
    await writer.update(
        key,
        {
            "roles": encode_value(event.roles),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@USER_LIST.handles("UserAttributesChanged")
async def _user_attributes_changed_user_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, UserAttributesChanged)
    key = {
        "id": key_value(event.user_id),
    }
    await writer.update(
        key,
        {
            "attributes": encode_value(event.attributes),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@USER_LIST.handles("UserPasswordChanged")
async def _user_password_changed_user_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, UserPasswordChanged)
    key = {
        "id": key_value(event.user_id),
    }
    await writer.update(
        key,
        {
            "password_hash": encode_value(event.password_hash),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelUserListing(RowQueries[User]):
    """Reads the tenant's rows of UserList (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, USER_LIST, User)


ROLE_LIST_TABLE = read_model_table(
    "role_list",
    {
        "id": "str",
        "name": "str",
        "permissions": "json",
        "description": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
ROLE_LIST = Projection("RoleList", ROLE_LIST_TABLE, version="87fd82755070")


@ROLE_LIST.handles("RoleCreated")
async def _role_created_role_list(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, RoleCreated)
    key = {
        "id": key_value(event.role_id),
    }
    await writer.upsert(
        {
            **key,
            "name": encode_value(event.name),
            "permissions": encode_value(event.permissions),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "description": encode_value(""),
        }
    )


@ROLE_LIST.handles("RolePermissionsChanged")
async def _role_permissions_changed_role_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, RolePermissionsChanged)
    key = {
        "id": key_value(event.role_id),
    }
    await writer.update(
        key,
        {
            "permissions": encode_value(event.permissions),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@ROLE_LIST.handles("RoleDescribed")
async def _role_described_role_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, RoleDescribed)
    key = {
        "id": key_value(event.role_id),
    }
    await writer.update(
        key,
        {
            "description": encode_value(event.description),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelRoleListing(RowQueries[Role]):
    """Reads the tenant's rows of RoleList (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, ROLE_LIST, Role)


POLICY_LIST_TABLE = read_model_table(
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
    key=("id",),
)
POLICY_LIST = Projection("PolicyList", POLICY_LIST_TABLE, version="cef228cb2c6c")


@POLICY_LIST.handles("PolicyCreated")
async def _policy_created_policy_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PolicyCreated)
    key = {
        "id": key_value(event.policy_id),
    }
    await writer.upsert(
        {
            **key,
            "name": encode_value(event.name),
            "effect": encode_value(event.effect),
            "permissions": encode_value(event.permissions),
            "conditions": encode_value(event.conditions),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "status": encode_value("ACTIVE"),
        }
    )


@POLICY_LIST.handles("PolicyChanged")
async def _policy_changed_policy_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PolicyChanged)
    key = {
        "id": key_value(event.policy_id),
    }
    await writer.update(
        key,
        {
            "name": encode_value(event.name),
            "effect": encode_value(event.effect),
            "permissions": encode_value(event.permissions),
            "conditions": encode_value(event.conditions),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@POLICY_LIST.handles("PolicyStatusChanged")
async def _policy_status_changed_policy_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PolicyStatusChanged)
    key = {
        "id": key_value(event.policy_id),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelPolicyListing(RowQueries[Policy]):
    """Reads the tenant's rows of PolicyList (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, POLICY_LIST, Policy)


SERVICE_ACCOUNT_LIST_TABLE = read_model_table(
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
    key=("id",),
)
SERVICE_ACCOUNT_LIST = Projection(
    "ServiceAccountList", SERVICE_ACCOUNT_LIST_TABLE, version="5a30f8f1b4d3"
)


@SERVICE_ACCOUNT_LIST.handles("ServiceAccountCreated")
async def _service_account_created_service_account_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ServiceAccountCreated)
    key = {
        "id": key_value(event.service_account_id),
    }
    await writer.upsert(
        {
            **key,
            "client_id": encode_value(event.client_id),
            "secret_hash": encode_value(event.secret_hash),
            "roles": encode_value(event.roles),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "status": encode_value("ACTIVE"),
        }
    )


@SERVICE_ACCOUNT_LIST.handles("ServiceAccountStatusChanged")
async def _service_account_status_changed_service_account_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ServiceAccountStatusChanged)
    key = {
        "id": key_value(event.service_account_id),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@SERVICE_ACCOUNT_LIST.handles("ServiceAccountSecretChanged")
async def _service_account_secret_changed_service_account_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ServiceAccountSecretChanged)
    key = {
        "id": key_value(event.service_account_id),
    }
    await writer.update(
        key,
        {
            "secret_hash": encode_value(event.secret_hash),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelServiceAccountListing(RowQueries[ServiceAccount]):
    """Reads the tenant's rows of ServiceAccountList (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, SERVICE_ACCOUNT_LIST, ServiceAccount)


PROJECTIONS = [TENANT_LIST, USER_LIST, ROLE_LIST, POLICY_LIST, SERVICE_ACCOUNT_LIST]
