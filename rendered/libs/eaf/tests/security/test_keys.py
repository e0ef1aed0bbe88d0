from __future__ import annotations

import json
import stat
from datetime import timedelta
from pathlib import Path

import pytest
from joserfc.jwk import ECKey

from eaf.security import KeyRing, PublicKeys, SigningKey, TokenIssuer, TokenVerifier
from eaf.security.testing import FakeClock

PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "k"}


def test_jwks_publishes_public_keys_only(key_ring: KeyRing) -> None:
    key_ring.rotate()
    jwks = key_ring.jwks()
    assert len(jwks["keys"]) == 2
    for jwk in jwks["keys"]:
        assert PRIVATE_MEMBERS.isdisjoint(jwk)
        assert jwk["alg"] == "ES256"
        assert jwk["use"] == "sig"
        assert jwk["kty"] == "EC" and jwk["crv"] == "P-256"
        assert not ECKey.import_key(jwk).is_private
    assert '"d"' not in json.dumps(jwks)


def test_kid_is_the_rfc7638_thumbprint(key_ring: KeyRing) -> None:
    jwk = key_ring.jwks()["keys"][0]
    assert jwk["kid"] == key_ring.active.kid
    assert ECKey.import_key(jwk).thumbprint() == jwk["kid"]


def test_private_key_stays_out_of_repr(key_ring: KeyRing) -> None:
    assert key_ring.active.private_jwk["d"] not in repr(key_ring.active)


def test_rotation_keeps_the_retired_key_published_for_the_token_lifetime(
    key_ring: KeyRing, clock: FakeClock
) -> None:
    old = key_ring.active
    new = key_ring.rotate()
    assert key_ring.active == new and new.kid != old.kid
    assert [key.kid for key in key_ring.published()] == [new.kid, old.kid]
    clock.advance(3599)
    assert {jwk["kid"] for jwk in key_ring.jwks()["keys"]} == {new.kid, old.kid}
    clock.advance(1)
    assert {jwk["kid"] for jwk in key_ring.jwks()["keys"]} == {new.kid}
    assert key_ring.find(old.kid) is None


async def test_tokens_of_the_old_key_verify_until_they_expire(
    key_ring: KeyRing, issuer: TokenIssuer, verifier: TokenVerifier, clock: FakeClock
) -> None:
    old_token = issuer.issue(subject="u1", client_id="web", tenant_id="acme").token
    key_ring.rotate()
    new_token = issuer.issue(subject="u1", client_id="web", tenant_id="acme").token
    assert (await verifier.verify(old_token)).subject == "u1"
    assert (await verifier.verify(new_token)).subject == "u1"
    kids = PublicKeys.from_jwks(key_ring.jwks()).by_kid
    assert len(kids) == 2


def test_issuer_refuses_tokens_that_would_outlive_their_key(key_ring: KeyRing) -> None:
    with pytest.raises(ValueError, match="max_token_lifetime"):
        TokenIssuer(
            key_ring, issuer="i", default_audience="a", access_ttl=timedelta(hours=2)
        )


def test_key_ring_file_is_private_and_round_trips(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "secrets" / "signing-keys.json"
    ring = KeyRing.load_or_create(path, clock=clock.datetime)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    ring.rotate()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["signing-keys.json"]

    loaded = KeyRing.load_or_create(path, clock=clock.datetime)
    assert loaded.active.kid == ring.active.kid
    assert loaded.jwks() == ring.jwks()
    assert [key.retired_at for key in loaded.published()] == [
        key.retired_at for key in ring.published()
    ]


def test_rotation_forgets_keys_past_their_window(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "keys.json"
    ring = KeyRing.load_or_create(path, clock=clock.datetime)
    first = ring.active.kid
    ring.rotate()
    clock.advance(7200)
    ring.rotate()
    stored = {entry["kid"] for entry in json.loads(path.read_text())["keys"]}
    assert first not in stored and len(stored) == 2


def test_a_tampered_key_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "keys.json"
    KeyRing.load_or_create(path)
    data = json.loads(path.read_text())
    data["keys"][0]["kid"] = "someone-elses-kid"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="does not match its thumbprint"):
        KeyRing.load_or_create(path)


def test_signing_key_round_trips_through_json(clock: FakeClock) -> None:
    key = SigningKey.generate(clock.datetime())
    assert SigningKey.from_json(json.loads(json.dumps(key.to_json()))) == key


@pytest.mark.parametrize(
    "text", ["not json", "[]", '{"version": 1}', '{"version": 1, "keys": [{}]}']
)
def test_an_unreadable_key_file_is_named_and_kept(tmp_path: Path, text: str) -> None:
    path = tmp_path / "keys.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="keys.json: ") as error:
        KeyRing.load_or_create(path)
    assert "not a readable key ring" in str(error.value)
    assert path.read_text() == text
