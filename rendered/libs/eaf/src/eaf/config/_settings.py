from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


def _variable(dotted: str) -> str:
    """The variable that overrides a dotted key: ``server.port`` → ``SERVER_PORT``."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", dotted)
    return re.sub(r"[^A-Za-z0-9]+", "_", snake).strip("_").upper()


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

    def text(self, dotted: str) -> str:
        """The string at ``dotted`` (a number is written out)."""
        value = self._required(dotted)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self._wrong(dotted, value, "a string")
        return str(value)

    def integer(self, dotted: str) -> int:
        """The integer at ``dotted`` (``"5"`` from the environment is 5)."""
        value = self._required(dotted)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                raise self._wrong(dotted, value, "an integer") from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong(dotted, value, "an integer")
        return value

    def number(self, dotted: str) -> float:
        """The number at ``dotted``."""
        value = self._required(dotted)
        if isinstance(value, str):
            try:
                return float(value.strip())
            except ValueError:
                raise self._wrong(dotted, value, "a number") from None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._wrong(dotted, value, "a number")
        return float(value)

    def flag(self, dotted: str) -> bool:
        """The boolean at ``dotted`` (true/false, yes/no, on/off, 1/0 as text)."""
        value = self._required(dotted)
        if isinstance(value, str):
            if value.strip().lower() in _TRUE:
                return True
            if value.strip().lower() in _FALSE:
                return False
        if not isinstance(value, bool):
            raise self._wrong(dotted, value, "a boolean (true/false)")
        return value

    def seconds(self, dotted: str) -> timedelta:
        """The duration at ``dotted``, given in seconds (not negative)."""
        try:
            seconds = self.number(dotted)
        except ConfigError:
            raise self._wrong(dotted, self.get(dotted), "a number of seconds") from None
        if seconds < 0:
            raise self._wrong(
                dotted, self.get(dotted), "a number of seconds (0 or more)"
            )
        return timedelta(seconds=seconds)

    def path(self, dotted: str) -> Path:
        """The path at ``dotted``; a relative one is in the service's directory."""
        text = self.text(dotted)
        if not text.strip():
            raise self._wrong(dotted, text, "a path")
        path = Path(text)
        return path if path.is_absolute() else self.service_dir / path

    def _required(self, dotted: str) -> Any:
        value = self.get(dotted)
        if value is None:
            raise ConfigError(
                f"{dotted} is required: set it in {self.config_file} or the environment"
                f" variable {_variable(dotted)}"
            )
        return value

    @staticmethod
    def _wrong(dotted: str, value: Any, expected: str) -> ConfigError:
        return ConfigError(f"{dotted} must be {expected}, got {value!r}")

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
