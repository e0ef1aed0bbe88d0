from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from eaf.config import Settings, load_settings

EXAMPLE = """\
application:
  name: user-profile
server:
  host: 127.0.0.1
  port: 8080
broker:
  url: nats://localhost:4222
database:
  url: sqlite:///data/user-profile.db
logging:
  level: INFO
  format: json
"""


def service(tmp_path: Path, text: str = EXAMPLE) -> Path:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "application.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_reads_the_typed_settings_from_the_file(tmp_path: Path) -> None:
    settings = load_settings(service(tmp_path), environ={})

    assert settings.name == "user-profile"
    assert settings.host == "127.0.0.1"
    assert settings.port == 8080
    assert settings.broker_url == "nats://localhost:4222"
    assert settings.database_url == "sqlite:///data/user-profile.db"
    assert settings.log_level == "INFO"
    assert settings.log_format == "json"
    assert settings.config_file == tmp_path.resolve() / "config" / "application.yaml"


def test_accepts_the_service_dir_as_a_string(tmp_path: Path) -> None:
    assert load_settings(str(service(tmp_path)), environ={}).name == "user-profile"


def test_environment_variables_override_each_leaf(tmp_path: Path) -> None:
    environ = {
        "APPLICATION_NAME": "renamed",
        "SERVER_HOST": "0.0.0.0",
        "SERVER_PORT": "9090",
        "BROKER_URL": "nats://broker:4222",
        "DATABASE_URL": "postgresql+asyncpg://db/profiles",
        "LOGGING_LEVEL": "debug",
        "LOGGING_FORMAT": "text",
    }

    settings = load_settings(service(tmp_path), environ=environ)

    assert settings.name == "renamed"
    assert settings.host == "0.0.0.0"
    assert settings.port == 9090
    assert settings.broker_url == "nats://broker:4222"
    assert settings.database_url == "postgresql+asyncpg://db/profiles"
    assert settings.log_level == "DEBUG"
    assert settings.log_format == "text"


def test_port_overrides_server_port(tmp_path: Path) -> None:
    environ = {"SERVER_PORT": "9090", "PORT": "7070"}

    assert load_settings(service(tmp_path), environ=environ).port == 7070


def test_reads_os_environ_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BROKER_URL", "nats://from-env:4222")

    assert load_settings(service(tmp_path)).broker_url == "nats://from-env:4222"


def test_overrides_take_the_type_of_the_file_value(tmp_path: Path) -> None:
    text = EXAMPLE + (
        "features:\n"
        "  auditEnabled: false\n"
        "  sampleRate: 0.5\n"
        "  maxRetries: 3\n"
        "  regions: [eu]\n"
        "  label: '42'\n"
    )
    environ = {
        "FEATURES_AUDIT_ENABLED": "yes",
        "FEATURES_SAMPLE_RATE": "0.25",
        "FEATURES_MAX_RETRIES": "5",
        "FEATURES_REGIONS": "[eu, us]",
        "FEATURES_LABEL": "007",
    }

    settings = load_settings(service(tmp_path, text), environ=environ)

    assert settings.get("features.auditEnabled") is True
    assert settings.get("features.sampleRate") == 0.25
    assert settings.get("features.maxRetries") == 5
    assert settings.get("features.regions") == ("eu", "us")
    assert settings.get("features.label") == "007"


def test_get_reaches_any_key_and_falls_back_to_the_default(tmp_path: Path) -> None:
    settings = load_settings(service(tmp_path), environ={})

    assert settings.get("broker.url") == "nats://localhost:4222"
    assert settings.get("broker.stream") is None
    assert settings.get("broker.url.scheme", "none") == "none"
    assert settings.get("nowhere.at.all", 3) == 3


def test_settings_cannot_be_changed(tmp_path: Path) -> None:
    settings = load_settings(service(tmp_path), environ={})

    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.raw = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        settings.raw["server"]["port"] = 1


def test_missing_sections_take_local_defaults(tmp_path: Path) -> None:
    settings = load_settings(
        service(tmp_path, "application:\n  name: tiny\n"), environ={}
    )

    assert (settings.host, settings.port) == ("127.0.0.1", 8080)
    assert settings.broker_url == "nats://localhost:4222"
    assert settings.database_url == "sqlite:///data/tiny.db"
    assert (settings.log_level, settings.log_format) == ("INFO", "json")


def test_defaults_can_be_overridden_too(tmp_path: Path) -> None:
    text = "application:\n  name: tiny\n"

    settings = load_settings(service(tmp_path, text), environ={"SERVER_PORT": "81"})

    assert settings.port == 81


def with_database(tmp_path: Path, url: str) -> Settings:
    text = f"application:\n  name: svc\ndatabase:\n  url: '{url}'\n"
    return load_settings(service(tmp_path, text), environ={})


def test_relative_sqlite_paths_resolve_against_the_service_dir(tmp_path: Path) -> None:
    settings = with_database(tmp_path, "sqlite+aiosqlite:///data/svc.db?timeout=5")

    assert settings.sqlite_path() == tmp_path.resolve() / "data" / "svc.db"


def test_absolute_sqlite_paths_stay_absolute(tmp_path: Path) -> None:
    settings = with_database(tmp_path, "sqlite:////var/lib/svc/svc.db")

    assert settings.sqlite_path() == Path("/var/lib/svc/svc.db")


@pytest.mark.parametrize(
    "url", ["sqlite://", "sqlite:///:memory:", "postgresql+asyncpg://db/svc"]
)
def test_no_sqlite_path_without_a_sqlite_file(tmp_path: Path, url: str) -> None:
    assert with_database(tmp_path, url).sqlite_path() is None


def test_the_revocation_settings_default_on_and_are_overridable(
    tmp_path: Path,
) -> None:
    directory = service(tmp_path)
    settings = load_settings(directory, environ={})
    assert settings.get("security.revocation_feed") is True
    assert settings.get("security.introspect") is False
    assert settings.get("security.max_token_lifetime_seconds") == 3600

    environ = {
        "SECURITY_REVOCATION_FEED": "false",
        "SECURITY_INTROSPECT": "true",
        "SECURITY_MAX_TOKEN_LIFETIME_SECONDS": "7200",
    }
    settings = load_settings(directory, environ=environ)
    assert settings.get("security.revocation_feed") is False
    assert settings.get("security.introspect") is True
    assert settings.get("security.max_token_lifetime_seconds") == 7200


def test_request_limits_default_and_follow_the_environment(tmp_path: Path) -> None:
    directory = service(tmp_path, "application:\n  name: tiny\n")

    defaults = load_settings(directory, environ={})
    raised = load_settings(
        directory,
        environ={
            "SERVER_MAX_BODY_BYTES": "16777216",
            "SERVER_MAX_JSON_DEPTH": "8",
            "SERVER_GRACEFUL_SHUTDOWN_SECONDS": "1",
        },
    )

    assert (defaults.max_body_bytes, defaults.max_json_depth) == (1024 * 1024, 32)
    assert defaults.graceful_shutdown_seconds == 5
    assert (raised.max_body_bytes, raised.max_json_depth) == (16777216, 8)
    assert raised.graceful_shutdown_seconds == 1
