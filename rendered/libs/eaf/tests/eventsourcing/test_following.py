"""The follower loop shared by policies and sagas: a failing handler stops its batch at
the failing event, the position stays before it, and ``run`` retries until it succeeds."""

from __future__ import annotations

import asyncio

from eaf.context import SecurityContext, platform_context, use
from eaf.eventsourcing import NewEvent, StoredEvent
from eaf.eventsourcing.following import EventFollower
from eaf.eventsourcing.testing import Backend


class Flaky(EventFollower):
    """Records what it handled; fails on the event ids in ``failing``, once each."""

    def __init__(self, backend: Backend, failing: set[int]) -> None:
        super().__init__(
            events=backend.events,
            tracking=backend.sagas,
            event_types=["Noted"],
            name="flaky",
            batch_size=10,
            retry_delay=0.01,
        )
        self.failing = failing
        self.handled: list[int] = []

    async def handle(self, stored: StoredEvent) -> None:
        number = int(stored.payload["n"])
        if number in self.failing:
            self.failing.discard(number)
            raise RuntimeError(f"handler failed on {number}")
        self.handled.append(number)


async def note(backend: Backend, count: int) -> None:
    with use(SecurityContext(tenant_id="acme")):
        await backend.events.append(
            "Note",
            "n-1",
            [NewEvent("Noted", {"n": n}) for n in range(1, count + 1)],
            expected_version=0,
        )
        await backend.events.append(
            "Other", "o-1", [NewEvent("Ignored", {})], expected_version=0
        )


async def position(backend: Backend) -> int:
    with use(platform_context()):
        return await backend.sagas.tracking_position("flaky")


async def test_a_failure_keeps_the_position_before_the_failing_event(
    backend: Backend,
) -> None:
    await note(backend, 4)
    follower = Flaky(backend, failing={3})
    try:
        await follower.run_once()
    except RuntimeError as error:
        assert str(error) == "handler failed on 3"
    else:
        raise AssertionError("the failure was swallowed")
    assert follower.handled == [1, 2]
    with use(platform_context()):
        stored = await backend.events.read_all()
    assert await position(backend) == stored[1].position  # after event 2, before 3

    await follower.run_until_idle()
    assert follower.handled == [1, 2, 3, 4]  # 3 again, nothing twice
    assert await position(backend) == stored[3].position


async def test_run_logs_a_failure_and_retries_until_the_handler_succeeds(
    backend: Backend,
) -> None:
    await note(backend, 3)
    follower = Flaky(backend, failing={2})
    stop = asyncio.Event()
    task = asyncio.create_task(follower.run(stop, poll_interval=0.01))
    async with asyncio.timeout(10):
        while follower.handled != [1, 2, 3]:
            await asyncio.sleep(0.01)
    stop.set()
    await task
    assert follower.handled == [1, 2, 3]
