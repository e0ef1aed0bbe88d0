"""Following an application's configuration: a background thread long-polls the
configuration service and hands each new settings object to a holder and a callback."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import httpx

from config_client.http import ConfigServer, ConfigServerError

__all__ = ["ConfigWatcher", "SettingsHolder"]

T = TypeVar("T")

log = logging.getLogger("config_client")


class SettingsHolder(Generic[T]):
    """The current settings, replaced as a whole when the configuration changes."""

    def __init__(self, initial: T) -> None:
        self._current = initial
        self._lock = threading.Lock()

    @property
    def current(self) -> T:
        with self._lock:
            return self._current

    def replace(self, settings: T) -> None:
        with self._lock:
            self._current = settings


class ConfigWatcher(Generic[T]):
    """Rebuilds the settings (``build``, e.g. the settings class) each time the
    configuration service answers a new version, into ``holder`` and ``on_change``.

    Errors (the service away, a refused token) are logged and retried after
    ``retry_delay``; a build that fails keeps the current settings."""

    def __init__(
        self,
        server: ConfigServer,
        build: Callable[[], T],
        holder: SettingsHolder[T],
        *,
        version: str,
        on_change: Callable[[T], None] | None = None,
        wait: float = 30.0,
        retry_delay: float = 1.0,
    ) -> None:
        self.server = server
        self.version = version
        self._build = build
        self._holder = holder
        self._on_change = on_change
        self._wait = wait
        self._retry_delay = retry_delay
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="config-watch", daemon=True
        )

    def start(self) -> ConfigWatcher[T]:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop following (waits for at most the current long-poll)."""
        self._stopping.set()

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                snapshot = self.server.next(self.version, self._wait)
                if snapshot is None or self._stopping.is_set():
                    continue
                settings = self._build()
            except (httpx.HTTPError, ConfigServerError, ValueError) as error:
                log.warning("configuration watch: %s; trying again", error)
                self._stopping.wait(self._retry_delay)
                continue
            self.version = snapshot.version
            self._holder.replace(settings)
            if self._on_change is not None:
                self._on_change(settings)
