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
    ClientRegistered,
    ClientStatusChanged,
    PolicyChanged,
    PolicyCreated,
    PolicyStatusChanged,
    RoleChanged,
    RoleCreated,
    RoleDescribed,
    RolePermissionsChanged,
    ServiceAccountCreated,
    ServiceAccountSecretChanged,
    ServiceAccountStatusChanged,
    UserAttributesChanged,
    UserChanged,
    UserCreated,
    UserPasswordChanged,
    UserRolesChanged,
    UserStatusChanged,
)
from iam.domain.model import Policy, RegisteredClient, Role, ServiceAccount, User

# Private names: a read model's constant (its name in capitals) may be EVENTS or E.
from iam.infrastructure.persistence import EVENTS as _EVENT_TYPES

USER_LIST_TABLE = read_model_table(
    "user_list",
    {
        "id": "str",
        "username": "str",
        "email": "str",
        "password": "str",
        "roles": "json",
        "attributes": "json",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
USER_LIST = Projection("UserList", USER_LIST_TABLE, version="0b14dd9893c3")


@USER_LIST.handles("UserCreated", writer_only=True)
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
            "password": encode_value(""),
            "roles": encode_value(event.roles),
            "attributes": encode_value(event.attributes),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "status": encode_value("ACTIVE"),
        }
    )


@USER_LIST.handles("UserStatusChanged", writer_only=True)
async def _user_status_changed_user_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, UserStatusChanged)
    key = {
        "id": key_value(event.user_id),
    }
    if event.status == "DELETED":  # the User is gone (deleted): so is its row
        await writer.delete(key)
        return
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@USER_LIST.handles("UserRolesChanged", writer_only=True)
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


@USER_LIST.handles("UserAttributesChanged", writer_only=True)
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


@USER_LIST.handles("UserPasswordChanged", writer_only=True)
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
            "password": encode_value(""),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@USER_LIST.handles("UserChanged", writer_only=True)
async def _user_changed_user_list(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, UserChanged)
    key = {
        "id": key_value(event.user_id),
    }
    if event.status == "DELETED":  # the User is gone (deleted): so is its row
        await writer.delete(key)
        return
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "roles": encode_value(event.roles),
            "attributes": encode_value(event.attributes),
            "password": encode_value(""),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelUserListing(RowQueries[User]):
    """Reads the tenant's rows of UserList (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, USER_LIST, User)


ROLES_TABLE = read_model_table(
    "roles",
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
ROLES = Projection("Roles", ROLES_TABLE, version="6b97592203d8")


@ROLES.handles("RoleCreated", writer_only=True)
async def _role_created_roles(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, RoleCreated)
    key = {
        "id": key_value(event.role_id),
    }
    await writer.upsert(
        {
            **key,
            "name": encode_value(event.name),
            "permissions": encode_value(event.permissions),
            "description": encode_value(event.description),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@ROLES.handles("RoleChanged", writer_only=True)
async def _role_changed_roles(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, RoleChanged)
    key = {
        "id": key_value(event.role_id),
    }
    await writer.update(
        key,
        {
            "permissions": encode_value(event.permissions),
            "description": encode_value(event.description),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@ROLES.handles("RolePermissionsChanged", writer_only=True)
async def _role_permissions_changed_roles(
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


@ROLES.handles("RoleDescribed", writer_only=True)
async def _role_described_roles(writer: ReadModelWriter, stored: StoredEvent) -> None:
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
    """Reads the tenant's rows of Roles (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, ROLES, Role)


SERVICE_ACCOUNTS_TABLE = read_model_table(
    "service_accounts",
    {
        "id": "str",
        "client_id": "str",
        "client_secret": "str",
        "roles": "json",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
SERVICE_ACCOUNTS = Projection(
    "ServiceAccounts", SERVICE_ACCOUNTS_TABLE, version="45542e218e90"
)


@SERVICE_ACCOUNTS.handles("ServiceAccountCreated", writer_only=True)
async def _service_account_created_service_accounts(
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
            "client_secret": encode_value(""),
            "roles": encode_value(event.roles),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "status": encode_value("ACTIVE"),
        }
    )


@SERVICE_ACCOUNTS.handles("ServiceAccountStatusChanged", writer_only=True)
async def _service_account_status_changed_service_accounts(
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


@SERVICE_ACCOUNTS.handles("ServiceAccountSecretChanged", writer_only=True)
async def _service_account_secret_changed_service_accounts(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ServiceAccountSecretChanged)
    key = {
        "id": key_value(event.service_account_id),
    }
    await writer.update(
        key,
        {
            "client_secret": encode_value(""),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelServiceAccountListing(RowQueries[ServiceAccount]):
    """Reads the tenant's rows of ServiceAccounts (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, SERVICE_ACCOUNTS, ServiceAccount)


POLICIES_TABLE = read_model_table(
    "policies",
    {
        "id": "str",
        "name": "str",
        "effect": "str",
        "permissions": "json",
        "conditions": "json",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
POLICIES = Projection("Policies", POLICIES_TABLE, version="46aa0e5f050c")


@POLICIES.handles("PolicyCreated", writer_only=True)
async def _policy_created_policies(
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


@POLICIES.handles("PolicyChanged", writer_only=True)
async def _policy_changed_policies(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PolicyChanged)
    key = {
        "id": key_value(event.policy_id),
    }
    await writer.update(
        key,
        {
            "effect": encode_value(event.effect),
            "permissions": encode_value(event.permissions),
            "conditions": encode_value(event.conditions),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@POLICIES.handles("PolicyStatusChanged", writer_only=True)
async def _policy_status_changed_policies(
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
    """Reads the tenant's rows of Policies (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, POLICIES, Policy)


REGISTERED_CLIENTS_TABLE = read_model_table(
    "registered_clients",
    {
        "id": "str",
        "client_id": "str",
        "name": "str",
        "client_type": "str",
        "client_secret": "str",
        "grant_types": "json",
        "redirect_uris": "json",
        "post_logout_redirect_uris": "json",
        "scopes": "json",
        "first_party": "bool",
        "status": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
REGISTERED_CLIENTS = Projection(
    "RegisteredClients", REGISTERED_CLIENTS_TABLE, version="7262ca7fba3d"
)


@REGISTERED_CLIENTS.handles("ClientRegistered", writer_only=True)
async def _client_registered_registered_clients(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ClientRegistered)
    key = {
        "id": key_value(event.client_uuid),
    }
    await writer.upsert(
        {
            **key,
            "client_id": encode_value(event.client_id),
            "name": encode_value(event.name),
            "client_type": encode_value(event.client_type),
            "client_secret": encode_value(
                "" if (event.client_secret is not None) else None
            ),
            "grant_types": encode_value(event.grant_types),
            "redirect_uris": encode_value(event.redirect_uris),
            "post_logout_redirect_uris": encode_value(event.post_logout_redirect_uris),
            "scopes": encode_value(event.scopes),
            "first_party": encode_value(event.first_party),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
            "status": encode_value("ACTIVE"),
        }
    )


@REGISTERED_CLIENTS.handles("ClientStatusChanged", writer_only=True)
async def _client_status_changed_registered_clients(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ClientStatusChanged)
    key = {
        "id": key_value(event.client_uuid),
    }
    await writer.update(
        key,
        {
            "status": encode_value(event.status),
            "updated_at": encode_value(event.occurred_at),
        },
    )


class ReadModelRegisteredClientListing(RowQueries[RegisteredClient]):
    """Reads the tenant's rows of RegisteredClients (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, REGISTERED_CLIENTS, RegisteredClient)


PROJECTIONS = [USER_LIST, ROLES, SERVICE_ACCOUNTS, POLICIES, REGISTERED_CLIENTS]
