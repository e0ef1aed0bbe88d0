"""Output ports of the identity use cases beyond the generated repositories."""

from typing import Protocol

from iam.domain.model import Policy, Role, Tenant


class AccessRules(Protocol):
    """Every role and policy of the current tenant, as of the last stored event
    (read-your-writes, unlike the eventually consistent read models)."""

    async def roles(self) -> dict[str, Role]:
        """The tenant's roles by name."""
        ...

    async def policies(self) -> list[Policy]:
        """The tenant's policies, whatever their status."""
        ...


class TenantCatalog(Protocol):
    """Every tenant, as of the last stored event; read across tenants (a platform-level
    read), unlike the tenant-scoped repositories and read models."""

    async def tenants(self) -> list[Tenant]:
        """All tenants, whatever their status."""
        ...


class ClientRegistry(Protocol):
    """Which tenants have a service account or a registered client with a given client
    id; read across tenants (client ids are unique per tenant only)."""

    async def tenants_of(self, client_id: str) -> list[str]:
        """The ids of the tenants with a service account or registered client
        ``client_id``, disabled ones included."""
        ...
