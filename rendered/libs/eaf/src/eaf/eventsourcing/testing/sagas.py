"""The contract every SagaStore adapter passes."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from eaf.context import MissingTenantError, platform_context, use
from eaf.eventsourcing.errors import ConcurrencyError
from eaf.eventsourcing.ports import SagaState, SagaStore
from eaf.eventsourcing.testing.helpers import as_tenant

__all__ = ["SagaStoreContract"]


@pytest.mark.asyncio
class SagaStoreContract:
    """Subclasses provide a ``saga_store`` fixture."""

    async def test_save_and_load(self, saga_store: SagaStore) -> None:
        with as_tenant("acme"):
            assert await saga_store.load("Fulfilment", "order-1") is None
            saved = await saga_store.save(
                SagaState("Fulfilment", "order-1", {"paid": False}, last_position=7)
            )
            loaded = await saga_store.load("Fulfilment", "order-1")
        assert saved.revision == 1
        assert loaded == SagaState(
            "Fulfilment", "order-1", {"paid": False}, False, 7, 1
        )

    async def test_updates_need_the_current_revision(
        self, saga_store: SagaStore
    ) -> None:
        with as_tenant("acme"):
            first = await saga_store.save(
                SagaState("Fulfilment", "order-1", {"step": 1})
            )
            second = await saga_store.save(
                replace(first, state={"step": 2}, ended=True)
            )
            with pytest.raises(ConcurrencyError):
                await saga_store.save(replace(first, state={"step": "stale"}))
            with pytest.raises(ConcurrencyError):
                await saga_store.save(
                    SagaState("Fulfilment", "order-1", {"step": "new"})
                )
            loaded = await saga_store.load("Fulfilment", "order-1")
        assert second.revision == 2
        assert loaded == replace(second, state={"step": 2}, ended=True)

    async def test_concurrent_starts_have_one_winner(
        self, saga_store: SagaStore
    ) -> None:
        async def start(n: int) -> bool:
            try:
                await saga_store.save(SagaState("Fulfilment", "order-1", {"by": n}))
            except ConcurrencyError:
                return False
            return True

        with as_tenant("acme"):
            results = await asyncio.gather(*(start(n) for n in range(5)))
        assert results.count(True) == 1

    async def test_sagas_are_per_tenant(self, saga_store: SagaStore) -> None:
        with as_tenant("acme"):
            await saga_store.save(
                SagaState("Fulfilment", "order-1", {"tenant": "acme"})
            )
        with as_tenant("globex"):
            assert await saga_store.load("Fulfilment", "order-1") is None
            saved = await saga_store.save(
                SagaState("Fulfilment", "order-1", {"tenant": "globex"})
            )
            assert saved.revision == 1
        with as_tenant("acme"):
            loaded = await saga_store.load("Fulfilment", "order-1")
            assert loaded is not None
            assert loaded.state == {"tenant": "acme"}

    async def test_no_tenant_no_access(self, saga_store: SagaStore) -> None:
        with pytest.raises(MissingTenantError):
            await saga_store.load("Fulfilment", "order-1")
        with use(platform_context()), pytest.raises(MissingTenantError):
            await saga_store.save(SagaState("Fulfilment", "order-1"))

    async def test_tracking_positions(self, saga_store: SagaStore) -> None:
        with use(platform_context()):
            assert await saga_store.tracking_position("runner-a") == 0
            await saga_store.save_tracking_position("runner-a", 42)
            await saga_store.save_tracking_position("runner-a", 43)
            await saga_store.save_tracking_position("runner-b", 7)
            assert await saga_store.tracking_position("runner-a") == 43
            assert await saga_store.tracking_position("runner-b") == 7
