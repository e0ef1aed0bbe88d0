"""The contract every SnapshotStore adapter passes."""

from __future__ import annotations

import pytest

from eaf.context import MissingTenantError
from eaf.eventsourcing.ports import Snapshot, SnapshotStore
from eaf.eventsourcing.testing.helpers import as_tenant

__all__ = ["SnapshotStoreContract"]


@pytest.mark.asyncio
class SnapshotStoreContract:
    """Subclasses provide a ``snapshot_store`` fixture."""

    async def test_latest_of_an_unknown_stream_is_none(
        self, snapshot_store: SnapshotStore
    ) -> None:
        with as_tenant("acme"):
            assert await snapshot_store.latest("Account", "a") is None

    async def test_latest_returns_the_highest_version(
        self, snapshot_store: SnapshotStore
    ) -> None:
        state = {"balance": "10.50", "owners": ["ann", "bob"], "nested": {"x": 1}}
        with as_tenant("acme"):
            await snapshot_store.save(Snapshot("Account", "a", 50, {"balance": "1"}))
            await snapshot_store.save(
                Snapshot("Account", "a", 100, state, state_version=2)
            )
            await snapshot_store.save(Snapshot("Account", "a", 75, {"balance": "old"}))
            await snapshot_store.save(Snapshot("Account", "b", 5, {"balance": "b"}))
            latest = await snapshot_store.latest("Account", "a")
        assert latest == Snapshot("Account", "a", 100, state, state_version=2)

    async def test_snapshots_are_per_tenant(
        self, snapshot_store: SnapshotStore
    ) -> None:
        with as_tenant("acme"):
            await snapshot_store.save(Snapshot("Account", "a", 10, {"owner": "acme"}))
        with as_tenant("globex"):
            assert await snapshot_store.latest("Account", "a") is None
            await snapshot_store.save(Snapshot("Account", "a", 3, {"owner": "globex"}))
            latest = await snapshot_store.latest("Account", "a")
            assert latest is not None
            assert latest.state == {"owner": "globex"}
        with as_tenant("acme"):
            latest = await snapshot_store.latest("Account", "a")
            assert latest is not None
            assert latest.state == {"owner": "acme"}

    async def test_no_tenant_no_access(self, snapshot_store: SnapshotStore) -> None:
        with pytest.raises(MissingTenantError):
            await snapshot_store.latest("Account", "a")
        with pytest.raises(MissingTenantError):
            await snapshot_store.save(Snapshot("Account", "a", 1, {}))
