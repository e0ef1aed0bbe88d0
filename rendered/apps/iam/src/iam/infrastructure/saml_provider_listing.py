"""The current tenant's SAML identity providers, folded from its stored events (few per
tenant; an administrator sees a change in the next listing)."""

from eaf.eventsourcing import EventStore

from iam.domain.model import SamlIdentityProvider
from iam.infrastructure.persistence import (
    EVENTS,
    EventSourcedSamlIdentityProviderRepository,
)

PROVIDER_EVENTS = (
    "SamlIdentityProviderCreated",
    "SamlIdentityProviderChanged",
    "SamlIdentityProviderStatusChanged",
)
PAGE = 500


class StoredSamlProviderListing:
    """A :class:`~iam.application.ports.saml.SamlProviderListing` on the event
    store, for the tenant of the security context."""

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def list(self) -> list[SamlIdentityProvider]:
        providers: dict[str, SamlIdentityProvider] = {}
        position = 0
        while True:
            events = await self._store.read_all(
                after=position, limit=PAGE, event_types=PROVIDER_EVENTS
            )
            for stored in events:
                position = stored.position
                if (
                    stored.stream_type
                    != EventSourcedSamlIdentityProviderRepository.STREAM
                ):
                    continue
                event = EVENTS.decode(stored)
                provider = providers.get(stored.stream_id)
                providers[stored.stream_id] = (
                    SamlIdentityProvider.from_history([event])
                    if provider is None
                    else provider.apply(event)
                )
            if len(events) < PAGE:
                return list(providers.values())
