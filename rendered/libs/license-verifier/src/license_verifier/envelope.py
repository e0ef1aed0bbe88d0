"""The license file format: a JSON payload, base64 encoded, signed with Ed25519 over
``license/`` + that text (as Keygen signs its license files), in a JSON envelope
``{"enc", "sig", "alg", "kid"}`` that is itself base64 encoded between armour lines."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from license_verifier.facts import MalformedLicenseFileError

__all__ = [
    "ALGORITHM",
    "BEGIN",
    "END",
    "Envelope",
    "armour",
    "signing_input",
    "unarmour",
]

ALGORITHM = "base64+ed25519"
BEGIN = "-----BEGIN LICENSE FILE-----"
END = "-----END LICENSE FILE-----"
LINE = 64


@dataclass(frozen=True)
class Envelope:
    """The parts of a license file: the encoded payload, its signature, the key id."""

    enc: str
    sig: bytes
    kid: str

    def payload(self) -> dict[str, Any]:
        """The payload as JSON (read only after the signature was checked)."""
        try:
            document = json.loads(base64.b64decode(self.enc, validate=True))
        except (binascii.Error, ValueError) as error:
            raise MalformedLicenseFileError(
                f"the payload is not base64 JSON: {error}"
            ) from None
        if not isinstance(document, dict):
            raise MalformedLicenseFileError("the payload is not a JSON object")
        return document


def signing_input(enc: str) -> bytes:
    """What the signature covers."""
    return b"license/" + enc.encode("ascii")


def armour(payload: dict[str, Any], sign: Any, kid: str) -> str:
    """The license file of ``payload``, signed by ``sign(bytes) -> bytes`` under ``kid``."""
    enc = base64.b64encode(json.dumps(payload, sort_keys=True).encode()).decode()
    envelope = {
        "enc": enc,
        "sig": base64.b64encode(sign(signing_input(enc))).decode(),
        "alg": ALGORITHM,
        "kid": kid,
    }
    body = base64.b64encode(json.dumps(envelope).encode()).decode()
    lines = [body[i : i + LINE] for i in range(0, len(body), LINE)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def unarmour(license_file: str) -> Envelope:
    """The envelope of ``license_file``; MalformedLicenseFileError naming what is wrong."""
    text = license_file.strip()
    if not (text.startswith(BEGIN) and text.endswith(END)):
        raise MalformedLicenseFileError("missing the BEGIN/END LICENSE FILE lines")
    body = "".join(text[len(BEGIN) : -len(END)].split())
    try:
        envelope = json.loads(base64.b64decode(body, validate=True))
    except (binascii.Error, ValueError) as error:
        raise MalformedLicenseFileError(
            f"the envelope is not base64 JSON: {error}"
        ) from None
    if not isinstance(envelope, dict):
        raise MalformedLicenseFileError("the envelope is not a JSON object")
    if envelope.get("alg") != ALGORITHM:
        raise MalformedLicenseFileError(
            f"unsupported algorithm {envelope.get('alg')!r} (expected {ALGORITHM!r})"
        )
    enc, sig, kid = envelope.get("enc"), envelope.get("sig"), envelope.get("kid")
    if not (isinstance(enc, str) and isinstance(sig, str) and isinstance(kid, str)):
        raise MalformedLicenseFileError("enc, sig and kid must be strings")
    try:
        signature = base64.b64decode(sig, validate=True)
    except binascii.Error:
        raise MalformedLicenseFileError("the signature is not base64") from None
    return Envelope(enc, signature, kid)
