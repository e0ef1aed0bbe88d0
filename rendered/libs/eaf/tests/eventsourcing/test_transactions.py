"""Use cases in store transactions racing each other, interleaved on purpose: a refusal
decided on streams that changed meanwhile is decided again on what is stored now."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, ClassVar, Self

import pytest

from eaf.context import MissingTenantError
from eaf.eventsourcing import (
    AggregateRepository,
    DuplicateKeyError,
    EventRegistry,
    EventStore,
    Idempotency,
    InMemoryEventStore,
    PreconditionFailedError,
    StoreTransactions,
    Transaction,
    change_one,
    keyed_id,
    make_one,
)
from eaf.eventsourcing.testing import as_tenant


@dataclass(frozen=True)
class ShelfStocked:
    shelf_id: str
    code: str
    copies: int


@dataclass(frozen=True)
class CopyTaken:
    shelf_id: str


@dataclass(frozen=True)
class CopyReturned:
    shelf_id: str


@dataclass(frozen=True)
class ShelfRemoved:
    shelf_id: str


@dataclass(frozen=True)
class LoanOpened:
    loan_id: str
    shelf_id: str


@dataclass(frozen=True)
class LoanClosed:
    loan_id: str


EVENTS = EventRegistry()
for event_class in (
    ShelfStocked,
    CopyTaken,
    CopyReturned,
    ShelfRemoved,
    LoanOpened,
    LoanClosed,
):
    EVENTS.register(event_class)


class NotActiveError(Exception):
    """The loan was closed already."""


class TooManyCopiesError(Exception):
    """More copies available than owned: only a mix of two states shows this."""


@dataclass(frozen=True)
class Shelf:
    UNIQUE: ClassVar[tuple[str, ...]] = ("code",)

    id: str
    code: str = ""
    copies: int = 0
    available: int = 0
    version: int = 0
    archived: bool = False
    changes: tuple[Any, ...] = ()

    @classmethod
    def stock(cls, id: str, code: str, copies: int) -> Self:
        return cls(id).record(ShelfStocked(id, code, copies))

    def take(self) -> Self:
        return self.record(CopyTaken(self.id))

    def give_back(self) -> Self:
        if self.available >= self.copies:
            raise TooManyCopiesError(self.id)
        return self.record(CopyReturned(self.id))

    def apply(self, event: Any) -> Self:
        match event:
            case ShelfStocked(code=code, copies=copies):
                return replace(self, code=code, copies=copies, available=copies)
            case CopyTaken():
                return replace(self, available=self.available - 1)
            case CopyReturned():
                return replace(self, available=self.available + 1)
            case ShelfRemoved():
                return replace(self, archived=True)
        raise ValueError(event)

    def record(self, event: Any) -> Self:
        return replace(self.apply(event), changes=(*self.changes, event))

    def committed(self) -> Self:
        return replace(self, version=self.version + len(self.changes), changes=())

    @classmethod
    def from_history(cls, events: Sequence[Any]) -> Self:
        shelf = cls(events[0].shelf_id)
        for event in events:
            shelf = shelf.apply(event)
        return replace(shelf, version=len(events))


@dataclass(frozen=True)
class Loan:
    UNIQUE: ClassVar[tuple[str, ...]] = ()

    id: str
    shelf_id: str = ""
    active: bool = True
    version: int = 0
    archived: bool = False
    changes: tuple[Any, ...] = ()

    def close(self) -> Self:
        if not self.active:
            raise NotActiveError(self.id)
        event = LoanClosed(self.id)
        return replace(self, active=False, changes=(*self.changes, event))

    def committed(self) -> Self:
        return replace(self, version=self.version + len(self.changes), changes=())

    @classmethod
    def from_history(cls, events: Sequence[Any]) -> Self:
        loan = cls(events[0].loan_id, shelf_id=events[0].shelf_id)
        return replace(loan, active=len(events) == 1, version=len(events))


Hook = Callable[[], Awaitable[None]]


async def nothing() -> None:
    return None


def once(hook: Hook) -> Hook:
    """``hook`` on the first call only (the rerun of a use case goes straight through)."""
    calls: list[None] = []

    async def run() -> None:
        if not calls:
            calls.append(None)
            await hook()

    return run


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> EventStore:
    if request.param == "memory":
        return InMemoryEventStore()
    sql: EventStore = request.getfixturevalue(f"{request.param}_store")
    return sql


async def lent_out(transactions: StoreTransactions) -> tuple[str, str]:
    """A shelf with its one copy on loan: the shelf's and the loan's ids."""

    async def work(tx: Transaction) -> Loan:
        tx.save(Shelf.stock("s1", "A-1", 1).take())
        loan = Loan("l1", shelf_id="s1", changes=(LoanOpened("l1", "s1"),))
        return tx.save(loan)

    await transactions.run(work)
    return "s1", "l1"


def returning(
    transactions: StoreTransactions, loan_id: str, between: Hook
) -> Awaitable[Loan]:
    """Give the loan back: read the loan, then (after ``between``) its shelf."""

    async def work(tx: Transaction) -> Loan:
        loan = await tx.get(Loan, loan_id)
        assert loan is not None
        await between()
        shelf = await tx.get(Shelf, loan.shelf_id)
        assert shelf is not None
        closed = loan.close()
        tx.save(shelf.give_back())
        return tx.save(closed)

    return transactions.run(work)


async def test_a_refusal_on_reads_from_before_and_after_a_commit_is_decided_again(
    store: EventStore,
) -> None:
    transactions = StoreTransactions(store, EVENTS)
    with as_tenant("acme"):
        shelf_id, loan_id = await lent_out(transactions)

        async def rival() -> None:
            await returning(transactions, loan_id, nothing)

        # The loan is read before the rival's return, the shelf after it: alone, that
        # mix breaks the shelf's rule; decided again, the loan is closed already.
        with pytest.raises(NotActiveError):
            await returning(transactions, loan_id, once(rival))
        shelf = await transactions.load(Shelf, shelf_id)
        assert shelf is not None and shelf.available == 1


async def test_a_refusal_on_unchanged_streams_stands_at_once(store: EventStore) -> None:
    transactions = StoreTransactions(store, EVENTS)
    attempts: list[None] = []
    with as_tenant("acme"):
        _, loan_id = await lent_out(transactions)
        await returning(transactions, loan_id, nothing)

        async def count() -> None:
            attempts.append(None)

        with pytest.raises(NotActiveError):
            await returning(transactions, loan_id, count)
    assert len(attempts) == 1


async def test_a_same_key_request_committing_meanwhile_answers_a_retry(
    store: EventStore,
) -> None:
    transactions = StoreTransactions(store, EVENTS)
    request = ("stock", "B-7", 2)

    def stocking(shelf_id: str, key: Idempotency, between: Hook) -> Awaitable[Shelf]:
        async def work(tx: Transaction) -> Shelf:
            await between()
            return tx.save(Shelf.stock(shelf_id, "B-7", 2))

        return transactions.run(work, idempotency=key, request=request, kind=Shelf)

    with as_tenant("acme"):
        first = Idempotency("key-1")
        made: list[Shelf] = []

        async def rival() -> None:
            made.append(await stocking("s-rival", first, nothing))

        # The rival, same key, commits after this request found no record of the key
        # and before it claims the code: the answer is the rival's shelf, not a
        # duplicate code.
        retry = Idempotency("key-1")
        shelf = await stocking("s-retry", retry, once(rival))
        assert (shelf.id, shelf.version, retry.replayed) == ("s-rival", 1, True)
        assert made[0].id == "s-rival" and not first.replayed
        assert await transactions.load(Shelf, "s-retry") is None

        # Another key still finds the code taken.
        with pytest.raises(DuplicateKeyError):
            await stocking("s-other", Idempotency("key-2"), nothing)


def test_a_unique_combination_is_a_tuple_of_its_values_and_none_with_a_null_part() -> (
    None
):
    from decimal import Decimal

    from eaf.eventsourcing.transactions import key_text, unique_value

    @dataclass(frozen=True)
    class Room:
        venue_id: str | None
        name: str
        price: Decimal

    room = Room("v-1", "Blue", Decimal("10.50"))
    assert unique_value(room, "name") == "Blue"
    assert unique_value(room, "venue_id+name") == ("v-1", "Blue")
    assert unique_value(Room(None, "Blue", Decimal(1)), "venue_id+name") is None
    # one canonical text per combination: 10.5 and 10.50 are one price, and no two
    # combinations' texts meet ("a+b", "c" against "a", "b+c")
    assert key_text(("Blue", Decimal("10.50"))) == key_text(("Blue", Decimal("10.5")))
    assert key_text(("a+b", "c")) != key_text(("a", "b+c"))


class FixedClock:
    def __init__(self) -> None:
        self.calls = 0

    def now(self) -> datetime:
        self.calls += 1
        return datetime(2026, 1, 1, tzinfo=UTC)


class MissingShelfError(Exception):
    """No shelf has the id."""


async def test_make_one_and_change_one_run_a_use_case_on_one_aggregate(
    store: EventStore,
) -> None:
    """The runtime's use case of one aggregate: created, or read, checked against the
    version the caller saw, changed and saved; a missing one is the caller's error; an
    idempotency key answers a replay with the first result."""
    transactions = StoreTransactions(store, EVENTS)
    clock = FixedClock()

    def take(shelf_id: str = "s1", **options: Any) -> Awaitable[Shelf]:
        return change_one(
            transactions,
            Shelf,
            shelf_id,
            lambda shelf, now: shelf.take(),
            clock=clock,
            missing=lambda: MissingShelfError(shelf_id),
            request=("take", shelf_id),
            **options,
        )

    with as_tenant("acme"):
        made = await make_one(
            transactions,
            Shelf,
            lambda now: Shelf.stock("s1", "A-1", 2),
            clock=clock,
            request=("stock", "s1"),
        )
        assert (made.version, made.available) == (1, 2)
        taken = await take(expected_version=1, idempotency=Idempotency("k-1"))
        assert (taken.version, taken.available) == (2, 1)
        again = await take(idempotency=Idempotency("k-1"))
        assert (again.version, again.available) == (2, 1)  # the first answer
        with pytest.raises(PreconditionFailedError):
            await take(expected_version=1)  # a version the shelf has left
        with pytest.raises(MissingShelfError):
            await take("nope")
        stored = await transactions.load(Shelf, "s1")
    assert stored is not None and stored.available == 1
    assert clock.calls >= 3


SHELVES = "6f1d0c52-6a5e-4f0b-9a7e-0f3c2b1d4e5a"


@dataclass(frozen=True)
class Bin(Shelf):
    """A shelf identified by its code (no unique-value reservation)."""

    UNIQUE: ClassVar[tuple[str, ...]] = ()


def keyed_stock(transactions: StoreTransactions, code: str) -> Awaitable[Bin]:
    """Stock a bin whose id is derived from its code (a natural key)."""
    return make_one(
        transactions,
        Bin,
        lambda now: Bin.stock(keyed_id(SHELVES, "shelf", [code]), code, 1),
        clock=FixedClock(),
        request=("stock", code),
        key="code",
    )


async def test_a_keyed_create_derives_its_id_in_the_tenant_and_never_gives_it_twice(
    store: EventStore,
) -> None:
    transactions = StoreTransactions(store, EVENTS)
    with as_tenant("acme"):
        made = await keyed_stock(transactions, "A-1")
        with pytest.raises(DuplicateKeyError) as error:
            await keyed_stock(transactions, "A-1")
    with as_tenant("globex"):
        elsewhere = await keyed_stock(transactions, "A-1")

    assert made.id == str(uuid.uuid5(uuid.UUID(SHELVES), "acme/shelf/A-1"))
    assert elsewhere.id == str(uuid.uuid5(uuid.UUID(SHELVES), "globex/shelf/A-1"))
    assert (error.value.kind, error.value.field) == ("Bin", "code")


async def test_concurrent_keyed_creates_make_one_aggregate(store: EventStore) -> None:
    transactions = StoreTransactions(store, EVENTS)
    with as_tenant("acme"):
        results = await asyncio.gather(
            *(keyed_stock(transactions, "B-2") for _ in range(6)),
            return_exceptions=True,
        )
        stored = await store.read_stream("Bin", keyed_id(SHELVES, "shelf", ["B-2"]))

    made = [r for r in results if isinstance(r, Bin)]
    refused = [r for r in results if isinstance(r, DuplicateKeyError)]
    assert (len(made), len(refused), len(stored)) == (1, 5, 1)


@dataclass(frozen=True)
class Crate(Bin):
    """Another kind whose key shares the bins' codes: a code is taken once among them."""


def shared_stock(
    transactions: StoreTransactions,
    kinds: tuple[type[Bin], type[Bin]],
    code: str,
    between: Hook = nothing,
) -> Awaitable[Bin]:
    """Stock a ``kinds[0]`` coded ``code`` unless a ``kinds[1]`` has the code."""
    kind, other = kinds
    labels = {Bin: "shelf", Crate: "crate"}

    async def work(tx: Transaction) -> Bin:
        taken = keyed_id(SHELVES, labels[other], [code])
        if await tx.exists(other, taken):
            raise DuplicateKeyError(kind.__name__, "code", holder=other.__name__)
        tx.keep_absent(other, taken)
        await between()
        return tx.save(kind.stock(keyed_id(SHELVES, labels[kind], [code]), code, 1))

    return transactions.run(work)


async def test_a_key_shared_with_another_kind_is_taken_once_among_them_in_a_race(
    store: EventStore,
) -> None:
    transactions = StoreTransactions(store, EVENTS)

    async def crate_meanwhile() -> None:
        await shared_stock(transactions, (Crate, Bin), "C-3")

    with as_tenant("acme"):
        with pytest.raises(DuplicateKeyError) as error:
            await shared_stock(transactions, (Bin, Crate), "C-3", once(crate_meanwhile))
        crate = await transactions.load(Crate, keyed_id(SHELVES, "crate", ["C-3"]))
        bin_ = await transactions.load(Bin, keyed_id(SHELVES, "shelf", ["C-3"]))
        other = await shared_stock(transactions, (Bin, Crate), "C-4")
    with as_tenant("globex"):
        elsewhere = await shared_stock(transactions, (Bin, Crate), "C-3")

    assert (str(error.value), crate is not None, bin_) == (
        "a Crate has this code",
        True,
        None,
    )
    assert (other.code, elsewhere.code) == ("C-4", "C-3")


def test_a_key_of_several_values_never_shares_a_name_with_another() -> None:
    with as_tenant("acme"):
        one = keyed_id(SHELVES, "slot", ["a/b", "c"])
        other = keyed_id(SHELVES, "slot", ["a", "b/c"])
        escaped = keyed_id(SHELVES, "slot", ["a%2Fb", "c"])
        single = keyed_id(SHELVES, "slot", ["a/b"])

    assert len({one, other, escaped}) == 3
    assert single == str(uuid.uuid5(uuid.UUID(SHELVES), "acme/slot/a/b"))


def test_a_key_without_a_label_is_the_tenant_and_its_escaped_value() -> None:
    with as_tenant("acme"):
        plain = keyed_id(SHELVES, "", ["alice"])
        slashed = keyed_id(SHELVES, "", ["slot/a"])
        labelled = keyed_id(SHELVES, "slot", ["a"])

    assert plain == str(uuid.uuid5(uuid.UUID(SHELVES), "acme/alice"))
    assert slashed != labelled  # "acme/slot%2Fa", never "acme/slot/a"


def test_a_key_ignoring_case_is_one_key_for_every_casing() -> None:
    with as_tenant("acme"):
        folded = {
            keyed_id(SHELVES, "", [name], ignore_case=True)
            for name in ("Alice", "ALICE", "alice")
        }
        kept = keyed_id(SHELVES, "", ["Alice"])
        german = keyed_id(SHELVES, "user", ["STRASSE"], ignore_case=True)
        sharp = keyed_id(SHELVES, "user", ["straße"], ignore_case=True)

    assert folded == {str(uuid.uuid5(uuid.UUID(SHELVES), "acme/alice"))}
    assert kept != folded.pop()
    assert german == sharp  # casefold, not lower: ß folds to ss


def test_a_tenant_never_shares_a_keyed_id_with_another() -> None:
    with as_tenant("x"):
        inner = keyed_id(SHELVES, "course", ["y/course/z"])
    with as_tenant("x/course/y"):
        outer = keyed_id(SHELVES, "course", ["z"])

    assert inner != outer


def test_zero_and_minus_zero_are_one_decimal_key() -> None:
    with as_tenant("acme"):
        assert keyed_id(SHELVES, "price", [Decimal("-0")]) == keyed_id(
            SHELVES, "price", [Decimal("0.00")]
        )


def test_a_keyed_id_needs_a_tenant() -> None:
    with pytest.raises(MissingTenantError):
        keyed_id(SHELVES, "shelf", ["A-1"])


async def test_concurrent_creates_or_changes_of_one_key_make_it_once(
    store: EventStore,
) -> None:
    """The work of a create-or-replace PUT: the one that finds no bin stocks it, the others,
    rerun on the conflict, find it and change it; ``stored`` counts what the stream holds."""
    transactions = StoreTransactions(store, EVENTS)
    with as_tenant("acme"):
        bin_id = keyed_id(SHELVES, "shelf", ["C-3"])

    async def stock_or_take(tx: Transaction) -> Bin:
        current = await tx.get(Bin, bin_id)
        if current is None:
            assert await tx.stored(Bin, bin_id) == 0
            return tx.save(Bin.stock(bin_id, "C-3", 9))
        assert await tx.stored(Bin, bin_id) == current.version
        return tx.save(current.take())

    with as_tenant("acme"):
        results = await asyncio.gather(
            *(transactions.run(stock_or_take) for _ in range(6))
        )
        stored = await store.read_stream("Bin", bin_id)

    assert sorted(r.version for r in results) == [1, 2, 3, 4, 5, 6]
    assert [e.event_type for e in stored] == ["ShelfStocked"] + ["CopyTaken"] * 5


async def test_a_repository_gives_an_aggregates_events_in_its_tenant_only(
    store: EventStore,
) -> None:
    """The history of one aggregate: its decoded events, oldest first; another tenant's
    aggregate of the same id has none of them."""
    shelves = AggregateRepository(store, EVENTS, Shelf)
    with as_tenant("acme"):
        await shelves.save(Shelf.stock("s1", "A-1", 2).take())
        stocked = await shelves.get("s1")
        assert stocked is not None
        await shelves.save(stocked.give_back())
        history = await shelves.history("s1")
        unknown = await shelves.history("s2")
    with as_tenant("globex"):
        elsewhere = await shelves.history("s1")

    assert history == [
        ShelfStocked("s1", "A-1", 2),
        CopyTaken("s1"),
        CopyReturned("s1"),
    ]
    assert unknown == []
    assert elsewhere == []


async def test_a_repository_lists_the_current_aggregates_of_its_tenant_or_of_all(
    store: EventStore,
) -> None:
    """Every aggregate of the kind as of the last stored event: a write is seen by the
    next read of the same repository, a deleted one is not listed, other kinds' streams
    are not folded, and only a platform read sees every tenant's."""
    shelf_events = ("ShelfStocked", "CopyTaken", "CopyReturned", "ShelfRemoved")
    shelves = AggregateRepository(store, EVENTS, Shelf, event_types=shelf_events)
    every_event = AggregateRepository(store, EVENTS, Shelf)
    writer = AggregateRepository(store, EVENTS, Shelf)
    loans = AggregateRepository(store, EVENTS, Loan)
    with as_tenant("acme"):
        await writer.save(Shelf.stock("s1", "A-1", 2))
        await loans.save(Loan("l1", shelf_id="s1", changes=(LoanOpened("l1", "s1"),)))
        first = [(s.id, s.available, s.version) for s in await shelves.all()]
        stocked = await writer.get("s1")
        assert stocked is not None
        await writer.save(stocked.take())
        await writer.save(Shelf.stock("s2", "A-2", 1))
        await writer.save(Shelf.stock("s3", "A-3", 1).record(ShelfRemoved("s3")))
        after = sorted((s.id, s.available, s.version) for s in await shelves.all())
        unfiltered = sorted(s.id for s in await every_event.all())
    with as_tenant("globex"):
        await writer.save(Shelf.stock("s1", "G-1", 5))
        theirs = [(s.id, s.code) for s in await shelves.all()]
        every = sorted((s.id, s.code) for s in await shelves.all_tenants())

    assert first == [("s1", 2, 1)]
    assert after == [("s1", 1, 2), ("s2", 1, 1)]
    assert unfiltered == ["s1", "s2"]  # the loan's stream is not a shelf
    assert theirs == [("s1", "G-1")]
    assert every == [("s1", "A-1"), ("s1", "G-1"), ("s2", "A-2")]
