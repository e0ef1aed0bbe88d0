# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Settings of the service: config/application.yaml, overridden by the environment."""

import os
from collections.abc import Mapping
from pathlib import Path

from eaf.config import Settings
from eaf.config import load_settings as load_service_settings
from iam_client import IamClient, RevocationList

__all__ = ["SERVICE_DIR", "Settings", "event_store_url", "iam_client", "load_settings"]

SERVICE_DIR = Path(
    os.environ.get("USER_PROFILE_HOME", Path(__file__).resolve().parents[3])
)


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of this service (``USER_PROFILE_HOME`` names its directory)."""
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


def iam_client(settings: Settings) -> IamClient:
    """Validates bearer tokens against IAM's published keys (``security.iam_url``), for
    tokens of issuer ``security.issuer`` (default: the IAM URL) and audience
    ``security.audience``, and against IAM's deny list (``security.revocation_feed``)."""
    iam_url = str(settings.get("security.iam_url"))
    feed = bool(settings.get("security.revocation_feed", True) and settings.broker_url)
    lifetime = float(settings.get("security.max_token_lifetime_seconds", 3600))
    return IamClient(
        iam_url,
        issuer=str(settings.get("security.issuer") or iam_url),
        audience=str(settings.get("security.audience")),
        revocations=RevocationList(max_token_lifetime=lifetime) if feed else None,
        introspect=bool(settings.get("security.introspect", False)),
    )
