"""Client of the configuration service: settings loaded at start-up, changes followed.

server = ConfigServer(url, "billing", "production", headers=lambda: {"Authorization": ...})

class BillingSettings(BaseSettings):
    currency: str

    @classmethod
    def settings_customise_sources(cls, settings_cls, *sources):
        return config_server_sources(server, settings_cls, *sources)

holder = SettingsHolder(BillingSettings())
watcher = ConfigWatcher(server, BillingSettings, holder, version=...).start()
"""

from config_client.http import ConfigServer, ConfigServerError, Snapshot
from config_client.source import ConfigServerSource, config_server_sources, nested
from config_client.watch import ConfigWatcher, SettingsHolder

__all__ = [
    "ConfigServer",
    "ConfigServerError",
    "ConfigServerSource",
    "ConfigWatcher",
    "SettingsHolder",
    "Snapshot",
    "config_server_sources",
    "nested",
]
