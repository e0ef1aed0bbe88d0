# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Read models: projections of the stored events, kept up to date by projectors that follow
the event store (each batch and its checkpoint in one transaction, so a restart neither
skips nor repeats an event). Events are upcast to their current schema version first; a
read model whose shape changed is rebuilt from the first event."""

from eaf.eventsourcing import StoredEvent
from eaf.eventsourcing.serialization import encode_value
from eaf.projectors import (
    Projection,
    ProjectionStore,
    ReadModelWriter,
    RowQueries,
    key_value,
    read_model_table,
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

# Private names: a read model's constant (its name in capitals) may be EVENTS or E.
from feature_flags.infrastructure.persistence import EVENTS as _EVENT_TYPES

USAGE_REPORTS_TABLE = read_model_table(
    "usage_reports",
    {
        "id": "str",
        "app_name": "str",
        "instance_id": "str",
        "environment": "str",
        "start": "str",
        "stop": "str",
        "toggles": "json",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
USAGE_REPORTS = Projection("UsageReports", USAGE_REPORTS_TABLE, version="b0b20e097b5b")


@USAGE_REPORTS.handles("UsageRecorded", writer_only=True)
async def _usage_recorded_usage_reports(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, UsageRecorded)
    key = {
        "id": key_value(event.usage_report_id),
    }
    await writer.upsert(
        {
            **key,
            "app_name": encode_value(event.app_name),
            "instance_id": encode_value(event.instance_id),
            "environment": encode_value(event.environment),
            "start": encode_value(event.start),
            "stop": encode_value(event.stop),
            "toggles": encode_value(event.toggles),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


class ReadModelUsageReportListing(RowQueries[UsageReport]):
    """Reads the tenant's rows of UsageReports (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, USAGE_REPORTS, UsageReport)


PROJECTS_TABLE = read_model_table(
    "projects",
    {
        "id": "str",
        "key_": "str",
        "name": "str",
        "description": "str",
        "environments": "json",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
PROJECTS = Projection("Projects", PROJECTS_TABLE, version="db4ce5a40f18")


@PROJECTS.handles("ProjectCreated", writer_only=True)
async def _project_created_projects(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ProjectCreated)
    key = {
        "id": key_value(event.project_id),
    }
    await writer.upsert(
        {
            **key,
            "key_": encode_value(event.key_),
            "name": encode_value(event.name),
            "description": encode_value(event.description),
            "environments": encode_value(event.environments),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@PROJECTS.handles("ProjectUpdated", writer_only=True)
async def _project_updated_projects(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ProjectUpdated)
    key = {
        "id": key_value(event.project_id),
    }
    await writer.update(
        key,
        {
            "name": encode_value(event.name),
            "description": encode_value(event.description),
            "environments": encode_value(event.environments),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@PROJECTS.handles("ProjectRemoved", writer_only=True)
async def _project_removed_projects(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, ProjectRemoved)
    key = {
        "id": key_value(event.project_id),
    }
    await writer.delete(key)


class ReadModelProjectListing(RowQueries[Project]):
    """Reads the tenant's rows of Projects (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, PROJECTS, Project)


SEGMENTS_TABLE = read_model_table(
    "segments",
    {
        "id": "str",
        "name": "str",
        "description": "str",
        "constraints": "json",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
SEGMENTS = Projection("Segments", SEGMENTS_TABLE, version="b48ea79facea")


@SEGMENTS.handles("SegmentCreated", writer_only=True)
async def _segment_created_segments(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, SegmentCreated)
    key = {
        "id": key_value(event.segment_id),
    }
    await writer.upsert(
        {
            **key,
            "name": encode_value(event.name),
            "description": encode_value(event.description),
            "constraints": encode_value(event.constraints),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@SEGMENTS.handles("SegmentUpdated", writer_only=True)
async def _segment_updated_segments(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, SegmentUpdated)
    key = {
        "id": key_value(event.segment_id),
    }
    await writer.update(
        key,
        {
            "name": encode_value(event.name),
            "description": encode_value(event.description),
            "constraints": encode_value(event.constraints),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@SEGMENTS.handles("SegmentRemoved", writer_only=True)
async def _segment_removed_segments(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, SegmentRemoved)
    key = {
        "id": key_value(event.segment_id),
    }
    await writer.delete(key)


class ReadModelSegmentListing(RowQueries[Segment]):
    """Reads the tenant's rows of Segments (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, SEGMENTS, Segment)


FLAGS_TABLE = read_model_table(
    "flags",
    {
        "id": "str",
        "key_": "str",
        "project_id": "str",
        "description": "str",
        "type_": "str",
        "impression_data": "bool",
        "environments": "json",
        "variants": "json",
        "dependencies": "json",
        "stale": "bool",
        "archived_": "bool",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
FLAGS = Projection("Flags", FLAGS_TABLE, version="930ac65cfcde")


@FLAGS.handles("FlagCreated", writer_only=True)
async def _flag_created_flags(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagCreated)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.upsert(
        {
            **key,
            "key_": encode_value(event.key_),
            "project_id": encode_value(event.project_id),
            "description": encode_value(event.description),
            "type_": encode_value(event.type_),
            "impression_data": encode_value(event.impression_data),
            "environments": encode_value(event.environments),
            "variants": encode_value(event.variants),
            "dependencies": encode_value(event.dependencies),
            "stale": encode_value(event.stale),
            "archived_": encode_value(event.archived_),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@FLAGS.handles("FlagDescribed", writer_only=True)
async def _flag_described_flags(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagDescribed)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.update(
        key,
        {
            "description": encode_value(event.description),
            "type_": encode_value(event.type_),
            "impression_data": encode_value(event.impression_data),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@FLAGS.handles("FlagConfigured", writer_only=True)
async def _flag_configured_flags(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagConfigured)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.update(
        key,
        {
            "environments": encode_value(event.environments),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@FLAGS.handles("FlagVariantsSet", writer_only=True)
async def _flag_variants_set_flags(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagVariantsSet)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.update(
        key,
        {
            "variants": encode_value(event.variants),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@FLAGS.handles("FlagDependenciesSet", writer_only=True)
async def _flag_dependencies_set_flags(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagDependenciesSet)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.update(
        key,
        {
            "dependencies": encode_value(event.dependencies),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@FLAGS.handles("FlagStaleMarked", writer_only=True)
async def _flag_stale_marked_flags(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagStaleMarked)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.update(
        key,
        {
            "stale": encode_value(event.stale),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@FLAGS.handles("FlagArchivedEvent", writer_only=True)
async def _flag_archived_event_flags(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagArchivedEvent)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.update(
        key,
        {
            "archived_": encode_value(event.archived_),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@FLAGS.handles("FlagRevived", writer_only=True)
async def _flag_revived_flags(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagRevived)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.update(
        key,
        {
            "archived_": encode_value(event.archived_),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@FLAGS.handles("FlagRemoved", writer_only=True)
async def _flag_removed_flags(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, FlagRemoved)
    key = {
        "id": key_value(event.flag_id),
    }
    await writer.delete(key)


class ReadModelFlagListing(RowQueries[Flag]):
    """Reads the tenant's rows of Flags (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, FLAGS, Flag)


PROJECTIONS = [USAGE_REPORTS, PROJECTS, SEGMENTS, FLAGS]
