"""The current tenant's service accounts, folded from its stored events.

Read from the event store rather than a read model: a tenant has few clients, and an
administrator who creates, disables or rotates one sees the change in the next
listing."""

from eaf.eventsourcing import EventStore

from iam.domain.model import ServiceAccount
from iam.infrastructure.persistence import EVENTS, EventSourcedServiceAccountRepository

SERVICE_ACCOUNT_EVENTS = (
    "ServiceAccountCreated",
    "ServiceAccountStatusChanged",
    "ServiceAccountSecretChanged",
)
PAGE = 500


class StoredServiceAccountListing:
    """A :class:`~iam.application.ports.access.ServiceAccountListing` on the event
    store, for the tenant of the security context."""

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def list(self) -> list[ServiceAccount]:
        accounts: dict[str, ServiceAccount] = {}
        position = 0
        while True:
            events = await self._store.read_all(
                after=position, limit=PAGE, event_types=SERVICE_ACCOUNT_EVENTS
            )
            for stored in events:
                position = stored.position
                if stored.stream_type != EventSourcedServiceAccountRepository.STREAM:
                    continue
                event = EVENTS.decode(stored)
                account = accounts.get(stored.stream_id)
                accounts[stored.stream_id] = (
                    ServiceAccount.from_history([event])
                    if account is None
                    else account.apply(event)
                )
            if len(events) < PAGE:
                return list(accounts.values())
