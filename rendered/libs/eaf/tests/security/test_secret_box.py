"""Secrets sealed at rest: they open where they were sealed, with any key of the ring."""

import stat
from pathlib import Path

import pytest

from eaf.security import SecretBox, SecretError

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
