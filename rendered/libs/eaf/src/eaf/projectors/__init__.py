"""Projectors: read models kept up to date from events, with exactly-once effect.

A :class:`Projection` names a read-model table (every row carries ``tenant_id``, which
is part of its primary key) and a handler per event type: :func:`upsert`,
:func:`update`, :func:`delete`, or a custom coroutine that receives a
:class:`ReadModelWriter` (with ``.connection`` for SQL of its own) and the event.

A :class:`Projector` applies events in batches; each batch changes the read model and
the projection's checkpoint in one database transaction, so a crash anywhere replays
at most the batch that never committed. A failing handler's event is retried alone
with backoff, then dead-lettered (recorded with its reason and attempts) and skipped.

Two sources feed a projector:

* :class:`StoreFollower` reads the event store (``read_all`` from the checkpoint, in a
  platform context) and polls, or wakes up on :meth:`StoreFollower.notify`. Use it
  when the read model lives in the same service as the events: it is the simplest,
  strictly ordered by global position, can :meth:`~StoreFollower.rebuild` from 0, and
  with the read model in the event store's database it needs nothing else.
* :class:`JetStreamSource` consumes a durable NATS JetStream consumer through
  :mod:`eaf.messaging`. Use it for another service's events or when the read model
  lives in another database. Redeliveries are recognised by event id (remembered in the
  same transaction) and messages are acknowledged only after the commit. Order is the
  stream's, except that a redelivery after a crash can arrive after later messages;
  a rebuild needs the events still in the stream (replay from the store instead).

Reads go through :class:`ReadModel`, always for the current context's tenant: ``get``
by key, ``find`` by equal columns, and ``page`` with :class:`Condition` filters,
ordering and a window, giving a :class:`Page` of rows and the total (the rules every
store follows are in :mod:`eaf.projectors.paging`). An optional
:class:`ReadModelCache` serves ``get``; the projector invalidates it for the keys it
writes (in this process: give other processes no cache, or a small one).

A projection's :attr:`~Projection.fingerprint` hashes its table's columns and types,
its key, its event types and an optional ``version``. The store remembers it; when
:meth:`Projector.start` finds it changed (or, for a table made before fingerprints
were kept, finds other columns), the table is dropped and recreated and the
checkpoint, remembered ids and dead letters reset: the projector rebuilds from
position 0, and logs why. :func:`projection_status` and :func:`rebuild_projection`
(``eaf projections list|rebuild``) report on and reset the projections of a SQL
database; a :class:`StoreFollower` notices a reset made meanwhile and replays.

Stores: :class:`InMemoryProjectionStore` (tests) and :class:`SqlProjectionStore`
(SQLite or PostgreSQL). Their contract tests are in :mod:`eaf.projectors.testing`.
"""

from eaf.eventsourcing.errors import NotYetProjected
from eaf.projectors.cache import ReadModelCache
from eaf.projectors.follow import StoreFollower
from eaf.projectors.jetstream import JetStreamSource
from eaf.projectors.memory import InMemoryProjectionStore
from eaf.projectors.operations import (
    NotCaughtUp,
    ProjectionStatus,
    UnknownProjection,
    projection_status,
    rebuild_projection,
    wait_until_caught_up,
)
from eaf.projectors.paging import (
    Condition,
    Operator,
    OrderBy,
    Page,
    equal_to,
    in_range,
    order_by,
)
from eaf.projectors.ports import (
    Applied,
    DeadLetterRecord,
    Dedup,
    HandlerError,
    ProjectionStore,
    ReadModelWriter,
    Rewound,
)
from eaf.projectors.projection import Handler, Projection, delete, update, upsert
from eaf.projectors.projector import Projector, RetryPolicy
from eaf.projectors.query import ReadModel, RowQueries
from eaf.projectors.running import Projectors, projection_store
from eaf.projectors.schema import ProjectionSchema
from eaf.projectors.sql import SqlProjectionStore
from eaf.projectors.tables import key_value, read_model_table

__all__ = [
    "key_value",
    "Projectors",
    "projection_store",
    "Applied",
    "Condition",
    "DeadLetterRecord",
    "Dedup",
    "Handler",
    "HandlerError",
    "InMemoryProjectionStore",
    "JetStreamSource",
    "NotCaughtUp",
    "Operator",
    "OrderBy",
    "Page",
    "Projection",
    "ProjectionSchema",
    "ProjectionStatus",
    "ProjectionStore",
    "Projector",
    "NotYetProjected",
    "ReadModel",
    "ReadModelCache",
    "ReadModelWriter",
    "RowQueries",
    "RetryPolicy",
    "Rewound",
    "SqlProjectionStore",
    "StoreFollower",
    "UnknownProjection",
    "delete",
    "equal_to",
    "in_range",
    "order_by",
    "projection_status",
    "read_model_table",
    "rebuild_projection",
    "update",
    "upsert",
    "wait_until_caught_up",
]
