"""No public API returns another tenant's data, and none works without a tenant."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from eaf.context import MissingTenantError, SecurityContext, use
from eaf.eventsourcing import (
    Aggregate,
    EventRegistry,
    EventSourcedRepository,
    SagaState,
    Snapshot,
    applies,
)
from eaf.eventsourcing.testing import Backend, as_tenant


@dataclass(frozen=True)
class NoteWritten:
    text: str


class Note(Aggregate):
    text: str

    @applies(NoteWritten)
    def _written(self, event: NoteWritten) -> None:
        self.text = event.text


def _reads(backend: Backend) -> dict[str, Callable[[], Awaitable[Any]]]:
    registry = EventRegistry()
    registry.register(NoteWritten)
    notes = EventSourcedRepository(
        Note, backend.events, registry, snapshots=backend.snapshots, snapshot_interval=1
    )
    return {
        "read_stream": lambda: backend.events.read_stream("Note", "n-1"),
        "stream_version": lambda: backend.events.stream_version("Note", "n-1"),
        "read_all": lambda: backend.events.read_all(),
        "read_all by type": lambda: backend.events.read_all(
            event_types=["NoteWritten"]
        ),
        "snapshot": lambda: backend.snapshots.latest("Note", "n-1"),
        "saga": lambda: backend.sagas.load("Saga", "n-1"),
        "repository": lambda: notes.get("n-1"),
    }


async def _write_as_acme(backend: Backend) -> None:
    registry = EventRegistry()
    registry.register(NoteWritten)
    notes = EventSourcedRepository(
        Note, backend.events, registry, snapshots=backend.snapshots, snapshot_interval=1
    )
    with as_tenant("acme"):
        note = Note("n-1")
        note._record(NoteWritten("secret"))
        await notes.save(note)
        await backend.snapshots.save(Snapshot("Note", "n-1", 1, {"text": "secret"}))
        await backend.sagas.save(SagaState("Saga", "n-1", {"text": "secret"}))
        found = {name: await read() for name, read in _reads(backend).items()}
    assert all(found.values()), found  # acme itself sees all of it


async def test_other_tenants_see_nothing(backend: Backend) -> None:
    await _write_as_acme(backend)
    with as_tenant("globex"):
        found = {name: await read() for name, read in _reads(backend).items()}
    assert found == {
        "read_stream": [],
        "stream_version": 0,
        "read_all": [],
        "read_all by type": [],
        "snapshot": None,
        "saga": None,
        "repository": None,
    }


@pytest.mark.parametrize("context", [None, SecurityContext(user_id="no-tenant")])
async def test_nothing_is_readable_without_a_tenant(
    backend: Backend, context: SecurityContext | None
) -> None:
    await _write_as_acme(backend)
    for name, read in _reads(backend).items():
        if context is None:
            with pytest.raises(MissingTenantError):
                await read()
        else:
            with use(context), pytest.raises(MissingTenantError):
                await read()
        assert name
