# Created by `generate` from spec user-profile; this file is yours: it is never re-rendered.
"""How user-profile reacts to other services' events.

Each method runs in the security context the event was written in (tenant, user,
correlation id; ``eaf.context.current()``). Raising retries the delivery with backoff;
after ``max_deliver`` attempts the event goes to the dead letter queue
(``eaf dlq list``). A consumer group delivers each event to one instance of the
service, at least once: keep reactions idempotent."""

import logging

from user_profile.application.consumed import TenantCreatedEvent
from user_profile.application.ports.inbound import SampleUserProfileUseCases

log = logging.getLogger(__name__)


class Reactions:
    """The reactions of user-profile (implements ``EventReactions``)."""

    def __init__(self, *, sample_user_profile: SampleUserProfileUseCases) -> None:
        self.sample_user_profile = sample_user_profile

    async def prepare_tenant(self, event: TenantCreatedEvent) -> None:
        """React to iam.TenantCreatedEvent: replace this logging with what the service needs."""
        log.info(
            "received iam.TenantCreatedEvent", extra={"event": "iam.TenantCreatedEvent"}
        )
