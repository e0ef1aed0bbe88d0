"""Offline verification of license files signed as the licensing service signs them."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from license_verifier import (
    ExpiredLicenseFileError,
    MalformedLicenseFileError,
    TamperedLicenseFileError,
    UnknownKeyError,
    armour,
    verify,
)

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def _jwk(key: Ed25519PrivateKey, kid: str) -> dict[str, str]:
    raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    x = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": kid, "alg": "EdDSA"}


def _payload(expires_at: datetime | None = NOW + timedelta(days=30)) -> dict[str, Any]:
    return {
        "issued": NOW.isoformat(),
        "expiry": (NOW + timedelta(days=7)).isoformat(),
        "license": {
            "id": "0b9e0c5e-0000-4000-8000-000000000001",
            "key": "AAAAAA-BBBBBB",
            "name": "Ada's seat",
            "owner": "ada@example.com",
            "status": "active",
            "productId": "p",
            "policyId": "q",
            "expiresAt": None if expires_at is None else expires_at.isoformat(),
            "maxMachines": 1,
            "floating": False,
        },
        "entitlements": ["export", "sync"],
        "machines": [{"fingerprint": "4a:9c", "name": "laptop"}],
    }


@pytest.fixture
def signer() -> tuple[Ed25519PrivateKey, dict[str, Any]]:
    key = Ed25519PrivateKey.generate()
    return key, {"keys": [_jwk(key, "k1")]}


def test_a_genuine_file_gives_its_facts(
    signer: tuple[Ed25519PrivateKey, dict[str, Any]],
) -> None:
    key, keys = signer
    facts = verify(armour(_payload(), key.sign, "k1"), keys, now=NOW)
    assert (facts.key, facts.owner, facts.key_id) == (
        "AAAAAA-BBBBBB",
        "ada@example.com",
        "k1",
    )
    assert facts.entitled_to(["export"]) and not facts.entitled_to(["export", "admin"])
    assert facts.activated_on("4a:9c") and not facts.activated_on("ff:ff")
    assert facts.expires_at == NOW + timedelta(days=30)
    assert facts.file_expires_at == NOW + timedelta(days=7)


def test_a_perpetual_license_has_no_expiry(
    signer: tuple[Ed25519PrivateKey, dict[str, Any]],
) -> None:
    key, keys = signer
    assert (
        verify(armour(_payload(None), key.sign, "k1"), keys["keys"], now=NOW).expires_at
        is None
    )


def test_a_changed_payload_is_refused(
    signer: tuple[Ed25519PrivateKey, dict[str, Any]],
) -> None:
    key, keys = signer
    genuine = armour(_payload(), key.sign, "k1")
    lines = genuine.strip().splitlines()
    envelope = json.loads(base64.b64decode("".join(lines[1:-1])))
    payload = json.loads(base64.b64decode(envelope["enc"]))
    payload["entitlements"].append("admin")
    envelope["enc"] = base64.b64encode(json.dumps(payload).encode()).decode()
    forged = "\n".join(
        [lines[0], base64.b64encode(json.dumps(envelope).encode()).decode(), lines[-1]]
    )
    with pytest.raises(TamperedLicenseFileError, match="signature does not match"):
        verify(forged, keys, now=NOW)


def test_another_key_s_signature_is_refused(
    signer: tuple[Ed25519PrivateKey, dict[str, Any]],
) -> None:
    _, keys = signer
    other = Ed25519PrivateKey.generate()
    with pytest.raises(TamperedLicenseFileError):
        verify(armour(_payload(), other.sign, "k1"), keys, now=NOW)
    with pytest.raises(UnknownKeyError, match="'k2'"):
        verify(armour(_payload(), other.sign, "k2"), keys, now=NOW)


def test_expired_files_and_licenses_are_refused(
    signer: tuple[Ed25519PrivateKey, dict[str, Any]],
) -> None:
    key, keys = signer
    with pytest.raises(ExpiredLicenseFileError, match="license file expired"):
        verify(armour(_payload(), key.sign, "k1"), keys, now=NOW + timedelta(days=8))
    with pytest.raises(ExpiredLicenseFileError, match="license expired"):
        verify(
            armour(_payload(NOW - timedelta(seconds=1)), key.sign, "k1"), keys, now=NOW
        )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "-----BEGIN LICENSE FILE-----\n!!!\n-----END LICENSE FILE-----",
        "-----BEGIN LICENSE FILE-----\n"
        + base64.b64encode(
            b'{"alg": "none", "enc": "", "sig": "", "kid": "k1"}'
        ).decode()
        + "\n-----END LICENSE FILE-----",
    ],
)
def test_malformed_files_are_refused(
    text: str, signer: tuple[Ed25519PrivateKey, dict[str, Any]]
) -> None:
    with pytest.raises(MalformedLicenseFileError):
        verify(text, signer[1], now=NOW)
