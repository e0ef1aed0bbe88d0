"""Test helpers: a clock that moves only when told to."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class FakeClock:
    """Wall-clock time for key rings (``clock.datetime``), issuers and verifiers
    (``clock.time``) that only moves when a test calls :meth:`advance`."""

    def __init__(self, now: datetime | None = None) -> None:
        self.now = now or datetime(2030, 1, 7, 10, 30, tzinfo=UTC)  # a Monday

    def datetime(self) -> datetime:
        return self.now

    def time(self) -> float:
        return self.now.timestamp()

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
