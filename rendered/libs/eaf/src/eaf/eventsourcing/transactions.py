"""Units of work over the event store: a use case loads aggregates, runs their commands and
saves them; the transaction commits every change in one atomic multi-stream append, with
each stream at the version it was read. A conflict with a concurrent writer reruns the
use case from the start (so it sees the winner's changes and its guards decide again).
So does a refusal (any exception of the use case) when a stream it read has changed since:
reads of several streams are not one snapshot, so it may have decided on a mix of before
and after a concurrent commit.

In the same append it keeps unique fields unique per tenant (a reservation stream per
value, claimed with expected versions, so two concurrent creates cannot both win) and
records idempotency keys (a retried request returns the first request's result).

Bookkeeping streams and events start with ``$``; the outbox relay does not publish them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import uuid
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from enum import Enum
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from eaf.context import require_tenant, span
from eaf.eventsourcing.current import CurrentAggregates
from eaf.eventsourcing.errors import (
    ConcurrencyError,
    DuplicateKeyError,
    IdempotencyKeyReusedError,
    PreconditionFailedError,
)
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.records import NewEvent, StoredEvent, StreamAppend
from eaf.eventsourcing.registry import EventRegistry

__all__ = [
    "AggregateRepository",
    "Idempotency",
    "Sourced",
    "StoreTransactions",
    "Transaction",
    "Transactions",
    "change_one",
    "keyed_id",
    "make_one",
]

T = TypeVar("T")
A = TypeVar("A", bound="Sourced")

CLAIMED = "$KeyClaimed"
RELEASED = "$KeyReleased"
REQUEST = "$IdempotentRequest"
IDEMPOTENCY_STREAM = "$idempotency"
IDEMPOTENCY_TTL = timedelta(hours=24)


class Sourced(Protocol):
    """What the transactions need of an aggregate (every generated aggregate has it)."""

    UNIQUE: ClassVar[tuple[str, ...]]

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def archived(self) -> bool: ...

    @property
    def changes(self) -> tuple[Any, ...]: ...

    def committed(self) -> Self: ...

    @classmethod
    def from_history(cls, events: Sequence[Any]) -> Self: ...


@dataclass
class Idempotency:
    """An ``Idempotency-Key`` of a request; ``replayed`` tells, afterwards, whether the
    answer is the first request's (the key was seen before)."""

    key: str
    replayed: bool = False


class Transaction(Protocol):
    """The work of one use case, committed at once."""

    async def get(self, kind: type[A], id: str) -> A | None:
        """The aggregate of ``kind`` with ``id`` in the tenant (None if missing or deleted)."""
        ...

    async def get_by(self, kind: type[A], field: str, value: object) -> A | None:
        """The aggregate of ``kind`` whose unique ``field`` has ``value``."""
        ...

    async def exists(self, kind: type[Sourced], id: str) -> bool:
        """Whether the tenant has stored an aggregate of ``kind`` with ``id``, deleted or
        not (an id is never given twice)."""
        ...

    async def stored(self, kind: type[Sourced], id: str) -> int:
        """How many events the tenant has stored for the aggregate of ``kind`` with ``id``,
        deleted or not (0: none): the version a gone one is made anew after."""
        ...

    def save(self, aggregate: A) -> A:
        """Store the aggregate's pending events at commit; returns it as committed."""
        ...

    def keep(self, aggregate: Sourced) -> None:
        """Commit only if ``aggregate`` is still at the version read (a reference)."""
        ...

    def keep_absent(self, kind: type[Sourced], id: str) -> None:
        """Commit only if the tenant still has no aggregate of ``kind`` with ``id`` stored
        (a key another kind of aggregate shares: the value is taken once among them)."""
        ...

    def expect(self, aggregate: Sourced, version: int | None) -> None:
        """Refuse the work unless ``aggregate`` is at ``version`` (None: any)."""
        ...


class Transactions(Protocol):
    """Runs use cases in transactions of the event store."""

    async def run(
        self,
        work: Callable[[Transaction], Awaitable[T]],
        *,
        idempotency: Idempotency | None = None,
        request: object = None,
        kind: type[Sourced] | None = None,
    ) -> T:
        """``work`` in a transaction, rerun on a conflict with a concurrent writer; with
        ``idempotency``, a key seen before with the same ``request`` returns the
        ``kind`` aggregate that request made, as it made it."""
        ...

    async def load(self, kind: type[A], id: str) -> A | None:
        """The aggregate as stored now (None if missing or deleted)."""
        ...

    async def load_by(self, kind: type[A], field: str, value: object) -> A | None:
        """The aggregate whose unique ``field`` has ``value``."""
        ...


class Now(Protocol):
    """A clock (each service's ``Clock`` port)."""

    def now(self) -> datetime: ...


async def make_one(
    transactions: Transactions,
    kind: type[A],
    build: Callable[[datetime], A],
    *,
    clock: Now,
    idempotency: Idempotency | None = None,
    request: object = None,
    key: str | None = None,
) -> A:
    """The use case that creates one aggregate of ``kind`` and nothing else: ``build``
    given the clock's time, saved in one transaction (rerun on a conflict). With ``key``
    (the fields its id is derived from, ``venue_id+name`` for several: see
    :func:`keyed_id`), an id the tenant has stored already is refused with
    :class:`DuplicateKeyError` naming ``key``; two concurrent creates of one id conflict,
    and the rerun refuses the loser the same way."""

    async def work(tx: Transaction) -> A:
        made = build(clock.now())
        if key is not None and await tx.exists(kind, made.id):
            raise DuplicateKeyError(kind.__name__, key)
        return tx.save(made)

    return await transactions.run(
        work, idempotency=idempotency, request=request, kind=kind
    )


async def change_one(
    transactions: Transactions,
    kind: type[A],
    id: str,
    command: Callable[[A, datetime], A],
    *,
    clock: Now,
    missing: Callable[[], Exception],
    expected_version: int | None = None,
    idempotency: Idempotency | None = None,
    request: object = None,
) -> A:
    """The use case that changes one aggregate and nothing else: the aggregate of
    ``kind`` with ``id`` (``missing()`` is raised when there is none), refused unless at
    ``expected_version``, changed by ``command`` at the clock's time and saved in one
    transaction (rerun from the read on a conflict)."""

    async def work(tx: Transaction) -> A:
        now = clock.now()
        current = await tx.get(kind, id)
        if current is None:
            raise missing()
        tx.expect(current, expected_version)
        return tx.save(command(current, now))

    return await transactions.run(
        work, idempotency=idempotency, request=request, kind=kind
    )


def _command_name(request: object, kind: type[Sourced] | None) -> str:
    """The span name of a use case: ``command Order.place`` (the request's first item
    names the command), ``command`` when it says nothing."""
    name = "command"
    if kind is not None:
        name += f" {kind.__name__}"
    if isinstance(request, tuple) and request and isinstance(request[0], str):
        name += f".{request[0]}" if kind is not None else f" {request[0]}"
    return name


def key_text(value: object) -> str:
    """The canonical text of a unique value (``10.50`` and ``10.5`` are one decimal, so are
    ``0`` and ``-0``); a combination's is the JSON list of its values' texts."""
    if isinstance(value, tuple):
        return json.dumps([key_text(part) for part in value])
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, Decimal):
        return "0" if value.is_zero() else format(value.normalize(), "f")
    return str(value)


def keyed_id(
    namespace: str, label: str, values: Sequence[object], *, ignore_case: bool = False
) -> str:
    """The id an aggregate keyed by ``values`` (a natural key) has in the current tenant:
    a name-based UUID (RFC 9562 version 5) in ``namespace`` of
    ``<tenant>/<label>/<value>`` (``<tenant>/<value>`` without a label). The tenant, and
    each of several values (or the one value of a key without a label), is written with
    ``%`` and ``/`` percent-encoded (a single value after a label as it is: it is the rest
    of the name), so that no two keys share a name. ``ignore_case``: the values are
    case-folded first (``Alice`` and ``alice`` are one key). The same key in the same
    tenant always gives the same id; in another tenant, another one."""
    texts = [key_text(value) for value in values]
    if ignore_case:
        texts = [text.casefold() for text in texts]
    if len(texts) > 1 or not label:
        texts = [_escaped(text) for text in texts]
    name = "/".join([_escaped(require_tenant()), *([label] if label else []), *texts])
    return str(uuid.uuid5(uuid.UUID(namespace), name))


def _escaped(text: str) -> str:
    return text.replace("%", "%25").replace("/", "%2F")


def key_stream(kind: str, field: str) -> str:
    return f"$unique:{kind}.{field}"


def key_id(value: object) -> str:
    return hashlib.sha256(key_text(value).encode()).hexdigest()[:32]


def unique_value(aggregate: object, name: str) -> object:
    """The aggregate's value of a unique field, or of a combination of fields named
    ``venue_id+name`` (a tuple, None when a part is null: it then holds nothing, as in
    SQL)."""
    if "+" not in name:
        return getattr(aggregate, name)
    parts = tuple(getattr(aggregate, part) for part in name.split("+"))
    return None if any(part is None for part in parts) else parts


@dataclass
class _Reservation:
    owner: str | None
    version: int


class _Work:
    """One attempt of a use case (implements :class:`Transaction`)."""

    def __init__(self, store: EventStore, events: EventRegistry) -> None:
        self._store = store
        self._events = events
        self._loaded: dict[tuple[str, str], Sourced] = {}
        self._saved: dict[tuple[str, str], Sourced] = {}
        self._kept: dict[tuple[str, str], int] = {}
        self._read: dict[tuple[str, str], int] = {}

    def read(self, stream_type: str, stream_id: str, version: int) -> None:
        """Note that the work read the stream at ``version`` (see :meth:`stale`)."""
        self._read.setdefault((stream_type, stream_id), version)

    async def stale(self) -> bool:
        """Whether a stream the work read has changed since."""
        for (stream_type, stream_id), version in self._read.items():
            if await self._store.stream_version(stream_type, stream_id) != version:
                return True
        return False

    async def _stream(self, stream_type: str, stream_id: str) -> list[StoredEvent]:
        stored = await self._store.read_stream(stream_type, stream_id)
        self.read(stream_type, stream_id, stored[-1].stream_version if stored else 0)
        return stored

    async def _load(self, kind: type[A], id: str) -> A | None:
        stored = await self._stream(kind.__name__, id)
        if not stored:
            return None
        return kind.from_history([self._events.decode(event) for event in stored])

    async def _reservation(self, kind: str, field: str, value: object) -> _Reservation:
        return _reserved(await self._stream(key_stream(kind, field), key_id(value)))

    async def get(self, kind: type[A], id: str) -> A | None:
        found = await self._load(kind, id)
        if found is None or found.archived:
            return None
        self._loaded[(kind.__name__, id)] = found
        return found

    async def get_by(self, kind: type[A], field: str, value: object) -> A | None:
        owner = (await self._reservation(kind.__name__, field, value)).owner
        return None if owner is None else await self.get(kind, owner)

    async def exists(self, kind: type[Sourced], id: str) -> bool:
        return await self.stored(kind, id) > 0

    async def stored(self, kind: type[Sourced], id: str) -> int:
        version = await self._store.stream_version(kind.__name__, id)
        self.read(kind.__name__, id, version)
        return version

    def save(self, aggregate: A) -> A:
        key = (type(aggregate).__name__, aggregate.id)
        if key in self._saved:
            raise ValueError(f"{key[0]} {key[1]} is saved twice in one transaction")
        self._saved[key] = aggregate
        return aggregate.committed()

    def keep(self, aggregate: Sourced) -> None:
        self._kept[(type(aggregate).__name__, aggregate.id)] = aggregate.version

    def keep_absent(self, kind: type[Sourced], id: str) -> None:
        self._kept[(kind.__name__, id)] = 0

    def expect(self, aggregate: Sourced, version: int | None) -> None:
        if version is not None and aggregate.version != version:
            raise PreconditionFailedError(version, aggregate.version)

    async def appends(self) -> list[StreamAppend]:
        appends: list[StreamAppend] = []
        for (kind, id), aggregate in self._saved.items():
            events = [self._events.encode(event) for event in aggregate.changes]
            appends.append(StreamAppend(kind, id, events, aggregate.version))
            appends += await self._claims(kind, aggregate)
        for (kind, id), version in self._kept.items():
            if (kind, id) not in self._saved:
                appends.append(StreamAppend(kind, id, [], version))
        return appends

    async def _claims(self, kind: str, aggregate: Sourced) -> list[StreamAppend]:
        fields = type(aggregate).UNIQUE
        if not fields or not aggregate.changes:
            return []
        before = self._loaded.get((kind, aggregate.id))
        if before is None and aggregate.version > 0:
            before = await self._load(type(aggregate), aggregate.id)
        appends = []
        for name in fields:
            old = (
                None
                if before is None or before.archived
                else unique_value(before, name)
            )
            new = None if aggregate.archived else unique_value(aggregate, name)
            if old is not None and (new is None or key_text(old) != key_text(new)):
                appends += await self._reserve(kind, name, old, aggregate.id, RELEASED)
            if new is not None and (old is None or key_text(old) != key_text(new)):
                appends += await self._reserve(kind, name, new, aggregate.id, CLAIMED)
        return appends

    async def _reserve(
        self, kind: str, field: str, value: object, owner: str, event_type: str
    ) -> list[StreamAppend]:
        current = await self._reservation(kind, field, value)
        if event_type == CLAIMED and current.owner not in (None, owner):
            raise DuplicateKeyError(kind, field)
        if event_type == RELEASED and current.owner != owner:
            return []
        event = NewEvent(event_type, {"owner": owner})
        return [
            StreamAppend(
                key_stream(kind, field), key_id(value), [event], current.version
            )
        ]


#: How many times a use case runs when concurrent writers keep getting there first.
ATTEMPTS = 25
#: The longest pause between two of its attempts, in seconds.
MAX_PAUSE = 0.25


class StoreTransactions:
    """Transactions of an event store (implements :class:`Transactions`); ``events``
    encodes and decodes the domain events; a conflicting attempt is retried up to
    ``attempts`` times, after a random pause that grows with each attempt (exponential
    backoff with full jitter, up to a quarter second: many writers of one aggregate, a
    sale's last seats, each get through rather than giving up after a few tries)."""

    def __init__(
        self, store: EventStore, events: EventRegistry, *, attempts: int = ATTEMPTS
    ) -> None:
        self._store = store
        self._events = events
        self._attempts = attempts

    async def run(
        self,
        work: Callable[[Transaction], Awaitable[T]],
        *,
        idempotency: Idempotency | None = None,
        request: object = None,
        kind: type[Sourced] | None = None,
    ) -> T:
        with span(_command_name(request, kind)):
            return await self._run(work, idempotency, request, kind)

    async def _run(
        self,
        work: Callable[[Transaction], Awaitable[T]],
        idempotency: Idempotency | None,
        request: object,
        kind: type[Sourced] | None,
    ) -> T:
        fingerprint = hashlib.sha256(repr(request).encode()).hexdigest()
        for attempt in range(self._attempts):
            last = attempt + 1 == self._attempts
            seen = 0
            unit = _Work(self._store, self._events)
            if idempotency is not None:
                record, seen = await self._recorded(idempotency.key)
                if record is not None and record.payload["fingerprint"] != fingerprint:
                    raise IdempotencyKeyReusedError()
                if record is not None:
                    idempotency.replayed = True
                    return cast(T, await self._replay(record, kind))
                # A request with the same key committing meanwhile is a change the
                # work must notice (its answer is then that request's).
                unit.read(IDEMPOTENCY_STREAM, key_id(idempotency.key), seen)
            try:
                result = await work(unit)
                appends = await unit.appends()
            except Exception:
                if last or not await unit.stale():
                    raise
                await _pause(attempt)
                continue
            if idempotency is not None:
                appends.append(_remember(idempotency.key, fingerprint, result, seen))
            try:
                await self._store.append_streams(appends)
            except ConcurrencyError:
                if last:
                    raise
                await _pause(attempt)
                continue
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    async def load(self, kind: type[A], id: str) -> A | None:
        found = await _load(self._store, self._events, kind, id)
        return None if found is None or found.archived else found

    async def load_by(self, kind: type[A], field: str, value: object) -> A | None:
        owner = (await _reservation(self._store, kind.__name__, field, value)).owner
        return None if owner is None else await self.load(kind, owner)

    async def _recorded(self, key: str) -> tuple[StoredEvent | None, int]:
        """The live record of ``key`` (None when there is none or it expired), and the
        version of its stream."""
        stream = await self._store.read_stream(IDEMPOTENCY_STREAM, key_id(key))
        if not stream:
            return None, 0
        last = stream[-1]
        if datetime.now(UTC) - last.recorded_at > IDEMPOTENCY_TTL:
            return None, len(stream)
        return last, len(stream)

    async def _replay(self, record: StoredEvent, kind: type[Sourced] | None) -> Sourced:
        if kind is None or kind.__name__ != record.payload["kind"]:
            raise TypeError(
                "an idempotent use case names the aggregate kind it returns"
            )
        stream = await self._store.read_stream(
            record.payload["kind"], record.payload["id"]
        )
        events = [self._events.decode(e) for e in stream[: record.payload["version"]]]
        return kind.from_history(events)


async def _pause(attempt: int) -> None:
    """A random pause before another attempt, so that rivals spread out: up to 2 ms after
    the first, doubling with each attempt up to :data:`MAX_PAUSE` (full jitter)."""
    await asyncio.sleep(random.uniform(0, min(MAX_PAUSE, 0.002 * 2**attempt)))


def _remember(key: str, fingerprint: str, result: object, version: int) -> StreamAppend:
    """The record of an idempotency key, appended with the work's own changes."""
    if not isinstance(getattr(result, "id", None), str):
        raise TypeError("an idempotent use case returns the aggregate it made")
    payload = {
        "fingerprint": fingerprint,
        "kind": type(result).__name__,
        "id": getattr(result, "id"),  # noqa: B009
        "version": getattr(result, "version"),  # noqa: B009
    }
    return StreamAppend(
        IDEMPOTENCY_STREAM, key_id(key), [NewEvent(REQUEST, payload)], version
    )


async def _load(
    store: EventStore, events: EventRegistry, kind: type[A], id: str
) -> A | None:
    stored = await store.read_stream(kind.__name__, id)
    if not stored:
        return None
    return kind.from_history([events.decode(event) for event in stored])


async def _reservation(
    store: EventStore, kind: str, field: str, value: object
) -> _Reservation:
    return _reserved(await store.read_stream(key_stream(kind, field), key_id(value)))


def _reserved(stream: Sequence[StoredEvent]) -> _Reservation:
    """The reservation a unique value's stream records."""
    if not stream:
        return _Reservation(None, 0)
    last = stream[-1]
    owner = last.payload["owner"] if last.event_type == CLAIMED else None
    return _Reservation(owner, len(stream))


class AggregateRepository(Generic[A]):
    """Aggregates of one kind, one stream each, loaded and saved one at a time (a use case
    that changes several at once runs in a :class:`Transaction`). ``conflict`` makes the
    error a stale save raises (the domain's own, usually)."""

    def __init__(
        self,
        store: EventStore,
        events: EventRegistry,
        kind: type[A],
        *,
        conflict: Callable[[str], Exception] = RuntimeError,
        event_types: Collection[str] = (),
    ) -> None:
        self._transactions = StoreTransactions(store, events, attempts=1)
        self._store = store
        self._events = events
        self._kind = kind
        self._conflict = conflict
        self._current = CurrentAggregates(
            store, events, kind.__name__, kind.from_history, event_types
        )

    async def get(self, id: str) -> A | None:
        """The aggregate with ``id`` in the tenant (None if missing or deleted)."""
        return await self._transactions.load(self._kind, id)

    async def all(self) -> list[A]:
        """Every aggregate of the kind in the tenant as of the last stored event, but the
        deleted ones (as :meth:`get`): kept in memory, brought up to date by each call."""
        return [a for a in await self._current.of_tenant() if not a.archived]

    async def all_tenants(self) -> list[A]:
        """Every aggregate of the kind in every tenant, as :meth:`all` (a platform read:
        for the platform's own code, never for a tenant's request)."""
        return [a for a in await self._current.of_every_tenant() if not a.archived]

    async def history(self, id: str) -> list[Any]:
        """The events of the aggregate with ``id`` in the tenant, oldest first, each at its
        current schema version (none for an unknown id)."""
        stored = await self._store.read_stream(self._kind.__name__, id)
        return [self._events.decode(event) for event in stored]

    async def save(self, aggregate: A) -> A:
        """Append its pending events after the version it was loaded at; returns it as
        committed. A concurrent writer's change makes ``conflict``."""

        async def work(tx: Transaction) -> A:
            return tx.save(aggregate)

        try:
            return await self._transactions.run(work)
        except ConcurrencyError as error:
            raise self._conflict(
                f"this {self._kind.__name__} was changed by another request; reload it"
            ) from error
