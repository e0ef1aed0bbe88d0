"""The client against a small configuration server over real HTTP (the service's answer
shapes: 200 with the merged properties, 304 while the version is unchanged)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from pydantic import BaseModel
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

from config_client import (
    ConfigServer,
    ConfigServerError,
    ConfigWatcher,
    SettingsHolder,
    config_server_sources,
    nested,
)


class FakeConfigService:
    """Serves ``properties`` at version ``version``; the watch answers once it moves."""

    def __init__(self) -> None:
        self.version = "v1"
        self.properties: dict[str, Any] = {"greeting": "hi", "db.pool-size": 3}
        self.changed = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urlsplit(self.path)
                if self.headers.get("Authorization") != "Bearer t":
                    self._send(401, {})
                elif url.path == "/api/v1/config/shop/prod/main":
                    self._send(200, service.document())
                elif url.path == "/api/v1/config/shop/prod/main/watch":
                    held = parse_qs(url.query)["version"][0]
                    with service.changed:
                        service.changed.wait_for(lambda: service.version != held, 5)
                    if service.version == held:
                        self._send(304, None)
                    else:
                        self._send(200, service.document())
                else:
                    self._send(404, {})

            def _send(self, status: int, body: object) -> None:
                self.send_response(status)
                self.end_headers()
                if body is not None:
                    self.wfile.write(json.dumps(body).encode())

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def document(self) -> dict[str, Any]:
        return {"version": self.version, "properties": self.properties}

    def change(self, version: str, **properties: Any) -> None:
        with self.changed:
            self.version = version
            self.properties = {**self.properties, **properties}
            self.changed.notify_all()


@pytest.fixture
def service() -> Iterator[FakeConfigService]:
    running = FakeConfigService()
    yield running
    running.httpd.shutdown()
    running.httpd.server_close()


def _server(url: str, token: str = "t") -> ConfigServer:
    return ConfigServer(
        url, "shop", "prod", headers=lambda: {"Authorization": f"Bearer {token}"}
    )


class Db(BaseModel):
    pool_size: int


def _settings(server: ConfigServer) -> type[BaseSettings]:
    class Settings(BaseSettings):
        greeting: str
        db: Db

        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            return config_server_sources(
                server,
                settings_cls,
                init_settings,
                env_settings,
                dotenv_settings,
                file_secret_settings,
            )

    return Settings


def test_dotted_names_become_nested_fields() -> None:
    assert nested({"a.b-c": 1, "a.d": 2, "e": 3}) == {"a": {"b_c": 1, "d": 2}, "e": 3}


def test_settings_load_from_the_service_and_arguments_win(
    service: FakeConfigService,
) -> None:
    settings: Any = _settings(_server(service.url))()
    assert (settings.greeting, settings.db.pool_size) == ("hi", 3)
    overridden: Any = _settings(_server(service.url))(greeting="hello")
    assert overridden.greeting == "hello"


def test_a_refused_call_is_an_error(service: FakeConfigService) -> None:
    with pytest.raises(ConfigServerError, match="401"):
        _server(service.url, token="wrong").fetch()


def test_the_watcher_replaces_the_held_settings(service: FakeConfigService) -> None:
    server = _server(service.url)
    settings_class = _settings(server)
    holder = SettingsHolder(settings_class())
    arrived = threading.Event()
    watcher = ConfigWatcher(
        server,
        settings_class,
        holder,
        version="v1",
        on_change=lambda _: arrived.set(),
        wait=5,
    ).start()
    try:
        service.change("v2", greeting="bonjour")
        assert arrived.wait(10)
        current: Any = holder.current
        assert current.greeting == "bonjour"
        assert watcher.version == "v2"
    finally:
        watcher.stop()
