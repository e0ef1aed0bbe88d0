# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Settings of the service: config/application.yaml, overridden by the environment."""

import os
from collections.abc import Mapping
from pathlib import Path

from eaf.config import Settings
from eaf.config import load_settings as load_service_settings

__all__ = ["SERVICE_DIR", "Settings", "database_path", "load_settings"]

SERVICE_DIR = Path(
    os.environ.get("USER_PROFILE_HOME", Path(__file__).resolve().parents[3])
)


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of this service (``USER_PROFILE_HOME`` names its directory)."""
    return load_service_settings(SERVICE_DIR, environ=environ)


def database_path(settings: Settings) -> Path | str:
    """The SQLite file of the configured ``database.url`` (``:memory:`` when so configured)."""
    if settings.database_url in ("sqlite://", "sqlite:///:memory:"):
        return ":memory:"
    path = settings.sqlite_path()
    if path is None:
        raise ValueError(
            f"database.url must be a sqlite URL, not {settings.database_url!r}"
        )
    return path
