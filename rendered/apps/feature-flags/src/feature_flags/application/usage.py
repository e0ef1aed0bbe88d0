"""Usage of flags per flag and variant, and the stale-flag report (hand-written).

Usage arrives as reports (the generated `UsageReport` aggregate, one event each): from
Unleash SDKs (`POST /api/client/metrics`) and from this service's own OFREP endpoints,
whose evaluations are counted in memory and reported every few seconds per tenant and
environment. The summary adds the reports of a window up per flag and variant; the stale
report names flags to clean up, with why.
"""

from __future__ import annotations

import os
import socket
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from eaf.context import SecurityContext, use

from feature_flags.application.ports.inbound import UsageReportUseCases
from feature_flags.domain.model import Flag, UsageReport
from feature_flags.domain.types import FlagType, ToggleUsage

__all__ = [
    "EXPECTED_LIFETIME_DAYS",
    "FlagUsage",
    "OfrepUsage",
    "StaleFlag",
    "stale_flags",
    "summarize",
]

EXPECTED_LIFETIME_DAYS: dict[FlagType, int | None] = {
    FlagType.RELEASE: 40,
    FlagType.EXPERIMENT: 40,
    FlagType.OPERATIONAL: 7,
    FlagType.KILL_SWITCH: None,
    FlagType.PERMISSION: None,
}
"""How long a flag of each type is expected to live (Unleash's figures); None: for good."""


@dataclass
class FlagUsage:
    """One flag's evaluations in a window: how often on and off, each variant, when last."""

    key: str
    yes: int = 0
    no: int = 0
    variants: dict[str, int] = field(default_factory=dict)
    last_seen: datetime | None = None


def summarize(
    reports: Sequence[UsageReport], since: datetime, environment: str | None = None
) -> dict[str, FlagUsage]:
    """The reports that stopped at or after ``since`` (in ``environment``, if given),
    added up per flag."""
    usage: dict[str, FlagUsage] = {}
    for report in reports:
        if report.stop < since or (environment and report.environment != environment):
            continue
        for key, counted in report.toggles.items():
            flag = usage.setdefault(key, FlagUsage(key))
            flag.yes += counted.yes
            flag.no += counted.no
            for variant, times in counted.variants.items():
                flag.variants[variant] = flag.variants.get(variant, 0) + times
            if counted.yes or counted.no:
                flag.last_seen = max(filter(None, (flag.last_seen, report.stop)))
    return usage


@dataclass(frozen=True)
class StaleFlag:
    """A flag to clean up, and why (each reason one sentence)."""

    key: str
    type: FlagType
    reasons: tuple[str, ...]


def stale_flags(
    flags: Sequence[Flag],
    usage: dict[str, FlagUsage],
    now: datetime,
    idle_days: int,
) -> list[StaleFlag]:
    """Flags marked stale, past the expected lifetime of their type, or not evaluated for
    ``idle_days`` (``usage`` covers that window); archived flags are not listed."""
    found = []
    for flag in sorted(flags, key=lambda f: f.key_):
        if flag.archived_:
            continue
        reasons = []
        if flag.stale:
            reasons.append("marked stale")
        lifetime = EXPECTED_LIFETIME_DAYS[flag.type_]
        age = now - flag.created_at
        if lifetime is not None and age > timedelta(days=lifetime):
            reasons.append(
                f"past the expected lifetime of {flag.type_.value} flags ({lifetime} days)"
            )
        seen = usage.get(flag.key_)
        if age > timedelta(days=idle_days) and (seen is None or seen.last_seen is None):
            reasons.append(f"not evaluated in the last {idle_days} days")
        if reasons:
            found.append(StaleFlag(flag.key_, flag.type_, tuple(reasons)))
    return found


class OfrepUsage:
    """Counts the OFREP evaluations per tenant and environment, and reports them as usage
    (application ``ofrep``) when flushed."""

    def __init__(self, reports: UsageReportUseCases, instance: str = "") -> None:
        """``instance`` names this process in the reports (default: host and pid)."""
        self._reports = reports
        self._instance = instance or f"{socket.gethostname()}-{os.getpid()}"
        self._started = datetime.now(UTC)
        # (tenant, environment) -> flag -> [yes, no], and -> flag -> variant -> count
        self._counts: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(dict)
        self._variants: dict[tuple[str, str], dict[str, dict[str, int]]] = defaultdict(
            dict
        )

    def count(
        self, tenant: str, environment: str, key: str, enabled: bool, variant: str
    ) -> None:
        scope = (tenant, environment)
        counted = self._counts[scope].setdefault(key, [0, 0])
        counted[0 if enabled else 1] += 1
        variants = self._variants[scope].setdefault(key, {})
        variants[variant] = variants.get(variant, 0) + 1

    async def flush(self) -> int:
        """Report what was counted since the last flush; how many reports were written."""
        counts, self._counts = self._counts, defaultdict(dict)
        variants, self._variants = self._variants, defaultdict(dict)
        start, stop = self._started, datetime.now(UTC)
        self._started = stop
        for (tenant, environment), flags in counts.items():
            toggles = {
                key: ToggleUsage(
                    yes=yes, no=no, variants=variants[(tenant, environment)][key]
                )
                for key, (yes, no) in flags.items()
            }
            with use(SecurityContext(tenant_id=tenant)):
                await self._reports.submit(
                    app_name="ofrep",
                    instance_id=self._instance,
                    environment=environment,
                    start=start,
                    stop=stop,
                    toggles=toggles,
                )
        return len(counts)
