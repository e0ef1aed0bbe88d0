# Generated from spec iam by `generate`; edits are merged on re-render.

"""Settings of the service: config/application.yaml, overridden by the environment."""

import os
from collections.abc import Mapping
from pathlib import Path

from eaf.config import Settings
from eaf.config import load_settings as load_service_settings

__all__ = ["SERVICE_DIR", "Settings", "event_store_url", "load_settings"]

SERVICE_DIR = Path(os.environ.get("IAM_HOME", Path(__file__).resolve().parents[3]))


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of this service (``IAM_HOME`` names its directory)."""
    return load_service_settings(SERVICE_DIR, environ=environ)


def event_store_url(settings: Settings) -> str | None:
    """The event store's SQLAlchemy URL for ``database.url``: a SQLite file (relative to the
    service directory), PostgreSQL, or None (in memory) for ``sqlite://``."""
    url = settings.database_url
    if url in ("sqlite://", "sqlite:///:memory:"):
        return None
    if url.startswith("postgresql"):
        return url.replace("postgresql://", "postgresql+asyncpg://", 1)
    path = settings.sqlite_path()
    if path is None:
        raise ValueError(
            f"database.url must be a sqlite or postgresql URL, not {url!r}"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{path}"
