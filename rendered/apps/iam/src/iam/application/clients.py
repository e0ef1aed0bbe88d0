"""Registered clients (``RegisteredClient`` of ``specs/iam.yaml``): the generated use
cases, with what the spec cannot say: each grant type and scope is kept once; disabling a
disabled client changes nothing. (A client id is taken once in its tenant, by a service
account or by a registered client: the key the spec's ServiceAccount shares with it.)"""

from eaf.context import in_tenant
from eaf.eventsourcing import Idempotency

from iam.application.identity import (
    ACTIVE,
    DISABLED,
)
from iam.application.ports.inbound import RegisteredClientUseCases
from iam.application.services import RegisteredClientService
from iam.domain.model import RegisteredClient
from iam.domain.types import ClientType, GrantType


class RegisteredClients(RegisteredClientService):
    """The generated use cases, keeping each grant type and scope once."""

    async def register(
        self,
        *,
        client_id: str,
        name: str,
        client_type: ClientType,
        client_secret: str | None,
        grant_types: list[GrantType],
        redirect_uris: list[str],
        post_logout_redirect_uris: list[str],
        scopes: list[str],
        first_party: bool,
        idempotency: Idempotency | None = None,
    ) -> RegisteredClient:
        return await super().register(
            client_id=client_id,
            name=name,
            client_type=client_type,
            client_secret=client_secret,
            grant_types=list(dict.fromkeys(grant_types)),
            redirect_uris=redirect_uris,
            post_logout_redirect_uris=post_logout_redirect_uris,
            scopes=list(dict.fromkeys(scopes)),
            first_party=first_party,
            idempotency=idempotency,
        )

    async def disable(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> RegisteredClient:
        """The client gets no code or token any more (its tokens expire as usual); a
        disabled one is answered as it is, nothing stored (with an idempotency key, the
        generated use case answers, replaying the request it saw)."""
        current = await self.get(id) if idempotency is None else None
        if current is not None and current.status == DISABLED:
            return current
        return await super().disable(
            id, expected_version=expected_version, idempotency=idempotency
        )


async def active_client(
    clients: RegisteredClientUseCases, tenant_id: str, client_id: str
) -> RegisteredClient | None:
    """The client ``client_id`` of the tenant, if it is active."""
    with in_tenant(tenant_id):
        found = await clients.get_by_client_id(client_id)
    return found if found is not None and found.status == ACTIVE else None


def is_public(client: RegisteredClient) -> bool:
    """A public client (RFC 6749 §2.1) presents no secret: it proves PKCE instead."""
    return client.client_type is ClientType.PUBLIC
