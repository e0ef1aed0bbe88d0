"""Usage per flag and variant, and the stale-flag report (hand-written, with the
evaluation): windows, environments, variants, and each reason a flag is stale."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import uuid4

from feature_flags.application.usage import stale_flags, summarize
from feature_flags.domain.model import Flag, UsageReport
from feature_flags.domain.types import FlagType, ToggleUsage

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def flag(key: str, type_: FlagType, age_days: int) -> Flag:
    return Flag.create(
        key_=key,
        project_id=uuid4(),
        description="",
        type_=type_,
        impression_data=False,
        environments={},
        variants=[],
        dependencies=[],
        now=NOW - timedelta(days=age_days),
    )


def report(stop: datetime, environment: str, **toggles: ToggleUsage) -> UsageReport:
    return UsageReport.submit(
        app_name="shop",
        instance_id="i-1",
        environment=environment,
        start=stop - timedelta(minutes=1),
        stop=stop,
        toggles=dict(toggles),
        now=stop,
    )


def test_reports_of_the_window_add_up_per_flag_and_variant() -> None:
    reports = [
        report(
            NOW - timedelta(days=1),
            "production",
            checkout=ToggleUsage(yes=3, no=1, variants={"blue": 3}),
        ),
        report(
            NOW - timedelta(hours=1),
            "production",
            checkout=ToggleUsage(yes=2, no=0, variants={"blue": 1, "red": 1}),
        ),
        report(NOW - timedelta(hours=1), "staging", checkout=ToggleUsage(yes=9, no=9)),
        report(
            NOW - timedelta(days=9), "production", checkout=ToggleUsage(yes=100, no=0)
        ),
    ]

    usage = summarize(reports, NOW - timedelta(days=7), "production")

    checkout = usage["checkout"]
    assert (checkout.yes, checkout.no) == (5, 1)
    assert checkout.variants == {"blue": 4, "red": 1}
    assert checkout.last_seen == NOW - timedelta(hours=1)
    assert summarize(reports, NOW - timedelta(days=7))["checkout"].yes == 14


def test_stale_flags_say_why() -> None:
    young = flag("young-release", FlagType.RELEASE, 3)
    old = flag("old-release", FlagType.RELEASE, 41)
    switch = flag("old-kill-switch", FlagType.KILL_SWITCH, 400)
    operational = flag("ops", FlagType.OPERATIONAL, 8)
    marked = flag("marked", FlagType.PERMISSION, 1).mark_stale(stale=True, now=NOW)
    gone = flag("gone", FlagType.RELEASE, 90).archive(now=NOW)
    usage = summarize(
        [
            report(
                NOW - timedelta(days=2),
                "production",
                **{"old-kill-switch": ToggleUsage(yes=1, no=0)},
            )
        ],
        NOW - timedelta(days=30),
    )

    stale = {
        s.key: s.reasons
        for s in stale_flags(
            [young, old, switch, operational, marked, gone], usage, NOW, 30
        )
    }

    assert "young-release" not in stale and "gone" not in stale
    assert "old-kill-switch" not in stale  # lives for good, and evaluated lately
    assert stale["marked"] == ("marked stale",)
    assert stale["ops"] == ("past the expected lifetime of operational flags (7 days)",)
    assert stale["old-release"] == (
        "past the expected lifetime of release flags (40 days)",
        "not evaluated in the last 30 days",
    )
