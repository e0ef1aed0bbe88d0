"""The shared vocabulary of the identity use cases: deterministic ids, the reserved
platform scope, built-in roles and permissions."""

from uuid import UUID, uuid5

from eaf.context import in_tenant
from eaf.eventsourcing import keyed_id

from iam.domain.errors import ConcurrencyError

#: Fixed namespace of the name-derived ids (uuid5), so that names are unique per scope.
NAMESPACE = UUID("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91")

#: The event-store scope of platform administrators (no tenant id is ever this string).
PLATFORM = "platform"
# The one public client (RFC 6749 §2.1): registered without a secret, it may use the
# password and refresh_token grants; no service account may take its id.
PUBLIC_CLIENT_ID = "iam"
PLATFORM_ADMIN_ROLE = "platform-admin"
TENANT_ADMIN_ROLE = "tenant-admin"
USER_ROLE = "user"
ACTIVE, DISABLED, DELETED = "ACTIVE", "DISABLED", "DELETED"

# The permission the hand-written code checks (the spec's endpoints name their own)
AUTHZ_READ = "iam-authz:read"

#: What a platform administrator's tokens grant: everything.
PLATFORM_PERMISSIONS = frozenset({"*:*"})
#: The roles every new tenant starts with.
BUILT_IN_ROLES: dict[str, list[str]] = {
    TENANT_ADMIN_ROLE: [
        "iam-users:*",
        "iam-roles:*",
        "iam-policies:*",
        "iam-service-accounts:*",
        "iam-authz:*",
        "iam-federation:*",
        "user-profile:*",
        "iam-tenants:read",
    ],
    USER_ROLE: ["user-profile:read"],
}


class ConflictError(ConcurrencyError):
    """The request conflicts with the current state (answered 409)."""


class AlreadyExistsError(ConflictError):
    """A tenant, user, role, policy or client with this name already exists."""


def tenant_id_for(name: str) -> str:
    """The id of the tenant called ``name`` (case-insensitive)."""
    return str(uuid5(NAMESPACE, name.casefold()))


def user_id_for(tenant_id: str, username: str) -> str:
    """The id of ``username`` (case-insensitive) in ``tenant_id``: the one the spec's key
    of User makes (no label, case folded)."""
    with in_tenant(tenant_id):
        return keyed_id(str(NAMESPACE), "", [username], ignore_case=True)


def service_account_id_for(tenant_id: str, client_id: str) -> str:
    """The id the spec's key of ServiceAccount makes of ``client_id`` in ``tenant_id``."""
    with in_tenant(tenant_id):
        return keyed_id(str(NAMESPACE), "client", [client_id])


def revocation_id_for(jti: str) -> str:
    return str(uuid5(NAMESPACE, f"jti/{jti}"))


def tenant_reference(reference: str) -> str:
    """The tenant id a client names by id, by name, or ``platform``."""
    if reference == PLATFORM:
        return PLATFORM
    try:
        return str(UUID(reference))
    except ValueError:
        return tenant_id_for(reference)
