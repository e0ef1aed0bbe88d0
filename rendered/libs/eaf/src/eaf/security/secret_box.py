"""Secrets encrypted at rest: AES-256-GCM under a key ring.

The key ring is a JSON file created with one key on first use and never committed:
``{"active": "<kid>", "keys": {"<kid>": "<base64>"}}``. Each ciphertext names the key that
sealed it, so a rotated ring (a new active key, the old ones kept) still opens every stored
secret. The associated data binds a ciphertext to where it belongs (a tenant, a resource, a
field): moved anywhere else, it does not open. The configuration service seals its secret
properties with it, the IAM its tenants' LDAP bind credentials, and a rendered service the
spec's ``secret: sealed`` fields (:class:`SealedSecrets`).
"""

from __future__ import annotations

import base64
import hmac
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from eaf.context import require_tenant

__all__ = ["SealedSecrets", "SecretBox", "SecretError"]

_NONCE_BYTES = 12


class SecretError(ValueError):
    """A ciphertext this key ring cannot open (unknown key, tampered, moved)."""


def _new_kid() -> str:
    return f"k{secrets.token_hex(6)}"


@dataclass
class SecretBox:
    """Seals and opens secret values with the ring's keys; seals with the active one."""

    active: str
    keys: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def generate(cls) -> SecretBox:
        kid = _new_kid()
        return cls(kid, {kid: AESGCM.generate_key(bit_length=256)})

    @classmethod
    def from_json(cls, text: str) -> SecretBox:
        document = json.loads(text)
        keys = {kid: base64.b64decode(key) for kid, key in document["keys"].items()}
        if document["active"] not in keys or any(len(k) != 32 for k in keys.values()):
            raise ValueError("the key ring needs 256-bit keys and its active key")
        return cls(document["active"], keys)

    def to_json(self) -> str:
        keys = {kid: base64.b64encode(key).decode() for kid, key in self.keys.items()}
        return json.dumps({"active": self.active, "keys": keys}, indent=2)

    @classmethod
    def load_or_create(cls, path: Path) -> SecretBox:
        """The ring in ``path``; a new one written there (mode 0600) when there is none."""
        if path.exists():
            return cls.from_json(path.read_text(encoding="utf-8"))
        ring = cls.generate()
        ring.save(path)
        return ring

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(path.suffix + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(self.to_json())
        temporary.replace(path)

    def rotate(self) -> str:
        """A new active key (the old ones still open what they sealed); its id."""
        kid = _new_kid()
        self.keys[kid] = AESGCM.generate_key(bit_length=256)
        self.active = kid
        return kid

    def seal(self, plaintext: str, associated: bytes) -> tuple[str, str]:
        """``(ciphertext, key id)``: base64 of nonce and AES-GCM output."""
        nonce = os.urandom(_NONCE_BYTES)
        sealed = AESGCM(self.keys[self.active]).encrypt(
            nonce, plaintext.encode(), associated
        )
        return base64.b64encode(nonce + sealed).decode(), self.active

    def open(self, ciphertext: str, kid: str | None, associated: bytes) -> str:
        key = self.keys.get(kid or "")
        if key is None:
            raise SecretError(f"no key {kid!r} in the key ring")
        raw = base64.b64decode(ciphertext)
        try:
            plain = AESGCM(key).decrypt(
                raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], associated
            )
        except InvalidTag as error:
            raise SecretError("the secret does not open here") from error
        return plain.decode()


class _Settings(Protocol):
    @property
    def service_dir(self) -> Path: ...

    def get(self, dotted: str, default: Any = None) -> Any: ...


@dataclass(frozen=True)
class SealedSecrets:
    """The secrets a service keeps to use them itself (a client secret it presents to
    another service, a bind password), as its spec's ``secret: sealed`` fields hold them:
    ``<key id>:<ciphertext>`` text, sealed under ``box`` and bound to the current tenant,
    the aggregate kind and the field, so that a value copied to another tenant, aggregate
    kind or field does not open."""

    box: SecretBox

    @classmethod
    def from_settings(cls, settings: _Settings) -> SealedSecrets:
        """The key ring of ``security.secrets_file`` (default ``data/secrets.json``, under
        the service's directory when relative), created on first use."""
        path = Path(str(settings.get("security.secrets_file", "data/secrets.json")))
        return cls(
            SecretBox.load_or_create(
                path if path.is_absolute() else settings.service_dir / path
            )
        )

    def seal(self, kind: str, field: str, plaintext: str) -> str:
        """``plaintext`` sealed for the field ``field`` of a ``kind`` of the tenant."""
        ciphertext, kid = self.box.seal(plaintext, _bound(kind, field))
        return f"{kid}:{ciphertext}"

    def digest(self, kind: str, field: str, plaintext: str) -> str:
        """A keyed digest (HMAC-SHA256) of ``plaintext`` for this field in this tenant: the
        same for the same text, so that an idempotent request's fingerprint tells a changed
        secret from a repeated one, and useless without the ring's oldest key."""
        key = hmac.new(next(iter(self.box.keys.values())), b"fingerprint", "sha256")
        return hmac.new(
            key.digest(), _bound(kind, field) + b"\x00" + plaintext.encode(), "sha256"
        ).hexdigest()

    def open(self, kind: str, field: str, sealed: str) -> str:
        """The plain text of what :meth:`seal` made for this field, in this tenant
        (:class:`SecretError` when it was sealed elsewhere, or is no sealed value)."""
        kid, separator, ciphertext = sealed.partition(":")
        if not separator:
            raise SecretError("no sealed value")
        try:
            return self.box.open(ciphertext, kid, _bound(kind, field))
        except SecretError:
            raise
        except ValueError as error:  # not base64: no ciphertext of this ring
            raise SecretError("no sealed value") from error


def _bound(kind: str, field: str) -> bytes:
    return f"{require_tenant()}/{kind}/{field}".encode()
