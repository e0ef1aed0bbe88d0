# Generated from spec licensing by `generate`; edits are merged on re-render.

"""The system clock adapter."""

from datetime import UTC, datetime


class SystemClock:
    """The real time, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)
