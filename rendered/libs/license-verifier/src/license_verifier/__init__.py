"""Offline verifier of the licensing service's signed license files: Ed25519 signature
against the published keys, expiry of the file and of the license, the license's facts as
a typed value."""

from license_verifier.envelope import armour
from license_verifier.facts import (
    ExpiredLicenseFileError,
    LicenseFacts,
    LicenseFileError,
    MachineFacts,
    MalformedLicenseFileError,
    TamperedLicenseFileError,
    UnknownKeyError,
)
from license_verifier.verify import PublicKeys, public_keys, verify

__all__ = [
    "ExpiredLicenseFileError",
    "LicenseFacts",
    "LicenseFileError",
    "MachineFacts",
    "MalformedLicenseFileError",
    "PublicKeys",
    "TamperedLicenseFileError",
    "UnknownKeyError",
    "armour",
    "public_keys",
    "verify",
]
