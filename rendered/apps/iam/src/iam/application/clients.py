"""Registering a tenant's clients: the applications that sign users in with a browser."""

import secrets
from dataclasses import dataclass
from uuid import uuid5

from eaf.security import PasswordHasher

from iam.application.identity import (
    ACTIVE,
    DISABLED,
    NAMESPACE,
    PUBLIC_CLIENT_ID,
    AlreadyExistsError,
    in_tenant,
    service_account_id_for,
)
from iam.application.ports.access import ClientRegistry, RegisteredClientRepository
from iam.application.ports.outbound import (
    Clock,
    ServiceAccountRepository,
    TenantRepository,
)
from iam.domain.clients import CONFIDENTIAL, RegisteredClient, registration_problems
from iam.domain.errors import (
    ConcurrencyError,
    DomainValidationError,
    NotFoundError,
    Violation,
)


def registered_client_id_for(tenant_id: str, client_id: str) -> str:
    """The stream id of the registered client ``client_id`` of ``tenant_id``."""
    return str(uuid5(NAMESPACE, f"{tenant_id}/registered-client/{client_id}"))


@dataclass(frozen=True)
class ClientRegistration:
    """What a tenant administrator registers; the server makes the secret."""

    client_id: str
    client_type: str
    grant_types: list[str]
    redirect_uris: list[str]
    post_logout_redirect_uris: list[str]
    scopes: list[str]
    first_party: bool
    name: str = ""


@dataclass(frozen=True)
class NewClient:
    """A registered client and, for a confidential one, its secret (shown once)."""

    client: RegisteredClient
    secret: str | None


class ClientRegistrations:
    """Registers, reads and disables the clients of a tenant."""

    def __init__(
        self,
        *,
        clients: RegisteredClientRepository,
        registry: ClientRegistry,
        tenants: TenantRepository,
        service_accounts: ServiceAccountRepository,
        hasher: PasswordHasher,
        clock: Clock,
    ) -> None:
        self._clients = clients
        self._registry = registry
        self._tenants = tenants
        self._service_accounts = service_accounts
        self._hasher = hasher
        self._clock = clock

    async def register(self, tenant_id: str, request: ClientRegistration) -> NewClient:
        """A new client of ``tenant_id``; every broken rule is listed at once."""
        problems = registration_problems(
            client_id=request.client_id,
            name=request.name,
            client_type=request.client_type,
            grant_types=request.grant_types,
            redirect_uris=request.redirect_uris,
            post_logout_redirect_uris=request.post_logout_redirect_uris,
            scopes=request.scopes,
        )
        if request.client_id == PUBLIC_CLIENT_ID:
            problems.insert(
                0,
                Violation("clientId", f"{PUBLIC_CLIENT_ID} is the public client's id"),
            )
        DomainValidationError.raise_for(problems)
        with in_tenant(tenant_id):
            if await self._service_accounts.get(
                service_account_id_for(tenant_id, request.client_id)
            ):
                raise AlreadyExistsError(f"A client with id {request.client_id} exists")
        secret = (
            secrets.token_urlsafe(32) if request.client_type == CONFIDENTIAL else None
        )
        client = RegisteredClient.register(
            id=registered_client_id_for(tenant_id, request.client_id),
            client_id=request.client_id,
            name=request.name,
            client_type=request.client_type,
            secret_hash=self._hasher.hash(secret) if secret else "",
            grant_types=list(dict.fromkeys(request.grant_types)),
            redirect_uris=request.redirect_uris,
            post_logout_redirect_uris=request.post_logout_redirect_uris,
            scopes=list(dict.fromkeys(request.scopes)),
            first_party=request.first_party,
            now=self._clock.now(),
        )
        with in_tenant(tenant_id):
            try:
                client = await self._clients.save(client)
            except ConcurrencyError:
                raise AlreadyExistsError(
                    f"A client with id {request.client_id} exists"
                ) from None
        return NewClient(client, secret)

    async def find(self, tenant_id: str, client_id: str) -> RegisteredClient | None:
        """The client ``client_id`` of the tenant, whatever its status."""
        with in_tenant(tenant_id):
            return await self._clients.get(
                registered_client_id_for(tenant_id, client_id)
            )

    async def client(self, tenant_id: str, client_id: str) -> RegisteredClient:
        found = await self.find(tenant_id, client_id)
        if found is None:
            raise NotFoundError(f"No client {client_id}")
        return found

    async def active(self, tenant_id: str, client_id: str) -> RegisteredClient | None:
        """The client ``client_id`` of the tenant, if it is active."""
        found = await self.find(tenant_id, client_id)
        return found if found is not None and found.status == ACTIVE else None

    async def clients(self, tenant_id: str) -> list[RegisteredClient]:
        """The tenant's clients by client id, disabled ones too."""
        found = []
        for client_id in await self._registry.registered(tenant_id):
            client = await self.find(tenant_id, client_id)
            if client is not None:
                found.append(client)
        return found

    async def disable(self, tenant_id: str, client_id: str) -> None:
        """The client gets no code or token any more (its tokens expire as usual)."""
        client = await self.client(tenant_id, client_id)
        if client.status == DISABLED:
            return
        with in_tenant(tenant_id):
            await self._clients.save(
                client.change_status(status=DISABLED, now=self._clock.now())
            )
