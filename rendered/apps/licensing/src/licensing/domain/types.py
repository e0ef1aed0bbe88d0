# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Enums and value objects of the licensing domain."""

from __future__ import annotations

from enum import StrEnum


class LicenseStatus(StrEnum):
    """The values of LicenseStatus."""

    ACTIVE = "active"
    SUSPENDED = "suspended"
    EXPIRED = "expired"
    REVOKED = "revoked"
