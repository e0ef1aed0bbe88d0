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

Reads go through :class:`ReadModel`, always for the current context's tenant, with an
optional :class:`ReadModelCache` that the projector invalidates for the keys it
writes (in this process: give other processes no cache, or a small one).

Stores: :class:`InMemoryProjectionStore` (tests) and :class:`SqlProjectionStore`
(SQLite or PostgreSQL). Their contract tests are in :mod:`eaf.projectors.testing`.
"""

from eaf.projectors.cache import ReadModelCache
from eaf.projectors.follow import StoreFollower
from eaf.projectors.jetstream import JetStreamSource
from eaf.projectors.memory import InMemoryProjectionStore
from eaf.projectors.ports import (
    Applied,
    DeadLetterRecord,
    Dedup,
    HandlerError,
    ProjectionStore,
    ReadModelWriter,
)
from eaf.projectors.projection import Handler, Projection, delete, update, upsert
from eaf.projectors.projector import Projector, RetryPolicy
from eaf.projectors.query import ReadModel
from eaf.projectors.sql import SqlProjectionStore
from eaf.projectors.tables import read_model_table

__all__ = [
    "Applied",
    "DeadLetterRecord",
    "Dedup",
    "Handler",
    "HandlerError",
    "InMemoryProjectionStore",
    "JetStreamSource",
    "ProjectionStore",
    "Projection",
    "Projector",
    "ReadModel",
    "ReadModelCache",
    "ReadModelWriter",
    "RetryPolicy",
    "SqlProjectionStore",
    "read_model_table",
    "StoreFollower",
    "delete",
    "update",
    "upsert",
]
