# Generated from spec iam by `generate`; edits are merged on re-render.

"""Event-sourced persistence on the eaf event store (SQLite, PostgreSQL or in-memory): an
aggregate is the fold of its stream; a use case's changes are appended in one transaction
(with unique-value reservations and idempotency records); stored events of older schema
versions are upcast on read."""

from typing import Any

from eaf.eventsourcing import (
    AggregateRepository,
    EventRegistry,
    EventStore,
    StoreTransactions,
)
from eaf.eventsourcing.serialization import decoded_text

from iam.domain.errors import ConcurrencyError
from iam.domain.events import (
    SCHEMA_VERSIONS,
    AccessTokenRevoked,
    ClientRegistered,
    ClientStatusChanged,
    PolicyChanged,
    PolicyCreated,
    PolicyStatusChanged,
    RefreshTokenFamilyRevoked,
    RefreshTokenIssued,
    RefreshTokenRotated,
    RoleChanged,
    RoleCreated,
    RoleDescribed,
    RolePermissionsChanged,
    SamlAssertionConsumed,
    SamlIdentityProviderChanged,
    SamlIdentityProviderCreated,
    SamlIdentityProviderStatusChanged,
    SamlLoginCompleted,
    SamlLoginStarted,
    ServiceAccountCreated,
    ServiceAccountSecretChanged,
    ServiceAccountStatusChanged,
    TenantCreatedEvent,
    TenantStatusChanged,
    UserAttributesChanged,
    UserChanged,
    UserCreated,
    UserPasswordChanged,
    UserRolesChanged,
    UserStatusChanged,
)
from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    RegisteredClient,
    Role,
    SamlAssertionUse,
    SamlIdentityProvider,
    SamlLoginRequest,
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
    RoleChanged,
    RolePermissionsChanged,
    RoleDescribed,
    PolicyCreated,
    PolicyChanged,
    PolicyStatusChanged,
    ServiceAccountCreated,
    ServiceAccountStatusChanged,
    ServiceAccountSecretChanged,
    ClientRegistered,
    ClientStatusChanged,
    RefreshTokenIssued,
    RefreshTokenRotated,
    RefreshTokenFamilyRevoked,
    AccessTokenRevoked,
    SamlIdentityProviderCreated,
    SamlIdentityProviderChanged,
    SamlIdentityProviderStatusChanged,
    SamlLoginStarted,
    SamlLoginCompleted,
    SamlAssertionConsumed,
    UserChanged,
):
    EVENTS.register(event_class, version=SCHEMA_VERSIONS[event_class.__name__])


def _tenant_status_changed_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """TenantStatusChanged v1 as v2."""
    return payload


EVENTS.add_upcaster("TenantStatusChanged", 1, _tenant_status_changed_v1_to_v2)


def _user_created_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """UserCreated v1 as v2."""
    payload["password"] = payload.pop("password_hash")
    return payload


EVENTS.add_upcaster("UserCreated", 1, _user_created_v1_to_v2)


def _user_password_changed_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """UserPasswordChanged v1 as v2."""
    payload["password"] = payload.pop("password_hash")
    return payload


EVENTS.add_upcaster("UserPasswordChanged", 1, _user_password_changed_v1_to_v2)


def _role_created_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """RoleCreated v1 as v2."""
    payload.setdefault("description", "")
    return payload


EVENTS.add_upcaster("RoleCreated", 1, _role_created_v1_to_v2)


def _policy_created_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """PolicyCreated v1 as v2."""
    if payload.get("conditions") is not None:  # JSON text, with the spec's names
        payload["conditions"] = decoded_text(
            payload["conditions"],
            (
                "list",
                (
                    "value",
                    {
                        "attribute": ("attribute", None),
                        "op": ("op", None),
                        "value": ("value_", None),
                        "valueOf": ("value_of", None),
                    },
                ),
            ),
            PolicyCreated,
            "conditions",
        )
    return payload


EVENTS.add_upcaster("PolicyCreated", 1, _policy_created_v1_to_v2)


def _policy_changed_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """PolicyChanged v1 as v2."""
    payload.pop("name", None)
    if payload.get("conditions") is not None:  # JSON text, with the spec's names
        payload["conditions"] = decoded_text(
            payload["conditions"],
            (
                "list",
                (
                    "value",
                    {
                        "attribute": ("attribute", None),
                        "op": ("op", None),
                        "value": ("value_", None),
                        "valueOf": ("value_of", None),
                    },
                ),
            ),
            PolicyChanged,
            "conditions",
        )
    return payload


EVENTS.add_upcaster("PolicyChanged", 1, _policy_changed_v1_to_v2)


def _service_account_created_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """ServiceAccountCreated v1 as v2."""
    payload["client_secret"] = payload.pop("secret_hash")
    return payload


EVENTS.add_upcaster("ServiceAccountCreated", 1, _service_account_created_v1_to_v2)


def _service_account_secret_changed_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """ServiceAccountSecretChanged v1 as v2."""
    payload["client_secret"] = payload.pop("secret_hash")
    return payload


EVENTS.add_upcaster(
    "ServiceAccountSecretChanged", 1, _service_account_secret_changed_v1_to_v2
)


def _client_registered_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """ClientRegistered v1 as v2."""
    payload["client_secret"] = payload.pop("secret_hash")
    return payload


EVENTS.add_upcaster("ClientRegistered", 1, _client_registered_v1_to_v2)


def transactions(store: EventStore) -> StoreTransactions:
    """The use cases' transactions over ``store``."""
    return StoreTransactions(store, EVENTS)


class EventSourcedTenantRepository(AggregateRepository[Tenant]):
    """Tenant aggregates as streams of the current tenant's events."""

    STREAM = "Tenant"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Tenant,
            conflict=ConcurrencyError,
            event_types=["TenantCreatedEvent", "TenantStatusChanged"],
        )


class EventSourcedUserRepository(AggregateRepository[User]):
    """User aggregates as streams of the current tenant's events."""

    STREAM = "User"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            User,
            conflict=ConcurrencyError,
            event_types=[
                "UserAttributesChanged",
                "UserChanged",
                "UserCreated",
                "UserPasswordChanged",
                "UserRolesChanged",
                "UserStatusChanged",
            ],
        )


class EventSourcedRoleRepository(AggregateRepository[Role]):
    """Role aggregates as streams of the current tenant's events."""

    STREAM = "Role"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Role,
            conflict=ConcurrencyError,
            event_types=[
                "RoleChanged",
                "RoleCreated",
                "RoleDescribed",
                "RolePermissionsChanged",
            ],
        )


class EventSourcedPolicyRepository(AggregateRepository[Policy]):
    """Policy aggregates as streams of the current tenant's events."""

    STREAM = "Policy"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Policy,
            conflict=ConcurrencyError,
            event_types=["PolicyChanged", "PolicyCreated", "PolicyStatusChanged"],
        )


class EventSourcedServiceAccountRepository(AggregateRepository[ServiceAccount]):
    """ServiceAccount aggregates as streams of the current tenant's events."""

    STREAM = "ServiceAccount"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            ServiceAccount,
            conflict=ConcurrencyError,
            event_types=[
                "ServiceAccountCreated",
                "ServiceAccountSecretChanged",
                "ServiceAccountStatusChanged",
            ],
        )


class EventSourcedRegisteredClientRepository(AggregateRepository[RegisteredClient]):
    """RegisteredClient aggregates as streams of the current tenant's events."""

    STREAM = "RegisteredClient"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            RegisteredClient,
            conflict=ConcurrencyError,
            event_types=["ClientRegistered", "ClientStatusChanged"],
        )


class EventSourcedRefreshTokenFamilyRepository(AggregateRepository[RefreshTokenFamily]):
    """RefreshTokenFamily aggregates as streams of the current tenant's events."""

    STREAM = "RefreshTokenFamily"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            RefreshTokenFamily,
            conflict=ConcurrencyError,
            event_types=[
                "RefreshTokenFamilyRevoked",
                "RefreshTokenIssued",
                "RefreshTokenRotated",
            ],
        )


class EventSourcedAccessTokenRevocationRepository(
    AggregateRepository[AccessTokenRevocation]
):
    """AccessTokenRevocation aggregates as streams of the current tenant's events."""

    STREAM = "AccessTokenRevocation"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            AccessTokenRevocation,
            conflict=ConcurrencyError,
            event_types=["AccessTokenRevoked"],
        )


class EventSourcedSamlIdentityProviderRepository(
    AggregateRepository[SamlIdentityProvider]
):
    """SamlIdentityProvider aggregates as streams of the current tenant's events."""

    STREAM = "SamlIdentityProvider"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            SamlIdentityProvider,
            conflict=ConcurrencyError,
            event_types=[
                "SamlIdentityProviderChanged",
                "SamlIdentityProviderCreated",
                "SamlIdentityProviderStatusChanged",
            ],
        )


class EventSourcedSamlLoginRequestRepository(AggregateRepository[SamlLoginRequest]):
    """SamlLoginRequest aggregates as streams of the current tenant's events."""

    STREAM = "SamlLoginRequest"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            SamlLoginRequest,
            conflict=ConcurrencyError,
            event_types=["SamlLoginCompleted", "SamlLoginStarted"],
        )


class EventSourcedSamlAssertionUseRepository(AggregateRepository[SamlAssertionUse]):
    """SamlAssertionUse aggregates as streams of the current tenant's events."""

    STREAM = "SamlAssertionUse"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            SamlAssertionUse,
            conflict=ConcurrencyError,
            event_types=["SamlAssertionConsumed"],
        )
