# Generated from spec iam by `generate`; edits are merged on re-render.

"""Enums and value objects of the iam domain."""

from __future__ import annotations

from enum import StrEnum


class TenantStatus(StrEnum):
    """The values of TenantStatus."""

    ACTIVE = "ACTIVE"
    SUSPENDED = "SUSPENDED"
