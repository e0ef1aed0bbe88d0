# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Use cases on the in-memory and SQLite event stores: transactions, references, unique
values, idempotency keys, guards and tenant isolation."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from eaf.context import SecurityContext, use
from eaf.eventsourcing import (
    DuplicateKeyError,
    EventStore,
    Idempotency,
    PreconditionFailedError,
    close_event_store,
    open_event_store,
)
from eaf.projectors import projection_store

from configuration.application.services import ConfigSchemaService, PropertySetService
from configuration.domain.errors import (
    ConcurrencyError,
    NotFoundError,
)
from configuration.domain.model import ConfigSchema, PropertySet
from configuration.infrastructure.persistence import (
    EventSourcedConfigSchemaRepository,
    EventSourcedPropertySetRepository,
    transactions,
)
from configuration.infrastructure.projections import (
    ReadModelConfigSchemaListing,
    ReadModelPropertySetListing,
)

T = TypeVar("T")
TENANT_A = SecurityContext(tenant_id="tenant-a")
TENANT_B = SecurityContext(tenant_id="tenant-b")


class TickingClock:
    """A clock that moves on by a millisecond each time it is read: every command of a
    test happens after the one before it, as on a real clock."""

    def __init__(self) -> None:
        self.start = datetime.now(UTC).replace(microsecond=0)
        self.ticks = 0

    def now(self) -> datetime:
        self.ticks += 1
        return self.start + timedelta(milliseconds=self.ticks)


@pytest.fixture(params=["memory", "sqlite"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[EventStore]:
    url = (
        None
        if request.param == "memory"
        else f"sqlite+aiosqlite:///{tmp_path / 'events.db'}"
    )
    opened = await open_event_store(url)
    yield opened
    await close_event_store(opened)


@dataclass
class Cases:
    """The use cases of one store, and the examples of unique fields used so far."""

    config_schema: ConfigSchemaService
    property_set: PropertySetService
    used: dict[str, int] = field(default_factory=dict)

    def next_of(self, key: str, values: list[T]) -> T:
        """The next of ``values`` not used yet for ``key`` (unique values stay unique)."""
        index = self.used.get(key, 0)
        self.used[key] = index + 1
        return values[index % len(values)]


def use_cases(store: EventStore) -> Cases:
    wired = transactions(store)
    clock = TickingClock()
    return Cases(
        config_schema=ConfigSchemaService(
            wired,
            clock,
            ReadModelConfigSchemaListing(projection_store(store)),
        ),
        property_set=PropertySetService(
            wired,
            clock,
            ReadModelPropertySetListing(projection_store(store)),
        ),
    )


async def config_schema_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of ConfigSchema.define (the aggregates they reference made)."""
    return dict(
        application=cases.next_of(
            "ConfigSchema.application",
            [
                "billing",
                "billin0",
                "billin1",
                "billin2",
                "billin3",
                "billin4",
                "billin5",
                "billin6",
                "billin7",
                "billin8",
                "billin9",
                "billina",
            ],
        ),
        document='{"type": "object"}',
    )


async def new_config_schema(cases: Cases, **overrides: Any) -> ConfigSchema:
    """A new config schema from the examples."""
    arguments = {**await config_schema_arguments(cases), **overrides}
    return await cases.config_schema.define(**arguments)


async def test_config_schema_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_config_schema(cases)
        assert await cases.config_schema.get(created.id) == created
        assert await cases.config_schema.get("no-such-id") is None


async def test_config_schema_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_config_schema(cases)
    with use(TENANT_B):
        assert await cases.config_schema.get(created.id) is None


async def test_application_of_a_config_schema_is_unique_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_config_schema(cases)
        with pytest.raises(DuplicateKeyError):
            await new_config_schema(cases, application=first.application)
        assert await cases.config_schema.get_by_application(first.application) == first
    with use(TENANT_B):
        await new_config_schema(cases, application=first.application)


async def test_an_idempotency_key_makes_one_config_schema(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await config_schema_arguments(cases)
        create = cases.config_schema.define
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_revise_of_a_missing_config_schema_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.config_schema.revise(
            "no-such-id",
            document='{"type": "object"}',
        )


async def test_revise_of_a_config_schema_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        schema_ = await new_config_schema(cases)
        changed = await cases.config_schema.revise(
            schema_.id,
            document='{"type": "object"}',
        )
        assert changed.version == schema_.version + 1
        assert await cases.config_schema.get(schema_.id) == changed
        stream = await store.read_stream("ConfigSchema", schema_.id)
    assert stream[-1].event_type == "SchemaRevised"


async def test_revise_of_a_config_schema_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        schema_ = await new_config_schema(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.config_schema.revise(
                schema_.id,
                document='{"type": "object"}',
                expected_version=schema_.version + 1,
            )


async def test_remove_of_a_missing_config_schema_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.config_schema.remove(
            "no-such-id",
        )


async def test_remove_of_a_config_schema_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        schema_ = await new_config_schema(cases)
        changed = await cases.config_schema.remove(
            schema_.id,
        )
        assert changed.version == schema_.version + 1
        assert await cases.config_schema.get(schema_.id) is None
        stream = await store.read_stream("ConfigSchema", schema_.id)
    assert stream[-1].event_type == "SchemaRemoved"


async def test_remove_of_a_config_schema_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        schema_ = await new_config_schema(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.config_schema.remove(
                schema_.id, expected_version=schema_.version + 1
            )


async def test_a_stale_config_schema_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    repository = EventSourcedConfigSchemaRepository(store)
    with use(TENANT_A):
        created = await new_config_schema(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(created.revise(document='{"type": "object"}', now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.revise(document='{"type": "object"}', now=now)
            )


async def property_set_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of PropertySet.create (the aggregates they reference made)."""
    return dict(
        key_=cases.next_of(
            "PropertySet.key",
            [
                "billing:production:main",
                "billing:production:mai0",
                "billing:production:mai1",
                "billing:production:mai2",
                "billing:production:mai3",
                "billing:production:mai4",
                "billing:production:mai5",
                "billing:production:mai6",
                "billing:production:mai7",
                "billing:production:mai8",
                "billing:production:mai9",
                "billing:production:maia",
            ],
        ),
        application="billing",
        profile="production",
        label="main",
        properties={},
    )


async def new_property_set(cases: Cases, **overrides: Any) -> PropertySet:
    """A new property set from the examples."""
    arguments = {**await property_set_arguments(cases), **overrides}
    return await cases.property_set.create(**arguments)


async def test_property_set_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_property_set(cases)
        assert await cases.property_set.get(created.id) == created
        assert await cases.property_set.get("no-such-id") is None


async def test_property_set_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_property_set(cases)
    with use(TENANT_B):
        assert await cases.property_set.get(created.id) is None


async def test_key__of_a_property_set_is_unique_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_property_set(cases)
        with pytest.raises(DuplicateKeyError):
            await new_property_set(cases, key_=first.key_)
        assert await cases.property_set.get_by_key(first.key_) == first
    with use(TENANT_B):
        await new_property_set(cases, key_=first.key_)


async def test_an_idempotency_key_makes_one_property_set(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await property_set_arguments(cases)
        create = cases.property_set.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_change_of_a_missing_property_set_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.property_set.change(
            "no-such-id",
            properties={},
            rolled_back_to=1,
        )


async def test_change_of_a_property_set_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        set_ = await new_property_set(cases)
        changed = await cases.property_set.change(
            set_.id,
            properties={},
            rolled_back_to=1,
        )
        assert changed.version == set_.version + 1
        assert await cases.property_set.get(set_.id) == changed
        stream = await store.read_stream("PropertySet", set_.id)
    assert stream[-1].event_type == "PropertiesChanged"


async def test_change_of_a_property_set_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        set_ = await new_property_set(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.property_set.change(
                set_.id,
                properties={},
                rolled_back_to=1,
                expected_version=set_.version + 1,
            )


async def test_remove_of_a_missing_property_set_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.property_set.remove(
            "no-such-id",
        )


async def test_remove_of_a_property_set_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        set_ = await new_property_set(cases)
        changed = await cases.property_set.remove(
            set_.id,
        )
        assert changed.version == set_.version + 1
        assert await cases.property_set.get(set_.id) is None
        stream = await store.read_stream("PropertySet", set_.id)
    assert stream[-1].event_type == "PropertiesRemoved"


async def test_remove_of_a_property_set_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        set_ = await new_property_set(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.property_set.remove(set_.id, expected_version=set_.version + 1)


async def test_a_stale_property_set_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    repository = EventSourcedPropertySetRepository(store)
    with use(TENANT_A):
        created = await new_property_set(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(created.change(properties={}, rolled_back_to=1, now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.change(properties={}, rolled_back_to=1, now=now)
            )
