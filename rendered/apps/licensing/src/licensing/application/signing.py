"""Signed offline license files (hand-written): an Ed25519 key ring kept in a file, and
the license file of a license in the format `license_verifier` reads."""

from __future__ import annotations

import base64
import json
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from eaf.projectors import Condition, equal_to
from license_verifier import armour

from licensing.application.ports.inbound import LicenseUseCases, PolicyUseCases
from licensing.application.ports.outbound import Clock
from licensing.domain.model import License, Machine, Policy

__all__ = ["CheckOuts", "LicenseFile", "LicenseKeyRing", "license_payload"]

MACHINES_AT_MOST = 100_000


class MachineRows(Protocol):
    """The machines read model (eventually consistent)."""

    async def page(
        self, *, where: Sequence[Condition], limit: int, offset: int = 0
    ) -> tuple[list[Machine], int]: ...


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class _SigningKey:
    kid: str
    private: Ed25519PrivateKey

    def jwk(self) -> dict[str, str]:
        raw = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return {
            "kty": "OKP",
            "crv": "Ed25519",
            "alg": "EdDSA",
            "use": "sig",
            "kid": self.kid,
            "x": _b64url(raw),
        }


class LicenseKeyRing:
    """Ed25519 keys, the first signing; every one's public key published (so files signed
    before a rotation still verify). Kept in a JSON file readable by its owner only."""

    def __init__(self, keys: Sequence[_SigningKey]) -> None:
        if not keys:
            raise ValueError("a key ring needs at least one key")
        self._keys = tuple(keys)

    @classmethod
    def generate(cls) -> LicenseKeyRing:
        return cls([_SigningKey(secrets.token_hex(8), Ed25519PrivateKey.generate())])

    @classmethod
    def load_or_create(cls, path: Path) -> LicenseKeyRing:
        """The ring stored at ``path``; a new one written there when there is none."""
        if path.exists():
            document = json.loads(path.read_text(encoding="utf-8"))
            return cls(
                [
                    _SigningKey(
                        str(entry["kid"]),
                        Ed25519PrivateKey.from_private_bytes(_unb64url(entry["d"])),
                    )
                    for entry in document["keys"]
                ]
            )
        ring = cls.generate()
        ring.save(path)
        return ring

    def save(self, path: Path) -> None:
        document = {
            "keys": [
                {
                    "kid": key.kid,
                    "d": _b64url(
                        key.private.private_bytes(
                            Encoding.Raw, PrivateFormat.Raw, NoEncryption()
                        )
                    ),
                }
                for key in self._keys
            ]
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(document, file)

    def jwks(self) -> dict[str, Any]:
        """The public keys as a JWK Set (what `license_verifier.verify` takes)."""
        return {"keys": [key.jwk() for key in self._keys]}

    def sign(self, payload: dict[str, Any]) -> tuple[str, str]:
        """The license file of ``payload`` signed by the first key, and that key's id."""
        key = self._keys[0]
        return armour(payload, key.private.sign, key.kid), key.kid


@dataclass(frozen=True)
class LicenseFile:
    """A signed license file, the id of the key that signed it, and its validity."""

    certificate: str
    kid: str
    issued: datetime
    expiry: datetime


def _iso(instant: datetime | None) -> str | None:
    return None if instant is None else instant.isoformat().replace("+00:00", "Z")


def license_payload(
    license: License,
    policy: Policy | None,
    machines: Sequence[Machine],
    *,
    issued: datetime,
    ttl: timedelta,
) -> dict[str, Any]:
    """What a license file states: the license, its entitlements and machines, when the
    file was issued and until when it may be used offline."""
    return {
        "issued": _iso(issued),
        "expiry": _iso(issued + ttl),
        "ttl": int(ttl.total_seconds()),
        "license": {
            "id": license.id,
            "key": license.key_,
            "name": license.name,
            "owner": license.owner,
            "status": license.effective_status(issued).value,
            "productId": str(license.product_id),
            "policyId": str(license.policy_id),
            "expiresAt": _iso(license.expires_at),
            "maxMachines": license.max_machines,
            "floating": policy.floating if policy is not None else False,
        },
        "entitlements": list(policy.entitlements) if policy is not None else [],
        "machines": [
            {
                "fingerprint": machine.fingerprint,
                "name": machine.name,
                "platform": machine.platform,
                "activatedAt": _iso(machine.created_at),
            }
            for machine in sorted(machines, key=lambda m: m.created_at)
        ],
    }


class CheckOuts:
    """Checks out the signed license file of a license of the current tenant."""

    def __init__(
        self,
        licenses: LicenseUseCases,
        policies: PolicyUseCases,
        machines: MachineRows,
        ring: LicenseKeyRing,
        clock: Clock,
    ) -> None:
        self._licenses = licenses
        self._policies = policies
        self._machines = machines
        self._ring = ring
        self._clock = clock

    async def check_out(self, license_id: str, ttl: timedelta) -> LicenseFile | None:
        """The file of ``license_id``, usable offline for ``ttl``; None when no such
        license (in this tenant)."""
        license = await self._licenses.get(license_id)
        if license is None:
            return None
        policy = await self._policies.get(str(license.policy_id))
        machines, _ = await self._machines.page(
            where=equal_to("license_id", [UUID(license.id)]), limit=MACHINES_AT_MOST
        )
        issued = self._clock.now()
        payload = license_payload(license, policy, machines, issued=issued, ttl=ttl)
        certificate, kid = self._ring.sign(payload)
        return LicenseFile(certificate, kid, issued, issued + ttl)
