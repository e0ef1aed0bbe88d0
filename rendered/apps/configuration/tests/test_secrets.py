"""The key ring of secret values: sealed with the active key, opened by the key each
ciphertext names (so rotation keeps old secrets readable), bound to where it belongs."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from configuration.application.secrets import SecretBox, SecretError, sealed_for
from configuration.application.validation import schema_problems, violations


def test_a_rotated_ring_still_opens_what_the_old_key_sealed(tmp_path: Path) -> None:
    path = tmp_path / "keys.json"
    ring = SecretBox.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    where = sealed_for("acme", "billing:default:main", "db.password")
    old, old_kid = ring.seal('"s3cret"', where)
    assert "s3cret" not in old

    ring.rotate()
    ring.save(path)
    reloaded = SecretBox.load_or_create(path)
    new, new_kid = reloaded.seal('"other"', where)
    assert new_kid != old_kid
    assert reloaded.open(old, old_kid, where) == '"s3cret"'
    assert reloaded.open(new, new_kid, where) == '"other"'


def test_a_secret_moved_elsewhere_or_tampered_does_not_open() -> None:
    ring = SecretBox.generate()
    sealed, kid = ring.seal('"x"', sealed_for("acme", "a:default:main", "p"))
    with pytest.raises(SecretError):
        ring.open(sealed, kid, sealed_for("globex", "a:default:main", "p"))
    with pytest.raises(SecretError):
        ring.open(sealed, "unknown", sealed_for("acme", "a:default:main", "p"))


def test_schemas_report_every_violation_and_refuse_a_broken_schema() -> None:
    schema = '{"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}'
    assert violations(schema, {"a": "x", "b": 1}) == [
        ("a", "'x' is not of type 'integer'"),
        ("b", "1 is not of type 'string'"),
    ]
    assert schema_problems(schema) == []
    assert schema_problems('{"type": 12}')
    assert schema_problems("not json")
