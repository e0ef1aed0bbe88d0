from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit


class ConfigError(ValueError):
    """The configuration is missing, malformed or holds a value of the wrong type."""


@dataclass(frozen=True)
class Settings:
    """The effective settings of a service: file values with environment overrides."""

    raw: Mapping[str, Any]
    service_dir: Path
    config_file: Path

    @property
    def name(self) -> str:
        return cast(str, self.get("application.name"))

    @property
    def host(self) -> str:
        return cast(str, self.get("server.host"))

    @property
    def port(self) -> int:
        return cast(int, self.get("server.port"))

    @property
    def max_body_bytes(self) -> int:
        """The largest request body accepted, in bytes (``server.max_body_bytes``)."""
        return cast(int, self.get("server.max_body_bytes"))

    @property
    def max_json_depth(self) -> int:
        """How deep a JSON request body may nest (``server.max_json_depth``)."""
        return cast(int, self.get("server.max_json_depth"))

    @property
    def graceful_shutdown_seconds(self) -> int:
        """How long a stopping server waits for requests in flight before cancelling them."""
        return cast(int, self.get("server.graceful_shutdown_seconds"))

    @property
    def broker_url(self) -> str:
        return cast(str, self.get("broker.url"))

    @property
    def broker_replicas(self) -> int:
        """How many JetStream servers keep each stream (3 on a three-node cluster)."""
        return cast(int, self.get("broker.replicas", 1))

    @property
    def database_url(self) -> str:
        return cast(str, self.get("database.url"))

    @property
    def log_level(self) -> str:
        return cast(str, self.get("logging.level"))

    @property
    def log_format(self) -> str:
        return cast(str, self.get("logging.format"))

    def get(self, dotted: str, default: Any = None) -> Any:
        """The value at a dotted path such as ``"broker.stream"``, or ``default``."""
        node: Any = self.raw
        for key in dotted.split("."):
            if not isinstance(node, Mapping) or key not in node:
                return default
            node = node[key]
        return node

    def sqlite_path(self) -> Path | None:
        """The database file when ``database.url`` is a file-backed SQLite URL.

        ``sqlite:///data/x.db`` is relative to the service directory, ``sqlite:////abs/x.db``
        is absolute; in-memory and non-SQLite URLs give ``None``.
        """
        url = urlsplit(self.database_url)
        if url.scheme.split("+")[0] != "sqlite":
            return None
        # urlsplit keeps the slash that separates the empty host from the path.
        path = url.path.removeprefix("/")
        if path in ("", ":memory:"):
            return None
        return self.service_dir / path

    def event_store_url(self) -> str | None:
        """The event store's SQLAlchemy URL for ``database.url``: a SQLite file (relative to
        the service directory, its folder created), PostgreSQL, or None (in memory) for
        ``sqlite://``; any other URL is a ValueError naming it."""
        url = self.database_url
        if url in ("sqlite://", "sqlite:///:memory:"):
            return None
        if url.startswith("postgresql"):
            return url.replace("postgresql://", "postgresql+asyncpg://", 1)
        path = self.sqlite_path()
        if path is None:
            raise ValueError(
                f"database.url must be a sqlite or postgresql URL, not {url!r}"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{path}"
