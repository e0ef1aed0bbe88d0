# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Events of other services that user-profile consumes, with the fields it reads
(a tolerant reader: other fields of the payload are ignored)."""

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, kw_only=True)
class TenantCreatedEvent:
    """
    iam.TenantCreatedEvent, as this service reads it.
    """

    tenant_id: str
    name: str
    admin_user_id: str
    occurred_at: datetime
