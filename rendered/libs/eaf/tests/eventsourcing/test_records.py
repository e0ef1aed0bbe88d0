"""New events get time-ordered (version 7) ids by default."""

from __future__ import annotations

import os
import pickle
import random
import time
import uuid

from eaf.eventsourcing import NewEvent
from eaf.eventsourcing.records import uuid7


def test_uuid7_is_an_rfc_9562_version_7_uuid_carrying_the_current_time() -> None:
    before = time.time_ns() // 1_000_000
    made = uuid7()
    after = time.time_ns() // 1_000_000
    assert made.version == 7
    assert made.variant == uuid.RFC_4122
    assert before <= made.int >> 80 <= after


def test_uuid7_ids_made_in_different_milliseconds_sort_in_time_order() -> None:
    earlier = uuid7()
    time.sleep(0.002)
    later = uuid7()
    assert earlier < later
    assert earlier.hex < later.hex  # as SQLite stores them: the index order too


def test_uuid7_ids_are_unique() -> None:
    ids = {uuid7() for _ in range(10_000)}
    assert len(ids) == 10_000


def test_uuid7_ids_are_plain_uuids() -> None:
    made = uuid7()
    assert uuid.UUID(str(made)) == made
    assert hash(uuid.UUID(made.hex)) == hash(made)
    assert pickle.loads(pickle.dumps(made)) == made


def test_uuid7_ids_ignore_the_application_seeding_random() -> None:
    random.seed(7)
    first = uuid7()
    random.seed(7)
    assert (uuid7().int & (1 << 74) - 1) != (first.int & (1 << 74) - 1)


def test_a_forked_child_makes_other_ids_than_its_parent() -> None:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        os.write(write, uuid7().bytes)
        os._exit(0)
    os.close(write)
    theirs = uuid.UUID(bytes=os.read(read, 16))
    os.close(read)
    os.waitpid(child, 0)
    mask = (1 << 62) - 1  # the low random bits
    assert theirs.int & mask != uuid7().int & mask


def test_a_new_event_gets_a_time_ordered_id_by_default() -> None:
    assert NewEvent("Opened", {}).event_id.version == 7
