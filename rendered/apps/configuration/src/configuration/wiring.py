"""Factories of the configuration service's hand-written services, which the generated
``bootstrap`` calls in the order ``specs/configuration.yaml`` lists its ``components``."""

from collections.abc import Sequence
from pathlib import Path

from eaf.eventsourcing import EventStore

from configuration.application.configurations import Configurations
from configuration.application.ports.inbound import (
    ConfigSchemaUseCases,
    PropertySetUseCases,
)
from configuration.application.secrets import SecretBox
from configuration.application.watch import Changes
from configuration.infrastructure.config import Settings
from configuration.infrastructure.persistence import EVENTS


def changes() -> Changes:
    """The changes of property sets, as this instance sees them (watch)."""
    return Changes()


def configurations(
    settings: Settings,
    store: EventStore,
    property_set: PropertySetUseCases,
    config_schema: ConfigSchemaUseCases,
    changes: Changes,
) -> Configurations:
    """Layered configuration, schema validation, secrets, versions and watch."""

    async def history(set_id: str) -> Sequence[object]:
        stored = await store.read_stream("PropertySet", set_id)
        return [EVENTS.decode(event) for event in stored]

    return Configurations(
        property_set,
        config_schema,
        history,
        SecretBox.load_or_create(keys_file(settings)),
        changes,
    )


def keys_file(settings: Settings) -> Path:
    """The key ring of the secrets (``configuration.keys_file``; relative: to the service)."""
    path = Path(str(settings.get("configuration.keys_file", "data/keys.json")))
    return path if path.is_absolute() else settings.service_dir / path
