# Generated from spec user-profile by `generate`; edits are merged on re-render.

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

from user_profile.domain.events import (
    SampleUserProfileCreated,
    SampleUserProfileRemoved,
    SampleUserProfileUpdated,
)
from user_profile.domain.model import SampleUserProfile

# Private names: a read model's constant (its name in capitals) may be EVENTS or E.
from user_profile.infrastructure.persistence import EVENTS as _EVENT_TYPES

SAMPLE_USER_PROFILE_LIST_TABLE = read_model_table(
    "sample_user_profile_list",
    {
        "id": "str",
        "name": "str",
        "email": "str",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
SAMPLE_USER_PROFILE_LIST = Projection(
    "SampleUserProfileList", SAMPLE_USER_PROFILE_LIST_TABLE, version="d3de46f1258e"
)


@SAMPLE_USER_PROFILE_LIST.handles("SampleUserProfileCreated", writer_only=True)
async def _sample_user_profile_created_sample_user_profile_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, SampleUserProfileCreated)
    key = {
        "id": key_value(event.profile_id),
    }
    await writer.upsert(
        {
            **key,
            "name": encode_value(event.name),
            "email": encode_value(event.email),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@SAMPLE_USER_PROFILE_LIST.handles("SampleUserProfileUpdated", writer_only=True)
async def _sample_user_profile_updated_sample_user_profile_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, SampleUserProfileUpdated)
    key = {
        "id": key_value(event.profile_id),
    }
    await writer.update(
        key,
        {
            "name": encode_value(event.name),
            "email": encode_value(event.email),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@SAMPLE_USER_PROFILE_LIST.handles("SampleUserProfileRemoved", writer_only=True)
async def _sample_user_profile_removed_sample_user_profile_list(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, SampleUserProfileRemoved)
    key = {
        "id": key_value(event.profile_id),
    }
    await writer.delete(key)


class ReadModelSampleUserProfileListing(RowQueries[SampleUserProfile]):
    """Reads the tenant's rows of SampleUserProfileList (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, SAMPLE_USER_PROFILE_LIST, SampleUserProfile)


PROJECTIONS = [SAMPLE_USER_PROFILE_LIST]
