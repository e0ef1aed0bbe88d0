"""Secrets sealed at rest: they open where they were sealed, with any key of the ring."""

import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from eaf.eventsourcing.testing import as_tenant
from eaf.security import SealedSecrets, SecretBox, SecretError

HERE = b"tenant-a\x1fldap\x1fbindCredential"


def test_a_sealed_secret_opens_only_where_it_was_sealed(tmp_path: Path) -> None:
    box = SecretBox.load_or_create(tmp_path / "secrets.json")
    sealed, key_id = box.seal("directory-password", HERE)

    assert "directory-password" not in sealed
    assert box.open(sealed, key_id, HERE) == "directory-password"
    with pytest.raises(SecretError):
        box.open(sealed, key_id, b"tenant-b\x1fldap\x1fbindCredential")


def test_the_ring_is_private_and_a_rotated_ring_still_opens_old_secrets(
    tmp_path: Path,
) -> None:
    path = tmp_path / "secrets.json"
    box = SecretBox.load_or_create(path)
    sealed, key_id = box.seal("old", HERE)
    box.rotate()
    box.save(path)

    reloaded = SecretBox.load_or_create(path)

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert reloaded.open(sealed, key_id, HERE) == "old"
    assert reloaded.seal("new", HERE)[1] != key_id
    with pytest.raises(SecretError):
        reloaded.open(sealed, "unknown", HERE)


@dataclass
class _Settings:
    service_dir: Path
    values: dict[str, Any]

    def get(self, dotted: str, default: Any = None) -> Any:
        return self.values.get(dotted, default)


def test_a_sealed_secret_opens_only_in_its_tenant_kind_and_field(
    tmp_path: Path,
) -> None:
    secrets = SealedSecrets.from_settings(_Settings(tmp_path, {}))
    with as_tenant("acme"):
        sealed = secrets.seal("Mirror", "token", "s3cret")
        assert "s3cret" not in sealed
        assert secrets.open("Mirror", "token", sealed) == "s3cret"
        for kind, field in [("Mirror", "password"), ("Proxy", "token")]:
            with pytest.raises(SecretError):
                secrets.open(kind, field, sealed)
        for broken in ["s3cret", "k00:not-base64!", sealed.replace(":", ":A", 1)]:
            with pytest.raises(SecretError):
                secrets.open("Mirror", "token", broken)
    with as_tenant("globex"), pytest.raises(SecretError):
        secrets.open("Mirror", "token", sealed)
    # the ring is the service's file (created once, 0600): a restart opens what it sealed
    ring = tmp_path / "data/secrets.json"
    assert ring.stat().st_mode & 0o777 == 0o600
    again = SealedSecrets.from_settings(_Settings(tmp_path, {}))
    with as_tenant("acme"):
        assert again.open("Mirror", "token", sealed) == "s3cret"
    elsewhere = SealedSecrets.from_settings(
        _Settings(tmp_path, {"security.secrets_file": str(tmp_path / "other.json")})
    )
    with as_tenant("acme"), pytest.raises(SecretError):
        elsewhere.open("Mirror", "token", sealed)


def test_a_digest_of_a_secret_tells_a_changed_one_in_its_place_only(
    tmp_path: Path,
) -> None:
    secrets = SealedSecrets(SecretBox.load_or_create(tmp_path / "ring.json"))
    with as_tenant("acme"):
        first = secrets.digest("Mirror", "token", "s3cret")
        assert first == secrets.digest("Mirror", "token", "s3cret")
        assert "s3cret" not in first
        assert first != secrets.digest("Mirror", "token", "s3cret2")
        assert first != secrets.digest("Mirror", "password", "s3cret")
        # a rotated ring keeps its oldest key: the digest stays
        secrets.box.rotate()
        assert first == secrets.digest("Mirror", "token", "s3cret")
    with as_tenant("globex"):
        assert first != secrets.digest("Mirror", "token", "s3cret")
    other = SealedSecrets(SecretBox.generate())
    with as_tenant("acme"):
        assert first != other.digest("Mirror", "token", "s3cret")
