"""What a verified license file says, and why a file is refused."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

__all__ = [
    "ExpiredLicenseFileError",
    "LicenseFacts",
    "LicenseFileError",
    "MachineFacts",
    "MalformedLicenseFileError",
    "TamperedLicenseFileError",
    "UnknownKeyError",
]


class LicenseFileError(ValueError):
    """A license file that must not be trusted (every refusal is one of these)."""


class MalformedLicenseFileError(LicenseFileError):
    """Not a license file: its armour, envelope or payload cannot be read."""


class UnknownKeyError(LicenseFileError):
    """Signed with a key id none of the public keys has."""


class TamperedLicenseFileError(LicenseFileError):
    """The signature does not match the payload: changed after signing, or forged."""


class ExpiredLicenseFileError(LicenseFileError):
    """Genuine, but past the file's expiry or the license's."""


@dataclass(frozen=True)
class MachineFacts:
    """A machine the license was activated on when the file was issued."""

    fingerprint: str
    name: str


@dataclass(frozen=True)
class LicenseFacts:
    """The license as the signed file states it."""

    id: str
    key: str
    name: str
    owner: str
    status: str
    product_id: str
    policy_id: str
    expires_at: datetime | None
    max_machines: int | None
    floating: bool
    entitlements: tuple[str, ...]
    machines: tuple[MachineFacts, ...]
    issued_at: datetime
    file_expires_at: datetime
    key_id: str

    def entitled_to(self, codes: Iterable[str]) -> bool:
        """Whether every entitlement of ``codes`` is granted."""
        return set(codes) <= set(self.entitlements)

    def activated_on(self, fingerprint: str) -> bool:
        """Whether the machine ``fingerprint`` is one of the license's."""
        return any(machine.fingerprint == fingerprint for machine in self.machines)
