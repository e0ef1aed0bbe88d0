"""Output ports of the identity use cases beyond the generated repositories."""

from typing import Protocol

from iam.domain.model import Tenant


class TenantCatalog(Protocol):
    """Every tenant, as of the last stored event; read across tenants (a platform-level
    read), unlike the tenant-scoped repositories and read models."""

    async def all_tenants(self) -> list[Tenant]:
        """All tenants, whatever their status."""
        ...


class ClientRegistry(Protocol):
    """Which tenants have a service account or a registered client with a given client
    id; read across tenants (client ids are unique per tenant only)."""

    async def tenants_of(self, client_id: str) -> list[str]:
        """The ids of the tenants with a service account or registered client
        ``client_id``, disabled ones included."""
        ...
