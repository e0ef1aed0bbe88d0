# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Use cases on the in-memory and SQLite event stores: transactions, references, unique
values, idempotency keys, guards and tenant isolation."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID, uuid4

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

from feature_flags.application.services import (
    FlagService,
    ProjectService,
    SegmentService,
    UsageReportService,
)
from feature_flags.domain.errors import (
    CommandNotAllowedError,
    ConcurrencyError,
    DomainValidationError,
    FlagArchived,
    NotFoundError,
)
from feature_flags.domain.model import Flag, Project, Segment, UsageReport
from feature_flags.domain.types import (
    FlagType,
)
from feature_flags.infrastructure.persistence import (
    EventSourcedFlagRepository,
    EventSourcedProjectRepository,
    EventSourcedSegmentRepository,
    transactions,
)
from feature_flags.infrastructure.projections import (
    ReadModelFlagListing,
    ReadModelProjectListing,
    ReadModelSegmentListing,
    ReadModelUsageReportListing,
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

    project: ProjectService
    segment: SegmentService
    flag: FlagService
    usage_report: UsageReportService
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
        project=ProjectService(
            wired,
            clock,
            ReadModelProjectListing(projection_store(store)),
        ),
        segment=SegmentService(
            wired,
            clock,
            ReadModelSegmentListing(projection_store(store)),
        ),
        flag=FlagService(
            wired,
            clock,
            ReadModelFlagListing(projection_store(store)),
        ),
        usage_report=UsageReportService(
            wired,
            clock,
            ReadModelUsageReportListing(projection_store(store)),
        ),
    )


async def project_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Project.create (the aggregates they reference made)."""
    return dict(
        key_=cases.next_of(
            "Project.key",
            [
                "web-shop",
                "web-sho0",
                "web-sho1",
                "web-sho2",
                "web-sho3",
                "web-sho4",
                "web-sho5",
                "web-sho6",
                "web-sho7",
                "web-sho8",
                "web-sho9",
                "web-shoa",
            ],
        ),
        name="name",
        description="description",
        environments=["value"],
    )


async def new_project(cases: Cases, **overrides: Any) -> Project:
    """A new project from the examples."""
    arguments = {**await project_arguments(cases), **overrides}
    return await cases.project.create(**arguments)


async def test_project_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_project(cases)
        assert await cases.project.get(created.id) == created
        assert await cases.project.get("no-such-id") is None


async def test_project_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_project(cases)
    with use(TENANT_B):
        assert await cases.project.get(created.id) is None


async def test_key__of_a_project_is_unique_in_the_tenant(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_project(cases)
        with pytest.raises(DuplicateKeyError):
            await new_project(cases, key_=first.key_)
        assert await cases.project.get_by_key(first.key_) == first
    with use(TENANT_B):
        await new_project(cases, key_=first.key_)


async def test_an_idempotency_key_makes_one_project(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await project_arguments(cases)
        create = cases.project.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_update_of_a_missing_project_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.project.update(
            "no-such-id",
            name="name",
            description="description",
            environments=["value"],
        )


async def test_update_of_a_project_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        project = await new_project(cases)
        changed = await cases.project.update(
            project.id,
            name="name",
            description="description",
            environments=["value"],
        )
        assert changed.version == project.version + 1
        assert await cases.project.get(project.id) == changed
        stream = await store.read_stream("Project", project.id)
    assert stream[-1].event_type == "ProjectUpdated"


async def test_update_of_a_project_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        project = await new_project(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.project.update(
                project.id,
                name="name",
                description="description",
                environments=["value"],
                expected_version=project.version + 1,
            )


async def test_remove_of_a_missing_project_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.project.remove(
            "no-such-id",
        )


async def test_remove_of_a_project_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        project = await new_project(cases)
        changed = await cases.project.remove(
            project.id,
        )
        assert changed.version == project.version + 1
        assert await cases.project.get(project.id) is None
        stream = await store.read_stream("Project", project.id)
    assert stream[-1].event_type == "ProjectRemoved"


async def test_remove_of_a_project_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        project = await new_project(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.project.remove(project.id, expected_version=project.version + 1)


async def test_a_stale_project_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedProjectRepository(store)
    with use(TENANT_A):
        created = await new_project(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.update(
                name="name", description="description", environments=["value"], now=now
            )
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.update(
                    name="name",
                    description="description",
                    environments=["value"],
                    now=now,
                )
            )


async def segment_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Segment.create (the aggregates they reference made)."""
    return dict(
        name=cases.next_of(
            "Segment.name",
            [
                "name",
                "nam0",
                "nam1",
                "nam2",
                "nam3",
                "nam4",
                "nam5",
                "nam6",
                "nam7",
                "nam8",
                "nam9",
                "nama",
            ],
        ),
        description="description",
        constraints=[],
    )


async def new_segment(cases: Cases, **overrides: Any) -> Segment:
    """A new segment from the examples."""
    arguments = {**await segment_arguments(cases), **overrides}
    return await cases.segment.create(**arguments)


async def test_segment_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_segment(cases)
        assert await cases.segment.get(created.id) == created
        assert await cases.segment.get("no-such-id") is None


async def test_segment_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_segment(cases)
    with use(TENANT_B):
        assert await cases.segment.get(created.id) is None


async def test_name_of_a_segment_is_unique_in_the_tenant(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_segment(cases)
        with pytest.raises(DuplicateKeyError):
            await new_segment(cases, name=first.name)
        assert await cases.segment.get_by_name(first.name) == first
    with use(TENANT_B):
        await new_segment(cases, name=first.name)


async def test_an_idempotency_key_makes_one_segment(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await segment_arguments(cases)
        create = cases.segment.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_update_of_a_missing_segment_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.segment.update(
            "no-such-id",
            name=cases.next_of(
                "Segment.name",
                [
                    "name",
                    "nam0",
                    "nam1",
                    "nam2",
                    "nam3",
                    "nam4",
                    "nam5",
                    "nam6",
                    "nam7",
                    "nam8",
                    "nam9",
                    "nama",
                ],
            ),
            description="description",
            constraints=[],
        )


async def test_update_of_a_segment_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        segment = await new_segment(cases)
        changed = await cases.segment.update(
            segment.id,
            name=cases.next_of(
                "Segment.name",
                [
                    "name",
                    "nam0",
                    "nam1",
                    "nam2",
                    "nam3",
                    "nam4",
                    "nam5",
                    "nam6",
                    "nam7",
                    "nam8",
                    "nam9",
                    "nama",
                ],
            ),
            description="description",
            constraints=[],
        )
        assert changed.version == segment.version + 1
        assert await cases.segment.get(segment.id) == changed
        stream = await store.read_stream("Segment", segment.id)
    assert stream[-1].event_type == "SegmentUpdated"


async def test_update_of_a_segment_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        segment = await new_segment(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.segment.update(
                segment.id,
                name=cases.next_of(
                    "Segment.name",
                    [
                        "name",
                        "nam0",
                        "nam1",
                        "nam2",
                        "nam3",
                        "nam4",
                        "nam5",
                        "nam6",
                        "nam7",
                        "nam8",
                        "nam9",
                        "nama",
                    ],
                ),
                description="description",
                constraints=[],
                expected_version=segment.version + 1,
            )


async def test_remove_of_a_missing_segment_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.segment.remove(
            "no-such-id",
        )


async def test_remove_of_a_segment_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        segment = await new_segment(cases)
        changed = await cases.segment.remove(
            segment.id,
        )
        assert changed.version == segment.version + 1
        assert await cases.segment.get(segment.id) is None
        stream = await store.read_stream("Segment", segment.id)
    assert stream[-1].event_type == "SegmentRemoved"


async def test_remove_of_a_segment_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        segment = await new_segment(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.segment.remove(segment.id, expected_version=segment.version + 1)


async def test_a_stale_segment_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedSegmentRepository(store)
    with use(TENANT_A):
        created = await new_segment(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.update(
                name="name", description="description", constraints=[], now=now
            )
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.update(
                    name="name", description="description", constraints=[], now=now
                )
            )


async def flag_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Flag.create (the aggregates they reference made)."""
    return dict(
        key_=cases.next_of(
            "Flag.key",
            [
                "new-checkout",
                "new-checkou0",
                "new-checkou1",
                "new-checkou2",
                "new-checkou3",
                "new-checkou4",
                "new-checkou5",
                "new-checkou6",
                "new-checkou7",
                "new-checkou8",
                "new-checkou9",
                "new-checkoua",
            ],
        ),
        project_id=UUID((await new_project(cases)).id),
        description="description",
        type_=FlagType.RELEASE,
        impression_data=True,
        environments={},
        variants=[],
        dependencies=[],
    )


async def new_flag(cases: Cases, **overrides: Any) -> Flag:
    """A new flag from the examples."""
    arguments = {**await flag_arguments(cases), **overrides}
    return await cases.flag.create(**arguments)


async def test_flag_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_flag(cases)
        assert await cases.flag.get(created.id) == created
        assert await cases.flag.get("no-such-id") is None


async def test_flag_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_flag(cases)
    with use(TENANT_B):
        assert await cases.flag.get(created.id) is None


async def test_create_flag_needs_an_existing_project(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(DomainValidationError) as error:
        await new_flag(cases, project_id=UUID(str(uuid4())))
    assert "projectId" in {violation.field for violation in error.value.violations}


async def test_key__of_a_flag_is_unique_in_the_tenant(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_flag(cases)
        with pytest.raises(DuplicateKeyError):
            await new_flag(cases, key_=first.key_)
        assert await cases.flag.get_by_key(first.key_) == first
    with use(TENANT_B):
        await new_flag(cases, key_=first.key_)


async def test_an_idempotency_key_makes_one_flag(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await flag_arguments(cases)
        create = cases.flag.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_describe_of_a_missing_flag_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.describe(
            "no-such-id",
            description="description",
            type_=FlagType.RELEASE,
            impression_data=True,
        )


async def test_describe_of_a_flag_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        changed = await cases.flag.describe(
            flag.id,
            description="description",
            type_=FlagType.RELEASE,
            impression_data=True,
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) == changed
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagDescribed"


async def test_describe_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.flag.describe(
                flag.id,
                description="description",
                type_=FlagType.RELEASE,
                impression_data=True,
                expected_version=flag.version + 1,
            )


async def test_describe_of_a_flag_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        with pytest.raises(FlagArchived):
            await cases.flag.describe(
                flag.id,
                description="description",
                type_=FlagType.RELEASE,
                impression_data=True,
            )


async def test_configure_of_a_missing_flag_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.configure(
            "no-such-id",
            environments={},
        )


async def test_configure_of_a_flag_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        changed = await cases.flag.configure(
            flag.id,
            environments={},
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) == changed
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagConfigured"


async def test_configure_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.flag.configure(
                flag.id, environments={}, expected_version=flag.version + 1
            )


async def test_configure_of_a_flag_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        with pytest.raises(FlagArchived):
            await cases.flag.configure(
                flag.id,
                environments={},
            )


async def test_set_variants_of_a_missing_flag_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.set_variants(
            "no-such-id",
            variants=[],
        )


async def test_set_variants_of_a_flag_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        changed = await cases.flag.set_variants(
            flag.id,
            variants=[],
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) == changed
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagVariantsSet"


async def test_set_variants_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.flag.set_variants(
                flag.id, variants=[], expected_version=flag.version + 1
            )


async def test_set_variants_of_a_flag_is_refused_by_its_guard(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        with pytest.raises(FlagArchived):
            await cases.flag.set_variants(
                flag.id,
                variants=[],
            )


async def test_set_dependencies_of_a_missing_flag_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.set_dependencies(
            "no-such-id",
            dependencies=[],
        )


async def test_set_dependencies_of_a_flag_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        changed = await cases.flag.set_dependencies(
            flag.id,
            dependencies=[],
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) == changed
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagDependenciesSet"


async def test_set_dependencies_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.flag.set_dependencies(
                flag.id, dependencies=[], expected_version=flag.version + 1
            )


async def test_set_dependencies_of_a_flag_is_refused_by_its_guard(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        with pytest.raises(FlagArchived):
            await cases.flag.set_dependencies(
                flag.id,
                dependencies=[],
            )


async def test_mark_stale_of_a_missing_flag_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.mark_stale(
            "no-such-id",
            stale=True,
        )


async def test_mark_stale_of_a_flag_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        changed = await cases.flag.mark_stale(
            flag.id,
            stale=True,
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) == changed
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagStaleMarked"


async def test_mark_stale_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.flag.mark_stale(
                flag.id, stale=True, expected_version=flag.version + 1
            )


async def test_archive_of_a_missing_flag_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.archive(
            "no-such-id",
        )


async def test_archive_of_a_flag_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        changed = await cases.flag.archive(
            flag.id,
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) == changed
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagArchivedEvent"


async def test_archive_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.flag.archive(flag.id, expected_version=flag.version + 1)


async def test_archive_of_a_flag_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        with pytest.raises(FlagArchived):
            await cases.flag.archive(
                flag.id,
            )


async def test_revive_of_a_missing_flag_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.revive(
            "no-such-id",
        )


async def test_revive_of_a_flag_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        changed = await cases.flag.revive(
            flag.id,
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) == changed
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagRevived"


async def test_revive_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        with pytest.raises(PreconditionFailedError):
            await cases.flag.revive(flag.id, expected_version=flag.version + 1)


async def test_revive_of_a_flag_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(CommandNotAllowedError):
            await cases.flag.revive(
                flag.id,
            )


async def test_remove_of_a_missing_flag_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.flag.remove(
            "no-such-id",
        )


async def test_remove_of_a_flag_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        changed = await cases.flag.remove(
            flag.id,
        )
        assert changed.version == flag.version + 1
        assert await cases.flag.get(flag.id) is None
        stream = await store.read_stream("Flag", flag.id)
    assert stream[-1].event_type == "FlagRemoved"


async def test_remove_of_a_flag_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        flag = await cases.flag.archive(
            flag.id,
        )
        with pytest.raises(PreconditionFailedError):
            await cases.flag.remove(flag.id, expected_version=flag.version + 1)


async def test_remove_of_a_flag_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        flag = await new_flag(cases)
        with pytest.raises(CommandNotAllowedError):
            await cases.flag.remove(
                flag.id,
            )


async def test_a_stale_flag_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedFlagRepository(store)
    with use(TENANT_A):
        created = await new_flag(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.describe(
                description="description",
                type_=FlagType.RELEASE,
                impression_data=True,
                now=now,
            )
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.describe(
                    description="description",
                    type_=FlagType.RELEASE,
                    impression_data=True,
                    now=now,
                )
            )


async def usage_report_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of UsageReport.submit (the aggregates they reference made)."""
    return dict(
        app_name="web-shop",
        instance_id="instanceId",
        environment="production",
        start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        toggles={},
    )


async def new_usage_report(cases: Cases, **overrides: Any) -> UsageReport:
    """A new usage report from the examples."""
    arguments = {**await usage_report_arguments(cases), **overrides}
    return await cases.usage_report.submit(**arguments)


async def test_usage_report_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_usage_report(cases)
        assert await cases.usage_report.get(created.id) == created
        assert await cases.usage_report.get("no-such-id") is None


async def test_usage_report_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_usage_report(cases)
    with use(TENANT_B):
        assert await cases.usage_report.get(created.id) is None


async def test_an_idempotency_key_makes_one_usage_report(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await usage_report_arguments(cases)
        create = cases.usage_report.submit
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first
