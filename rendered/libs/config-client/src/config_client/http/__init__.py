"""The configuration service over HTTP: one snapshot, or the next one (long-poll)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = ["ConfigServer", "ConfigServerError", "Snapshot"]


class ConfigServerError(RuntimeError):
    """The configuration service did not answer with a configuration."""


@dataclass(frozen=True)
class Snapshot:
    """The merged properties of an application at one version of the service."""

    version: str
    properties: dict[str, Any]


def _no_headers() -> Mapping[str, str]:
    return {}


@dataclass(frozen=True)
class ConfigServer:
    """Where an application's configuration is: the service's URL, the application,
    profile and label, and the headers of each call (``Authorization``, usually)."""

    url: str
    application: str
    profile: str = "default"
    label: str = "main"
    headers: Callable[[], Mapping[str, str]] = field(default=_no_headers)
    timeout: float = 10.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ConfigServer:
        """From ``CONFIG_SERVER_URL``, ``CONFIG_APPLICATION``, ``CONFIG_PROFILE``,
        ``CONFIG_LABEL`` and ``CONFIG_TOKEN`` (a bearer token)."""
        env = os.environ if environ is None else environ
        token = env.get("CONFIG_TOKEN")
        return cls(
            url=env["CONFIG_SERVER_URL"],
            application=env["CONFIG_APPLICATION"],
            profile=env.get("CONFIG_PROFILE", "default"),
            label=env.get("CONFIG_LABEL", "main"),
            headers=(lambda: {"Authorization": f"Bearer {token}"})
            if token
            else _no_headers,
        )

    @property
    def path(self) -> str:
        return f"/api/v1/config/{self.application}/{self.profile}/{self.label}"

    def _client(self, timeout: float) -> httpx.Client:
        return httpx.Client(
            base_url=self.url.rstrip("/"), headers=dict(self.headers()), timeout=timeout
        )

    def fetch(self) -> Snapshot:
        """The configuration now."""
        with self._client(self.timeout) as client:
            return _snapshot(client.get(self.path))

    def next(self, version: str, wait: float = 30.0) -> Snapshot | None:
        """The configuration once its version is no longer ``version``; None when
        nothing changed within ``wait`` seconds."""
        with self._client(wait + self.timeout) as client:
            response = client.get(
                f"{self.path}/watch", params={"version": version, "timeout": wait}
            )
        if response.status_code == 304:
            return None
        return _snapshot(response)


def _snapshot(response: httpx.Response) -> Snapshot:
    if response.status_code != 200:
        raise ConfigServerError(
            f"configuration service answered {response.status_code}: {response.text[:200]}"
        )
    document = response.json()
    return Snapshot(str(document["version"]), dict(document["properties"]))
