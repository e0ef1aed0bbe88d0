# Generated from spec configuration by `generate`; edits are merged on re-render.

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

from configuration.domain.events import (
    PropertiesChanged,
    PropertiesCreated,
    PropertiesRemoved,
    SchemaDefined,
    SchemaRemoved,
    SchemaRevised,
)
from configuration.domain.model import ConfigSchema, PropertySet

# Private names: a read model's constant (its name in capitals) may be EVENTS or E.
from configuration.infrastructure.persistence import EVENTS as _EVENT_TYPES

SCHEMAS_TABLE = read_model_table(
    "schemas",
    {
        "id": "str",
        "application": "str",
        "document": "str",
        "revision": "int",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
SCHEMAS = Projection("Schemas", SCHEMAS_TABLE, version="a9b2d97f58ee")


@SCHEMAS.handles("SchemaDefined", writer_only=True)
async def _schema_defined_schemas(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, SchemaDefined)
    key = {
        "id": key_value(event.config_schema_id),
    }
    await writer.upsert(
        {
            **key,
            "application": encode_value(event.application),
            "document": encode_value(event.document),
            "revision": encode_value(event.revision),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@SCHEMAS.handles("SchemaRevised", writer_only=True)
async def _schema_revised_schemas(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, SchemaRevised)
    key = {
        "id": key_value(event.config_schema_id),
    }
    await writer.update(
        key,
        {
            "document": encode_value(event.document),
            "revision": encode_value(event.revision),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@SCHEMAS.handles("SchemaRemoved", writer_only=True)
async def _schema_removed_schemas(writer: ReadModelWriter, stored: StoredEvent) -> None:
    event = _EVENT_TYPES.decode_as(stored, SchemaRemoved)
    key = {
        "id": key_value(event.config_schema_id),
    }
    await writer.delete(key)


class ReadModelConfigSchemaListing(RowQueries[ConfigSchema]):
    """Reads the tenant's rows of Schemas (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, SCHEMAS, ConfigSchema)


PROPERTY_SETS_TABLE = read_model_table(
    "property_sets",
    {
        "id": "str",
        "key_": "str",
        "application": "str",
        "profile": "str",
        "label": "str",
        "properties": "json",
        "revision": "int",
        "created_at": "str",
        "updated_at": "str",
    },
    key=("id",),
)
PROPERTY_SETS = Projection("PropertySets", PROPERTY_SETS_TABLE, version="86c6bd206c60")


@PROPERTY_SETS.handles("PropertiesCreated", writer_only=True)
async def _properties_created_property_sets(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PropertiesCreated)
    key = {
        "id": key_value(event.property_set_id),
    }
    await writer.upsert(
        {
            **key,
            "key_": encode_value(event.key_),
            "application": encode_value(event.application),
            "profile": encode_value(event.profile),
            "label": encode_value(event.label),
            "revision": encode_value(event.revision),
            "properties": encode_value(event.properties),
            "updated_at": encode_value(event.occurred_at),
            "created_at": encode_value(event.occurred_at),
        }
    )


@PROPERTY_SETS.handles("PropertiesChanged", writer_only=True)
async def _properties_changed_property_sets(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PropertiesChanged)
    key = {
        "id": key_value(event.property_set_id),
    }
    await writer.update(
        key,
        {
            "application": encode_value(event.application),
            "profile": encode_value(event.profile),
            "label": encode_value(event.label),
            "revision": encode_value(event.revision),
            "properties": encode_value(event.properties),
            "updated_at": encode_value(event.occurred_at),
        },
    )


@PROPERTY_SETS.handles("PropertiesRemoved", writer_only=True)
async def _properties_removed_property_sets(
    writer: ReadModelWriter, stored: StoredEvent
) -> None:
    event = _EVENT_TYPES.decode_as(stored, PropertiesRemoved)
    key = {
        "id": key_value(event.property_set_id),
    }
    await writer.delete(key)


class ReadModelPropertySetListing(RowQueries[PropertySet]):
    """Reads the tenant's rows of PropertySets (eventually consistent: as of the projector's
    last batch)."""

    def __init__(self, store: ProjectionStore) -> None:
        super().__init__(store, PROPERTY_SETS, PropertySet)


PROJECTIONS = [SCHEMAS, PROPERTY_SETS]
