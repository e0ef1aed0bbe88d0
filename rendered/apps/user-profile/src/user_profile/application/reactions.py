# Created by `generate` from spec user-profile; this file is yours: it is never re-rendered.
"""How user-profile reacts to other services' events.

Each method runs in the security context the event was written in (tenant, user,
correlation id; ``eaf.context.current()``). Raising retries the delivery with backoff;
after ``max_deliver`` attempts the event goes to the dead letter queue
(``eaf dlq list``). A consumer group delivers each event to one instance of the
service, at least once: keep reactions idempotent."""

import logging

from eaf import context

from user_profile.application.consumed import TenantCreatedEvent
from user_profile.application.ports.inbound import SampleUserProfileUseCases

log = logging.getLogger(__name__)


class Reactions:
    """The reactions of user-profile (implements ``EventReactions``)."""

    def __init__(self, *, sample_user_profile: SampleUserProfileUseCases) -> None:
        self.sample_user_profile = sample_user_profile

    async def prepare_tenant(self, event: TenantCreatedEvent) -> None:
        """A new tenant: profiles are stored per tenant, so there is no schema to create;
        the service logs that it is ready for the tenant (with the event's correlation id)
        and refuses an event whose payload and context disagree about the tenant."""
        tenant = context.current().tenant_id
        if tenant != event.tenant_id:
            raise ValueError(
                f"TenantCreatedEvent for {event.tenant_id} arrived in tenant {tenant}'s context"
            )
        log.info(
            "tenant prepared",
            extra={
                "event": "iam.TenantCreatedEvent",
                "tenantName": event.name,
                "adminUserId": event.admin_user_id,
            },
        )
