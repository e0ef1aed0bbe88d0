"""A service's own settings: declared with their defaults, read with their types."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from eaf.config import ConfigError, load_settings

DECLARED = {
    "security.token_ttl_seconds": 900,
    "security.issuer": "http://127.0.0.1:8081",
    "security.keys_file": "data/keys.json",
    "security.throttle.base_delay_seconds": 1.5,
    "security.strict": True,
    "security.bind_password": None,
}


def service(tmp_path: Path, text: str = "") -> Path:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "application.yaml").write_text(
        "application:\n  name: svc\n" + text, encoding="utf-8"
    )
    return tmp_path


def test_declared_defaults_are_read_with_their_types(tmp_path: Path) -> None:
    settings = load_settings(service(tmp_path), environ={}, defaults=DECLARED)

    assert settings.seconds("security.token_ttl_seconds") == timedelta(minutes=15)
    assert settings.text("security.issuer") == "http://127.0.0.1:8081"
    assert settings.path("security.keys_file") == tmp_path.resolve() / "data/keys.json"
    assert settings.number("security.throttle.base_delay_seconds") == 1.5
    assert settings.flag("security.strict") is True
    assert settings.integer("security.token_ttl_seconds") == 900


def test_the_file_and_then_the_environment_override_a_declared_default(
    tmp_path: Path,
) -> None:
    text = "security:\n  token_ttl_seconds: 60\n  issuer: https://id.example\n"
    environ = {"SECURITY_TOKEN_TTL_SECONDS": "120", "SECURITY_STRICT": "off"}

    settings = load_settings(
        service(tmp_path, text), environ=environ, defaults=DECLARED
    )

    assert settings.seconds("security.token_ttl_seconds") == timedelta(minutes=2)
    assert settings.text("security.issuer") == "https://id.example"
    assert settings.flag("security.strict") is False
    # the file's other keys of the same section keep the declared defaults
    assert settings.text("security.keys_file") == "data/keys.json"


def test_an_absolute_path_is_kept(tmp_path: Path) -> None:
    environ = {"SECURITY_KEYS_FILE": "/run/secrets/keys.json"}

    settings = load_settings(service(tmp_path), environ=environ, defaults=DECLARED)

    assert settings.path("security.keys_file") == Path("/run/secrets/keys.json")


def test_a_setting_without_default_is_required_and_names_its_variable(
    tmp_path: Path,
) -> None:
    settings = load_settings(service(tmp_path), environ={}, defaults=DECLARED)

    with pytest.raises(ConfigError) as error:
        settings.text("security.bind_password")

    assert "security.bind_password is required" in str(error.value)
    assert "SECURITY_BIND_PASSWORD" in str(error.value)


def test_an_empty_string_is_a_value_but_no_path(tmp_path: Path) -> None:
    text = "security:\n  issuer: ''\n  keys_file: ''\n"
    settings = load_settings(service(tmp_path, text), environ={}, defaults=DECLARED)

    assert settings.text("security.issuer") == ""
    with pytest.raises(ConfigError, match="security.keys_file must be a path"):
        settings.path("security.keys_file")


def test_a_required_setting_is_given_by_the_environment(tmp_path: Path) -> None:
    environ = {"SECURITY_BIND_PASSWORD": "s3cret"}

    settings = load_settings(service(tmp_path), environ=environ, defaults=DECLARED)

    assert settings.text("security.bind_password") == "s3cret"


@pytest.mark.parametrize(
    ("text", "read", "expected"),
    [
        ("security:\n  token_ttl_seconds: soon\n", "seconds", "a number of seconds"),
        ("security:\n  token_ttl_seconds: -5\n", "seconds", "(0 or more)"),
        ("security:\n  token_ttl_seconds: true\n", "integer", "an integer"),
        ("security:\n  strict: maybe\n", "flag", "a boolean"),
        ("security:\n  issuer: [a, b]\n", "text", "a string"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_key(
    tmp_path: Path, text: str, read: str, expected: str
) -> None:
    settings = load_settings(service(tmp_path, text), environ={}, defaults=DECLARED)
    key = text.split(":\n  ", 1)[1].split(":", 1)[0]

    with pytest.raises(ConfigError) as error:
        getattr(settings, read)(f"security.{key}")

    assert f"security.{key} must be" in str(error.value)
    assert expected in str(error.value)


def test_an_integer_from_the_environment_is_refused_when_malformed(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError, match="SECURITY_TOKEN_TTL_SECONDS"):
        load_settings(
            service(tmp_path),
            environ={"SECURITY_TOKEN_TTL_SECONDS": "ten"},
            defaults=DECLARED,
        )


def test_a_declared_number_takes_a_fraction_from_the_environment_over_a_whole_one(
    tmp_path: Path,
) -> None:
    declared = {**DECLARED, "security.token_ttl_seconds": 900.0}
    text = "security:\n  token_ttl_seconds: 900\n"  # the file writes it whole
    environ = {"SECURITY_TOKEN_TTL_SECONDS": "1.5"}

    settings = load_settings(
        service(tmp_path, text), environ=environ, defaults=declared
    )

    assert settings.seconds("security.token_ttl_seconds") == timedelta(seconds=1.5)
