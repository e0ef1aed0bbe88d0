"""Signing keys for access tokens: an ES256 key ring with rotation, its JWKS, and its file."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import Any

from joserfc.jwk import ECKey

SIGNING_ALGORITHM = "ES256"
_CURVE = "P-256"
_FORMAT_VERSION = 1


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class SigningKey:
    """One EC P-256 private key; its kid is the RFC 7638 thumbprint of the public key."""

    kid: str
    private_jwk: dict[str, Any] = field(repr=False)
    created_at: datetime
    retired_at: datetime | None = None

    @classmethod
    def generate(cls, now: datetime) -> SigningKey:
        key = ECKey.generate_key(_CURVE, private=True)
        return cls(
            kid=key.thumbprint(),
            private_jwk=dict(key.as_dict(private=True)),
            created_at=now,
        )

    @cached_property
    def key(self) -> ECKey:
        """The private key, for signing."""
        return ECKey.import_key(self.private_jwk)

    def public_jwk(self) -> dict[str, Any]:
        """The public half as a JWK with ``kid``, ``alg`` and ``use``; no private parts."""
        return dict(
            self.key.as_dict(
                private=False, kid=self.kid, alg=SIGNING_ALGORITHM, use="sig"
            )
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kid": self.kid,
            "jwk": self.private_jwk,
            "created_at": self.created_at.isoformat(),
            "retired_at": self.retired_at.isoformat() if self.retired_at else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SigningKey:
        key = ECKey.import_key(data["jwk"])
        if not key.is_private or key.curve_name != _CURVE:
            raise ValueError(
                f"signing key {data.get('kid')!r} is not a private P-256 key"
            )
        kid = key.thumbprint()
        if data.get("kid") not in (None, kid):
            raise ValueError(
                f"signing key {data['kid']!r} does not match its thumbprint"
            )
        retired = data.get("retired_at")
        return cls(
            kid=kid,
            private_jwk=dict(data["jwk"]),
            created_at=datetime.fromisoformat(data["created_at"]),
            retired_at=datetime.fromisoformat(retired) if retired else None,
        )


class KeyRing:
    """The active signing key and the retired keys whose tokens may still be valid.

    A retired key stays published until ``retired_at + max_token_lifetime``, so that every
    token it signed expires before verifiers lose its public key. With a ``path`` every
    change is written to that JSON file (mode 0600; it holds the private keys).
    """

    def __init__(
        self,
        keys: Iterable[SigningKey],
        *,
        max_token_lifetime: timedelta = timedelta(hours=1),
        path: Path | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self._keys = list(keys)
        if sum(key.retired_at is None for key in self._keys) != 1:
            raise ValueError("a key ring needs exactly one active (not retired) key")
        self.max_token_lifetime = max_token_lifetime
        self._path = path
        self._clock = clock
        self.version = 0

    @classmethod
    def generate(
        cls,
        *,
        max_token_lifetime: timedelta = timedelta(hours=1),
        clock: Callable[[], datetime] = utc_now,
    ) -> KeyRing:
        """A ring with one new key, kept in memory only."""
        return cls(
            [SigningKey.generate(clock())],
            max_token_lifetime=max_token_lifetime,
            clock=clock,
        )

    @classmethod
    def load_or_create(
        cls,
        path: Path | str,
        *,
        max_token_lifetime: timedelta = timedelta(hours=1),
        clock: Callable[[], datetime] = utc_now,
    ) -> KeyRing:
        """The ring stored at ``path``, or a new one written there (mode 0600)."""
        path = Path(path)
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                version = data.get("version")
                if version != _FORMAT_VERSION:
                    raise ValueError(f"unknown key ring format {version!r}")
                keys = [SigningKey.from_json(entry) for entry in data["keys"]]
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                # the file is someone's key material: name it, never rewrite it
                raise ValueError(f"{path}: not a readable key ring ({error})") from None
            return cls(
                keys, max_token_lifetime=max_token_lifetime, path=path, clock=clock
            )
        ring = cls.generate(max_token_lifetime=max_token_lifetime, clock=clock)
        ring._path = path
        ring._save()
        return ring

    @property
    def active(self) -> SigningKey:
        """The key that signs new tokens."""
        return next(key for key in self._keys if key.retired_at is None)

    def published(self) -> list[SigningKey]:
        """The active key and the retired keys still inside their publication window."""
        now = self._clock()
        return [
            key
            for key in self._keys
            if key.retired_at is None or now < key.retired_at + self.max_token_lifetime
        ]

    def find(self, kid: str) -> SigningKey | None:
        """The published key with this kid."""
        return next((key for key in self.published() if key.kid == kid), None)

    def rotate(self) -> SigningKey:
        """Make a new active key, retire the current one, forget keys past their window."""
        now = self._clock()
        retired = [
            replace(key, retired_at=now) if key.retired_at is None else key
            for key in self.published()
        ]
        new = SigningKey.generate(now)
        self._keys = [new, *retired]
        self.version += 1
        self._save()
        return new

    def jwks(self) -> dict[str, Any]:
        """The JSON Web Key Set of the published public keys."""
        return {"keys": [key.public_jwk() for key in self.published()]}

    def _save(self) -> None:
        if self._path is None:
            return
        content = json.dumps(
            {"version": _FORMAT_VERSION, "keys": [key.to_json() for key in self._keys]},
            indent=2,
        )
        self._path.parent.mkdir(parents=True, exist_ok=True)
        # mkstemp creates the file with mode 0600; the rename makes the update atomic
        descriptor, temporary = tempfile.mkstemp(dir=self._path.parent, prefix=".keys-")
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                file.write(content)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self._path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
