"""The service accounts' use cases: a client id is taken once in its tenant, by a service
account or by a registered client, whichever has it first."""

from eaf.eventsourcing import Idempotency

from iam.application.clients import refuse_taken, registered_client_id
from iam.application.services import ServiceAccountService
from iam.domain.model import RegisteredClient, ServiceAccount


class ServiceAccounts(ServiceAccountService):
    """The generated use cases, refusing a client id a registered client has (409
    ``duplicate``, as a taken one is)."""

    async def create(
        self,
        *,
        client_id: str,
        client_secret: str,
        roles: list[str],
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        await refuse_taken(
            self._transactions,
            RegisteredClient,
            registered_client_id(client_id),
            "ServiceAccount",
        )
        return await super().create(
            client_id=client_id,
            client_secret=client_secret,
            roles=roles,
            idempotency=idempotency,
        )
