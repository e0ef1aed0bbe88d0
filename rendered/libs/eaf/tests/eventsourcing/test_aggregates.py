"""Aggregates through the repository: replay, optimistic concurrency, snapshots and
upcasting, on every adapter family."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal

import pytest
from sqlalchemy import text

from eaf.eventsourcing import (
    Aggregate,
    AggregateNotFoundError,
    ConcurrencyError,
    EventRegistry,
    EventSourcedRepository,
    Snapshot,
    SqlEventStore,
    applies,
)
from eaf.eventsourcing.testing import Backend, as_tenant


@dataclass(frozen=True)
class AccountOpened:
    account_id: str
    owner: str


@dataclass(frozen=True)
class MoneyDeposited:
    account_id: str
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class MoneyDepositedV1:
    account_id: str
    amount: Decimal


class Account(Aggregate):
    owner: str
    balance: Decimal
    deposits: list[Decimal]

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.owner = ""
        self.balance = Decimal(0)
        self.deposits = []

    @classmethod
    def open(cls, account_id: str, owner: str) -> Account:
        account = cls(account_id)
        account._record(AccountOpened(account_id, owner))
        return account

    def deposit(self, amount: Decimal) -> None:
        if amount <= 0:
            raise ValueError("deposits are positive")
        self._record(MoneyDeposited(self.id, amount, "EUR"))

    @applies(AccountOpened)
    def _opened(self, event: AccountOpened) -> None:
        self.owner = event.owner

    @applies(MoneyDeposited)
    def _deposited(self, event: MoneyDeposited) -> None:
        self.balance += event.amount
        self.deposits.append(event.amount)


def registry_v2() -> EventRegistry:
    registry = EventRegistry()
    registry.register(AccountOpened)
    registry.register(MoneyDeposited, version=2)
    registry.add_upcaster(
        "MoneyDeposited", 1, lambda payload: {**payload, "currency": "EUR"}
    )
    return registry


def repository(backend: Backend, **options: int) -> EventSourcedRepository[Account]:
    interval = options.get("snapshot_interval")
    return EventSourcedRepository(
        Account,
        backend.events,
        registry_v2(),
        snapshots=backend.snapshots if interval else None,
        snapshot_interval=interval,
    )


async def test_save_and_load(backend: Backend) -> None:
    accounts = repository(backend)
    with as_tenant("acme"):
        account = Account.open("acc-1", "ann")
        account.deposit(Decimal("10.25"))
        stored = await accounts.save(account)
        assert account.pending_events == ()
        loaded = await accounts.load("acc-1")
    assert [e.event_type for e in stored] == ["AccountOpened", "MoneyDeposited"]
    assert (loaded.owner, loaded.balance, loaded.version) == (
        "ann",
        Decimal("10.25"),
        2,
    )


async def test_missing_aggregates(backend: Backend) -> None:
    accounts = repository(backend)
    with as_tenant("acme"):
        assert await accounts.get("nope") is None
        with pytest.raises(AggregateNotFoundError):
            await accounts.load("nope")
        # no stored text holds a NUL character (PostgreSQL's refuses it): an id from a
        # request, a token or a message that holds one names no aggregate
        assert await accounts.get("a\x00b") is None
        assert await backend.events.stream_version("Account", "\x00") == 0


async def test_a_stale_copy_cannot_overwrite(backend: Backend) -> None:
    accounts = repository(backend)
    with as_tenant("acme"):
        await accounts.save(Account.open("acc-1", "ann"))
        first, second = await accounts.load("acc-1"), await accounts.load("acc-1")
        first.deposit(Decimal(1))
        second.deposit(Decimal(2))
        await accounts.save(first)
        with pytest.raises(
            ConcurrencyError, match="expected version 1, found version 2"
        ):
            await accounts.save(second)
        assert (await accounts.load("acc-1")).balance == Decimal(1)


async def test_snapshots_are_taken_every_interval_and_used_on_load(
    backend: Backend,
) -> None:
    accounts = repository(backend, snapshot_interval=10)
    with as_tenant("acme"):
        account = Account.open("acc-1", "ann")
        for _ in range(13):
            account.deposit(Decimal(1))
        await accounts.save(account)  # version 14: crosses 10
        for _ in range(11):
            account.deposit(Decimal(1))
        await accounts.save(account)  # version 25: crosses 20
        snapshot = await backend.snapshots.latest("Account", "acc-1")
        assert snapshot is not None
        assert snapshot.version == 25
        assert snapshot.state["balance"] == "24"
        account.deposit(Decimal(100))
        await accounts.save(account)  # version 26: no snapshot
        # Prove that loading starts from the latest snapshot: plant one at version 26
        # whose owner differs from what the events say, then add an event after it.
        state = {**account.snapshot_state(), "owner": "from-snapshot"}
        await backend.snapshots.save(Snapshot("Account", "acc-1", 26, state))
        account.deposit(Decimal(1))
        await accounts.save(account)
        loaded = await accounts.load("acc-1")
    assert (loaded.owner, loaded.balance, loaded.version) == (
        "from-snapshot",
        Decimal(125),
        27,
    )
    assert loaded.deposits[-2:] == [Decimal(100), Decimal(1)]
    assert len(loaded.deposits) == 26


async def test_snapshots_of_another_state_version_are_ignored(backend: Backend) -> None:
    accounts = repository(backend, snapshot_interval=2)
    with as_tenant("acme"):
        account = Account.open("acc-1", "ann")
        account.deposit(Decimal(5))
        await accounts.save(account)
        await backend.snapshots.save(
            Snapshot("Account", "acc-1", 3, {"owner": "stale shape"}, state_version=99)
        )
        loaded = await accounts.load("acc-1")
    assert (loaded.owner, loaded.balance) == ("ann", Decimal(5))


async def test_events_stored_as_v1_load_with_code_at_v2(backend: Backend) -> None:
    old_code = EventRegistry()
    old_code.register(AccountOpened)
    old_code.register(MoneyDepositedV1, name="MoneyDeposited", version=1)
    with as_tenant("acme"):
        await backend.events.append(
            "Account",
            "acc-1",
            [
                old_code.encode(AccountOpened("acc-1", "ann")),
                old_code.encode(MoneyDepositedV1("acc-1", Decimal("7.50"))),
            ],
            expected_version=0,
        )
        accounts = repository(backend)
        account = await accounts.load("acc-1")
        assert account.balance == Decimal("7.50")
        account.deposit(Decimal(1))
        await accounts.save(account)
        stored = await backend.events.read_stream("Account", "acc-1")
    assert [(e.event_type, e.schema_version) for e in stored] == [
        ("AccountOpened", 1),
        ("MoneyDeposited", 1),
        ("MoneyDeposited", 2),
    ]
    assert stored[1].payload == {"account_id": "acc-1", "amount": "7.50"}
    assert stored[2].payload == {
        "account_id": "acc-1",
        "amount": "1",
        "currency": "EUR",
    }
    if isinstance(backend.events, SqlEventStore):
        async with backend.events.database.transaction(tenant="acme") as connection:
            raw = (
                await connection.execute(
                    text(
                        "SELECT schema_version, payload FROM eaf_events WHERE stream_version = 2"
                    )
                )
            ).one()
        payload = (
            raw.payload if isinstance(raw.payload, dict) else json.loads(raw.payload)
        )
        assert (raw.schema_version, payload) == (
            1,
            {"account_id": "acc-1", "amount": "7.50"},
        )


async def test_aggregates_are_per_tenant(backend: Backend) -> None:
    accounts = repository(backend, snapshot_interval=1)
    with as_tenant("acme"):
        await accounts.save(Account.open("acc-1", "ann"))
    with as_tenant("globex"):
        assert await accounts.get("acc-1") is None
        assert await backend.snapshots.latest("Account", "acc-1") is None
        await accounts.save(Account.open("acc-1", "gus"))
    with as_tenant("acme"):
        assert (await accounts.load("acc-1")).owner == "ann"


def test_commands_check_invariants_before_recording() -> None:
    account = Account.open("acc-1", "ann")
    with pytest.raises(ValueError, match="positive"):
        account.deposit(Decimal(0))
    assert len(account.pending_events) == 1
