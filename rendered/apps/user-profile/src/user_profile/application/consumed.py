# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Events of other services, as this service reads them (a tolerant reader: other fields
of their payloads are ignored)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, kw_only=True)
class TenantCreatedEvent:
    """iam.TenantCreatedEvent, as this service reads it."""

    tenant_id: str
    name: str
    admin_user_id: str
    occurred_at: datetime
