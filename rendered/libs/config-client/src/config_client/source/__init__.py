"""A pydantic-settings source reading the configuration service at start-up."""

from __future__ import annotations

from typing import Any

from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

from config_client.http import ConfigServer, Snapshot

__all__ = ["ConfigServerSource", "config_server_sources", "nested"]


def nested(properties: dict[str, Any]) -> dict[str, Any]:
    """Dotted property names as nested mappings (``db.pool-size`` -> ``{"db":
    {"pool_size": ...}}``), dashes as underscores, as field names are spelled."""
    tree: dict[str, Any] = {}
    for name, value in properties.items():
        *parents, leaf = name.replace("-", "_").split(".")
        node = tree
        for part in parents:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                break
            node = child
        else:
            node[leaf] = value
    return tree


class ConfigServerSource(PydanticBaseSettingsSource):
    """The application's merged properties from the configuration service, read once
    when the settings are built (``snapshot`` when already read)."""

    def __init__(
        self,
        settings_cls: type[BaseSettings],
        server: ConfigServer,
        snapshot: Snapshot | None = None,
    ) -> None:
        super().__init__(settings_cls)
        self.server = server
        self.snapshot = snapshot or server.fetch()
        self._values = nested(self.snapshot.properties)

    def get_field_value(
        self, field: FieldInfo, field_name: str
    ) -> tuple[Any, str, bool]:
        return self._values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return {
            name: self._values[name]
            for name in self.settings_cls.model_fields
            if name in self._values
        }


def config_server_sources(
    server: ConfigServer,
    settings_cls: type[BaseSettings],
    init_settings: PydanticBaseSettingsSource,
    env_settings: PydanticBaseSettingsSource,
    dotenv_settings: PydanticBaseSettingsSource,
    file_secret_settings: PydanticBaseSettingsSource,
) -> tuple[PydanticBaseSettingsSource, ...]:
    """The sources for ``settings_customise_sources``: arguments, then the environment,
    then the configuration service, then ``.env`` and secret files (the first wins)."""
    return (
        init_settings,
        env_settings,
        ConfigServerSource(settings_cls, server),
        dotenv_settings,
        file_secret_settings,
    )
