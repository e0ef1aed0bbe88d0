"""Output ports of the identity use cases beyond the generated repositories."""

from typing import Protocol


class ClientRegistry(Protocol):
    """Which tenants have a service account or a registered client with a given client
    id; read across tenants (client ids are unique per tenant only)."""

    async def tenants_of(self, client_id: str) -> list[str]:
        """The ids of the tenants with a service account or registered client
        ``client_id``, disabled ones included."""
        ...
