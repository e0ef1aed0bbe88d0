"""Password hashing (argon2id) and a throttle for repeated failed logins."""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol

import argon2
from argon2.exceptions import InvalidHashError, VerificationError

_DEFAULT = argon2.profiles.RFC_9106_LOW_MEMORY


class _Settings(Protocol):
    def get(self, dotted: str, default: Any = None) -> Any: ...


class PasswordHasher:
    """Argon2id hashes: ``verify`` answers a mismatch with ``False``, never an exception.

    The defaults are RFC 9106's low-memory profile; tests pass low costs explicitly.
    """

    def __init__(
        self,
        *,
        time_cost: int = _DEFAULT.time_cost,
        memory_cost: int = _DEFAULT.memory_cost,
        parallelism: int = _DEFAULT.parallelism,
    ) -> None:
        self._argon2 = argon2.PasswordHasher(
            time_cost=time_cost,
            memory_cost=memory_cost,
            parallelism=parallelism,
            type=argon2.Type.ID,
        )
        self._dummy_hash = self._argon2.hash("no user has this password")

    @classmethod
    def from_settings(cls, settings: _Settings) -> PasswordHasher:
        """The hasher with the costs of ``security.password_hashing`` (``time_cost``,
        ``memory_cost`` in KiB, ``parallelism``), RFC 9106's low-memory profile where a
        cost is not set."""
        costs = "security.password_hashing"
        return cls(
            time_cost=int(settings.get(f"{costs}.time_cost", _DEFAULT.time_cost)),
            memory_cost=int(settings.get(f"{costs}.memory_cost", _DEFAULT.memory_cost)),
            parallelism=int(settings.get(f"{costs}.parallelism", _DEFAULT.parallelism)),
        )

    def hash(self, password: str) -> str:
        """A new salted argon2id hash of ``password`` (PHC string format)."""
        return self._argon2.hash(password)

    def verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` matches ``hashed``.

        ``hashed=None`` (no such user) still spends the time of one verification, so that a
        login for an unknown user cannot be told apart by its response time.
        """
        try:
            return self._argon2.verify(hashed or self._dummy_hash, password) and (
                hashed is not None
            )
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, hashed: str) -> bool:
        """Whether ``hashed`` was made with other parameters than this hasher's (or is no
        argon2 hash at all), so it should be replaced after the next successful login."""
        try:
            return self._argon2.check_needs_rehash(hashed)
        except (InvalidHashError, ValueError):
            return True


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


class LoginThrottle:
    """Consecutive failed logins per key (e.g. ``(tenant, username)``), with exponential backoff.

    After ``max_failures`` consecutive failures the key is locked for ``base_delay`` seconds;
    every further failure doubles the lock, up to ``max_delay``. A success resets the key.
    The state lives in this process; at most ``max_keys`` keys are remembered (oldest
    forgotten first).
    """

    def __init__(
        self,
        *,
        max_failures: int = 5,
        base_delay: float = 1.0,
        max_delay: float = 900.0,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_failures < 1:
            raise ValueError("max_failures must be at least 1")
        self._max_failures = max_failures
        self._base_delay = base_delay
        self._max_delay = max_delay
        self._max_keys = max_keys
        self._clock = clock
        self._failures: OrderedDict[Hashable, _Failures] = OrderedDict()

    def check(self, key: Hashable) -> int:
        """Seconds to wait before ``key`` may try again (for ``Retry-After``); 0 if allowed."""
        failures = self._failures.get(key)
        if failures is None:
            return 0
        return max(0, math.ceil(failures.locked_until - self._clock()))

    def failed(self, key: Hashable) -> int:
        """Record a failed attempt; returns the seconds ``key`` must now wait."""
        failures = self._failures.pop(key, None) or _Failures()
        self._failures[key] = failures
        failures.count += 1
        beyond = failures.count - self._max_failures
        if beyond >= 0:
            delay = min(self._max_delay, self._base_delay * 2 ** min(beyond, 64))
            failures.locked_until = self._clock() + delay
        while len(self._failures) > self._max_keys:
            self._failures.popitem(last=False)
        return self.check(key)

    def succeeded(self, key: Hashable) -> None:
        """Forget the failures of ``key``."""
        self._failures.pop(key, None)
