# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Unit tests of the domain: rules, guards, invariants, and the events commands emit."""

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from feature_flags.domain.errors import (
    CommandNotAllowedError,
    DomainValidationError,
    FlagArchived,
    Violation,
)
from feature_flags.domain.events import (
    FlagArchivedEvent,
    FlagConfigured,
    FlagCreated,
    FlagDependenciesSet,
    FlagDescribed,
    FlagRemoved,
    FlagRevived,
    FlagStaleMarked,
    FlagVariantsSet,
    ProjectCreated,
    ProjectRemoved,
    ProjectUpdated,
    SegmentCreated,
    SegmentRemoved,
    SegmentUpdated,
    UsageRecorded,
)
from feature_flags.domain.model import Flag, Project, Segment, UsageReport
from feature_flags.domain.types import FlagType

# Now: the spec's examples are checked against the current date (a due date in 2099).
NOW = datetime.now(UTC).replace(microsecond=0)
LATER = NOW + timedelta(minutes=5)


def new_project() -> Project:
    return Project.create(
        key_="web-shop",
        name="name",
        description="description",
        environments=["value"],
        now=NOW,
    ).committed()


def test_create_project_sets_fields_and_records_project_created() -> None:
    project = Project.create(
        key_="web-shop",
        name="name",
        description="description",
        environments=["value"],
        now=NOW,
    )
    assert project.key_ == "web-shop"
    assert project.name == "name"
    assert project.description == "description"
    assert project.environments == ["value"]
    assert project.created_at == project.updated_at == NOW
    assert [type(event) for event in project.changes] == [ProjectCreated]
    assert project.committed().version == 1


def test_replaying_the_events_of_a_project_rebuilds_it() -> None:
    project = Project.create(
        key_="web-shop",
        name="name",
        description="description",
        environments=["value"],
        now=NOW,
    )
    project = project.update(
        name="name",
        description="description",
        environments=["value"],
        now=LATER + timedelta(seconds=1),
    )
    assert Project.from_history(project.changes) == project.committed()


def test_create_project_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        Project.create(
            key_="web-shop",
            name="   ",
            description="description",
            environments=["value"],
            now=NOW,
        )
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_create_project_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Project.create(
            key_="web-shop",
            name="x" * 101,
            description="description",
            environments=["value"],
            now=NOW,
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_create_project_rejects_description_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Project.create(
            key_="web-shop",
            name="name",
            description="x" * 1001,
            environments=["value"],
            now=NOW,
        )
    assert (
        Violation("description", "Description allows at most 1000 characters")
        in error.value.violations
    )


def test_create_project_rejects_environments_breaking_min_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Project.create(
            key_="web-shop",
            name="name",
            description="description",
            environments=[],
            now=NOW,
        )
    assert (
        Violation("environments", "Environments needs at least 1 item")
        in error.value.violations
    )


def test_update_project_rejects_name_breaking_not_blank() -> None:
    original = new_project()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="   ", description="description", environments=["value"], now=NOW
        )
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_update_project_rejects_name_breaking_max_length() -> None:
    original = new_project()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="x" * 101, description="description", environments=["value"], now=NOW
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_update_project_rejects_description_breaking_max_length() -> None:
    original = new_project()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name", description="x" * 1001, environments=["value"], now=NOW
        )
    assert (
        Violation("description", "Description allows at most 1000 characters")
        in error.value.violations
    )


def test_update_project_rejects_environments_breaking_min_length() -> None:
    original = new_project()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name", description="description", environments=[], now=NOW
        )
    assert (
        Violation("environments", "Environments needs at least 1 item")
        in error.value.violations
    )


def test_update_project_returns_a_changed_copy_with_its_event() -> None:
    original = new_project()
    changed = original.update(
        name="name", description="description", environments=["value"], now=LATER
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ProjectUpdated]


def test_remove_project_returns_a_changed_copy_with_its_event() -> None:
    original = new_project()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ProjectRemoved]
    assert changed.archived


def new_segment() -> Segment:
    return Segment.create(
        name="name", description="description", constraints=[], now=NOW
    ).committed()


def test_create_segment_sets_fields_and_records_segment_created() -> None:
    segment = Segment.create(
        name="name", description="description", constraints=[], now=NOW
    )
    assert segment.name == "name"
    assert segment.description == "description"
    assert segment.constraints == []
    assert segment.created_at == segment.updated_at == NOW
    assert [type(event) for event in segment.changes] == [SegmentCreated]
    assert segment.committed().version == 1


def test_replaying_the_events_of_a_segment_rebuilds_it() -> None:
    segment = Segment.create(
        name="name", description="description", constraints=[], now=NOW
    )
    segment = segment.update(
        name="name",
        description="description",
        constraints=[],
        now=LATER + timedelta(seconds=1),
    )
    assert Segment.from_history(segment.changes) == segment.committed()


def test_create_segment_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        Segment.create(name="   ", description="description", constraints=[], now=NOW)
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_create_segment_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Segment.create(
            name="x" * 101, description="description", constraints=[], now=NOW
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_create_segment_rejects_description_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Segment.create(name="name", description="x" * 1001, constraints=[], now=NOW)
    assert (
        Violation("description", "Description allows at most 1000 characters")
        in error.value.violations
    )


def test_update_segment_rejects_name_breaking_not_blank() -> None:
    original = new_segment()
    with pytest.raises(DomainValidationError) as error:
        original.update(name="   ", description="description", constraints=[], now=NOW)
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_update_segment_rejects_name_breaking_max_length() -> None:
    original = new_segment()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="x" * 101, description="description", constraints=[], now=NOW
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_update_segment_rejects_description_breaking_max_length() -> None:
    original = new_segment()
    with pytest.raises(DomainValidationError) as error:
        original.update(name="name", description="x" * 1001, constraints=[], now=NOW)
    assert (
        Violation("description", "Description allows at most 1000 characters")
        in error.value.violations
    )


def test_update_segment_returns_a_changed_copy_with_its_event() -> None:
    original = new_segment()
    changed = original.update(
        name="name", description="description", constraints=[], now=LATER
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SegmentUpdated]


def test_remove_segment_returns_a_changed_copy_with_its_event() -> None:
    original = new_segment()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SegmentRemoved]
    assert changed.archived


def new_flag() -> Flag:
    return Flag.create(
        key_="new-checkout",
        project_id=UUID("24492400-c65b-5cdb-af5d-6d0232e0aeed"),
        description="description",
        type_=FlagType.RELEASE,
        impression_data=True,
        environments={},
        variants=[],
        dependencies=[],
        now=NOW,
    ).committed()


def test_create_flag_sets_fields_and_records_flag_created() -> None:
    flag = Flag.create(
        key_="new-checkout",
        project_id=UUID("24492400-c65b-5cdb-af5d-6d0232e0aeed"),
        description="description",
        type_=FlagType.RELEASE,
        impression_data=True,
        environments={},
        variants=[],
        dependencies=[],
        now=NOW,
    )
    assert flag.key_ == "new-checkout"
    assert flag.project_id == UUID("24492400-c65b-5cdb-af5d-6d0232e0aeed")
    assert flag.description == "description"
    assert flag.type_ == FlagType.RELEASE
    assert flag.impression_data is True
    assert flag.environments == {}
    assert flag.variants == []
    assert flag.dependencies == []
    assert flag.created_at == flag.updated_at == NOW
    assert [type(event) for event in flag.changes] == [FlagCreated]
    assert flag.committed().version == 1


def test_replaying_the_events_of_a_flag_rebuilds_it() -> None:
    flag = Flag.create(
        key_="new-checkout",
        project_id=UUID("24492400-c65b-5cdb-af5d-6d0232e0aeed"),
        description="description",
        type_=FlagType.RELEASE,
        impression_data=True,
        environments={},
        variants=[],
        dependencies=[],
        now=NOW,
    )
    flag = flag.describe(
        description="description",
        type_=FlagType.RELEASE,
        impression_data=True,
        now=LATER + timedelta(seconds=1),
    )
    flag = flag.configure(environments={}, now=LATER + timedelta(seconds=2))
    flag = flag.set_variants(variants=[], now=LATER + timedelta(seconds=3))
    flag = flag.set_dependencies(dependencies=[], now=LATER + timedelta(seconds=4))
    flag = flag.mark_stale(stale=True, now=LATER + timedelta(seconds=5))
    flag = flag.archive(now=LATER + timedelta(seconds=6))
    flag = flag.revive(now=LATER + timedelta(seconds=7))
    assert Flag.from_history(flag.changes) == flag.committed()


def test_create_flag_rejects_description_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Flag.create(
            key_="new-checkout",
            project_id=UUID("24492400-c65b-5cdb-af5d-6d0232e0aeed"),
            description="x" * 1001,
            type_=FlagType.RELEASE,
            impression_data=True,
            environments={},
            variants=[],
            dependencies=[],
            now=NOW,
        )
    assert (
        Violation("description", "Description allows at most 1000 characters")
        in error.value.violations
    )


def test_describe_flag_rejects_description_breaking_max_length() -> None:
    original = new_flag()
    with pytest.raises(DomainValidationError) as error:
        original.describe(
            description="x" * 1001,
            type_=FlagType.RELEASE,
            impression_data=True,
            now=NOW,
        )
    assert (
        Violation("description", "Description allows at most 1000 characters")
        in error.value.violations
    )


def test_describe_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    changed = original.describe(
        description="description",
        type_=FlagType.RELEASE,
        impression_data=True,
        now=LATER,
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagDescribed]


def test_describe_flag_is_refused_by_its_guard() -> None:
    flag = new_flag()
    flag = flag.archive(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(FlagArchived):
        flag.describe(
            description="description",
            type_=FlagType.RELEASE,
            impression_data=True,
            now=LATER,
        )


def test_configure_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    changed = original.configure(environments={}, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagConfigured]


def test_configure_flag_is_refused_by_its_guard() -> None:
    flag = new_flag()
    flag = flag.archive(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(FlagArchived):
        flag.configure(environments={}, now=LATER)


def test_set_variants_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    changed = original.set_variants(variants=[], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagVariantsSet]


def test_set_variants_flag_is_refused_by_its_guard() -> None:
    flag = new_flag()
    flag = flag.archive(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(FlagArchived):
        flag.set_variants(variants=[], now=LATER)


def test_set_dependencies_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    changed = original.set_dependencies(dependencies=[], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagDependenciesSet]


def test_set_dependencies_flag_is_refused_by_its_guard() -> None:
    flag = new_flag()
    flag = flag.archive(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(FlagArchived):
        flag.set_dependencies(dependencies=[], now=LATER)


def test_mark_stale_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    changed = original.mark_stale(stale=True, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagStaleMarked]


def test_archive_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    changed = original.archive(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagArchivedEvent]


def test_archive_flag_is_refused_by_its_guard() -> None:
    flag = new_flag()
    flag = flag.archive(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(FlagArchived):
        flag.archive(now=LATER)


def test_revive_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    original = original.archive(now=NOW + timedelta(seconds=1)).committed()
    changed = original.revive(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagRevived]


def test_revive_flag_is_refused_by_its_guard() -> None:
    flag = new_flag()
    with pytest.raises(CommandNotAllowedError):
        flag.revive(now=LATER)


def test_remove_flag_returns_a_changed_copy_with_its_event() -> None:
    original = new_flag()
    original = original.archive(now=NOW + timedelta(seconds=1)).committed()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [FlagRemoved]
    assert changed.archived


def test_remove_flag_is_refused_by_its_guard() -> None:
    flag = new_flag()
    with pytest.raises(CommandNotAllowedError):
        flag.remove(now=LATER)


def new_usage_report() -> UsageReport:
    return UsageReport.submit(
        app_name="web-shop",
        instance_id="instanceId",
        environment="production",
        start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        toggles={},
        now=NOW,
    ).committed()


def test_submit_usage_report_sets_fields_and_records_usage_recorded() -> None:
    report = UsageReport.submit(
        app_name="web-shop",
        instance_id="instanceId",
        environment="production",
        start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        toggles={},
        now=NOW,
    )
    assert report.app_name == "web-shop"
    assert report.instance_id == "instanceId"
    assert report.environment == "production"
    assert report.start == datetime.fromisoformat("2030-01-02T03:04:05Z")
    assert report.stop == datetime.fromisoformat("2030-01-02T03:04:05Z")
    assert report.toggles == {}
    assert report.created_at == report.updated_at == NOW
    assert [type(event) for event in report.changes] == [UsageRecorded]
    assert report.committed().version == 1


def test_replaying_the_events_of_a_usage_report_rebuilds_it() -> None:
    report = UsageReport.submit(
        app_name="web-shop",
        instance_id="instanceId",
        environment="production",
        start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        toggles={},
        now=NOW,
    )
    assert UsageReport.from_history(report.changes) == report.committed()


def test_submit_usage_report_rejects_app_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        UsageReport.submit(
            app_name="   ",
            instance_id="instanceId",
            environment="production",
            start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            toggles={},
            now=NOW,
        )
    assert Violation("appName", "App name must not be blank") in error.value.violations


def test_submit_usage_report_rejects_app_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        UsageReport.submit(
            app_name="x" * 201,
            instance_id="instanceId",
            environment="production",
            start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            toggles={},
            now=NOW,
        )
    assert "appName" in {violation.field for violation in error.value.violations}


def test_submit_usage_report_rejects_instance_id_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        UsageReport.submit(
            app_name="web-shop",
            instance_id="x" * 201,
            environment="production",
            start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            toggles={},
            now=NOW,
        )
    assert (
        Violation("instanceId", "Instance id allows at most 200 characters")
        in error.value.violations
    )


def test_submit_usage_report_rejects_environment_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        UsageReport.submit(
            app_name="web-shop",
            instance_id="instanceId",
            environment="   ",
            start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            toggles={},
            now=NOW,
        )
    assert (
        Violation("environment", "Environment must not be blank")
        in error.value.violations
    )


def test_submit_usage_report_rejects_environment_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        UsageReport.submit(
            app_name="web-shop",
            instance_id="instanceId",
            environment="x" * 101,
            start=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            stop=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            toggles={},
            now=NOW,
        )
    assert "environment" in {violation.field for violation in error.value.violations}
