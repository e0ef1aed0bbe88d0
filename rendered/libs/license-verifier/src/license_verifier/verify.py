"""Offline verification: the signature against the published public keys, then the
file's and the license's expiry."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from license_verifier.envelope import signing_input, unarmour
from license_verifier.facts import (
    ExpiredLicenseFileError,
    LicenseFacts,
    MachineFacts,
    MalformedLicenseFileError,
    TamperedLicenseFileError,
    UnknownKeyError,
)

__all__ = ["PublicKeys", "public_keys", "verify"]

PublicKeys = Mapping[str, Any] | Sequence[Mapping[str, Any]]
"""A JWK Set (``{"keys": [...]}``, as ``/.well-known/license-keys.json`` serves it) or a
list of its keys: Ed25519 JWKs (``kty`` OKP, ``crv`` Ed25519, ``x``, ``kid``)."""


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_keys(keys: PublicKeys) -> dict[str, Ed25519PublicKey]:
    """The Ed25519 keys of ``keys`` by key id (other kinds of keys are skipped)."""
    entries = keys.get("keys", []) if isinstance(keys, Mapping) else keys
    found: dict[str, Ed25519PublicKey] = {}
    for jwk in entries:
        if jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
            continue
        try:
            found[str(jwk["kid"])] = Ed25519PublicKey.from_public_bytes(
                _b64url(str(jwk["x"]))
            )
        except (KeyError, ValueError, binascii.Error) as error:
            raise ValueError(
                f"unreadable Ed25519 key {jwk.get('kid')!r}: {error}"
            ) from None
    return found


def _optional_instant(payload: Mapping[str, Any], name: str) -> datetime | None:
    return None if payload.get(name) is None else _instant(payload, name)


def _instant(payload: Mapping[str, Any], name: str) -> datetime:
    value = payload.get(name)
    if not isinstance(value, str):
        raise MalformedLicenseFileError(f"{name}: an ISO 8601 instant is required")
    try:
        instant = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise MalformedLicenseFileError(f"{name}: {value!r} is not ISO 8601") from None
    if instant.tzinfo is None:
        raise MalformedLicenseFileError(f"{name}: {value!r} has no time zone")
    return instant


def _facts(payload: Mapping[str, Any], kid: str) -> LicenseFacts:
    license = payload.get("license")
    if not isinstance(license, Mapping):
        raise MalformedLicenseFileError("license: an object is required")
    machines = payload.get("machines", [])
    entitlements = payload.get("entitlements", [])
    if not isinstance(machines, list) or not isinstance(entitlements, list):
        raise MalformedLicenseFileError("machines and entitlements must be lists")
    try:
        return LicenseFacts(
            id=str(license["id"]),
            key=str(license["key"]),
            name=str(license.get("name", "")),
            owner=str(license.get("owner", "")),
            status=str(license["status"]),
            product_id=str(license["productId"]),
            policy_id=str(license["policyId"]),
            expires_at=_optional_instant(license, "expiresAt"),
            max_machines=license.get("maxMachines"),
            floating=bool(license.get("floating", False)),
            entitlements=tuple(str(code) for code in entitlements),
            machines=tuple(
                MachineFacts(str(m["fingerprint"]), str(m.get("name", "")))
                for m in machines
            ),
            issued_at=_instant(payload, "issued"),
            file_expires_at=_instant(payload, "expiry"),
            key_id=kid,
        )
    except (KeyError, TypeError) as error:
        raise MalformedLicenseFileError(f"license: missing {error}") from None


def verify(
    license_file: str, public_keys_: PublicKeys, *, now: datetime | None = None
) -> LicenseFacts:
    """The facts of ``license_file`` once its signature checks against ``public_keys_``;
    a LicenseFileError subclass otherwise: malformed, unknown key, tampered, or expired
    (the file past its expiry, or the license past its own, as of ``now``)."""
    envelope = unarmour(license_file)
    key = public_keys(public_keys_).get(envelope.kid)
    if key is None:
        raise UnknownKeyError(f"no public key has the id {envelope.kid!r}")
    try:
        key.verify(envelope.sig, signing_input(envelope.enc))
    except InvalidSignature:
        raise TamperedLicenseFileError(
            "the signature does not match the license file"
        ) from None
    facts = _facts(envelope.payload(), envelope.kid)
    at = now or datetime.now(UTC)
    if facts.file_expires_at <= at:
        raise ExpiredLicenseFileError(
            f"the license file expired at {facts.file_expires_at.isoformat()}; check out a new one"
        )
    if facts.expires_at is not None and facts.expires_at <= at:
        raise ExpiredLicenseFileError(
            f"the license expired at {facts.expires_at.isoformat()}"
        )
    return facts
