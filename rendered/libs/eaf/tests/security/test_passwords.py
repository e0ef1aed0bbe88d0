from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from eaf.config import Settings
from eaf.security import LoginThrottle, PasswordHasher

CHEAP = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}


@pytest.fixture
def hasher() -> PasswordHasher:
    return PasswordHasher(**CHEAP)


def test_hash_verifies_the_password_and_only_it(hasher: PasswordHasher) -> None:
    hashed = hasher.hash("correct horse battery staple")
    assert hashed.startswith("$argon2id$")
    assert hasher.verify(hashed, "correct horse battery staple")
    assert not hasher.verify(hashed, "Correct horse battery staple")
    assert hasher.hash("correct horse battery staple") != hashed  # salted


def test_verify_answers_false_for_garbage_and_unknown_users(
    hasher: PasswordHasher,
) -> None:
    assert not hasher.verify("not a hash", "secret")
    assert not hasher.verify("", "secret")
    assert not hasher.verify(None, "secret")
    assert not hasher.verify(None, "no user has this password")


def test_hashes_with_other_parameters_need_rehash(hasher: PasswordHasher) -> None:
    hashed = hasher.hash("secret")
    assert not hasher.needs_rehash(hashed)
    stronger = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    assert stronger.needs_rehash(hashed)
    assert stronger.verify(hashed, "secret")  # still verifies, then gets replaced
    assert hasher.needs_rehash("$2b$12$not-argon2")


def settings_of(raw: dict[str, Any]) -> Settings:
    return Settings(
        raw=raw, service_dir=Path("."), config_file=Path("application.yaml")
    )


def test_the_costs_of_security_password_hashing_are_the_hashers() -> None:
    settings = settings_of(
        {"security": {"password_hashing": {**CHEAP, "time_cost": 2}}}
    )
    hashed = PasswordHasher.from_settings(settings).hash("secret")

    assert hashed.startswith("$argon2id$v=19$m=8,t=2,p=1$")
    unset = PasswordHasher.from_settings(settings_of({})).hash("secret")
    assert unset.startswith("$argon2id$v=19$m=65536,t=3,p=4$")  # RFC 9106 low memory


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_throttle_locks_after_max_failures_with_exponential_backoff() -> None:
    ticks = Ticks()
    throttle = LoginThrottle(
        max_failures=3, base_delay=2.0, max_delay=30.0, clock=ticks
    )
    key = ("acme", "alice")
    assert [throttle.failed(key) for _ in range(2)] == [0, 0]
    assert throttle.check(key) == 0
    assert throttle.failed(key) == 2
    assert throttle.check(key) == 2
    ticks.now += 1.5
    assert throttle.check(key) == 1  # rounded up, for Retry-After
    ticks.now += 0.5
    assert throttle.check(key) == 0
    assert throttle.failed(key) == 4
    ticks.now += 4
    assert throttle.failed(key) == 8
    ticks.now += 8
    assert [throttle.failed(key) for _ in range(3)] == [16, 30, 30]


def test_success_resets_and_keys_are_independent() -> None:
    ticks = Ticks()
    throttle = LoginThrottle(max_failures=2, base_delay=5.0, clock=ticks)
    for _ in range(2):
        throttle.failed(("acme", "alice"))
    assert throttle.check(("acme", "alice")) == 5
    assert throttle.check(("acme", "bob")) == 0
    assert throttle.check(("other", "alice")) == 0
    throttle.succeeded(("acme", "alice"))
    assert throttle.check(("acme", "alice")) == 0
    assert throttle.failed(("acme", "alice")) == 0


def test_throttle_forgets_the_oldest_keys_beyond_its_capacity() -> None:
    throttle = LoginThrottle(max_failures=1, max_keys=2, clock=Ticks())
    for name in ("a", "b", "c"):
        throttle.failed(name)
    assert [throttle.check(name) for name in ("a", "b", "c")] == [0, 1, 1]
