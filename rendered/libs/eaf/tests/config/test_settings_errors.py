from __future__ import annotations

from pathlib import Path

import pytest

from eaf.config import ConfigError, load_settings


def service(tmp_path: Path, text: str) -> Path:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "application.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def config_file(tmp_path: Path) -> str:
    return str(tmp_path.resolve() / "config" / "application.yaml")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found") as error:
        load_settings(tmp_path, environ={})

    assert config_file(tmp_path) in str(error.value)


def test_invalid_yaml_names_the_file_and_line(tmp_path: Path) -> None:
    text = "application:\n  name: svc\nserver:\n  port: [8080\n"

    with pytest.raises(ConfigError) as error:
        load_settings(service(tmp_path, text), environ={})

    assert config_file(tmp_path) in str(error.value)
    assert "line 5" in str(error.value)


def test_a_port_that_is_not_an_integer_names_the_key_and_the_file(
    tmp_path: Path,
) -> None:
    text = "application:\n  name: svc\nserver:\n  port: eighty\n"

    with pytest.raises(ConfigError) as error:
        load_settings(service(tmp_path, text), environ={})

    message = str(error.value)
    assert "server.port must be an integer" in message
    assert "'eighty'" in message
    assert config_file(tmp_path) in message


@pytest.mark.parametrize("variable", ["SERVER_PORT", "PORT"])
def test_a_port_variable_that_is_not_an_integer_is_named(
    tmp_path: Path, variable: str
) -> None:
    text = "application:\n  name: svc\n"

    with pytest.raises(ConfigError) as error:
        load_settings(service(tmp_path, text), environ={variable: "http"})

    source = f"environment variable {variable}"
    assert (
        str(error.value)
        == f"server.port must be an integer, got 'http' (from {source})"
    )


def test_a_port_out_of_range_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="between 0 and 65535"):
        load_settings(
            service(tmp_path, "application:\n  name: svc\n"), environ={"PORT": "70000"}
        )


def test_a_boolean_override_must_read_as_a_boolean(tmp_path: Path) -> None:
    text = "application:\n  name: svc\nfeatures:\n  audit: true\n"

    with pytest.raises(ConfigError, match="FEATURES_AUDIT"):
        load_settings(service(tmp_path, text), environ={"FEATURES_AUDIT": "maybe"})


def test_the_application_name_is_required(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"application\.name"):
        load_settings(service(tmp_path, "server:\n  port: 8080\n"), environ={})


def test_the_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="mapping"):
        load_settings(service(tmp_path, "- just\n- a list\n"), environ={})


def test_a_section_replaced_by_a_scalar_is_reported_with_its_source(
    tmp_path: Path,
) -> None:
    text = "application:\n  name: svc\nserver: 8080\n"

    with pytest.raises(ConfigError) as error:
        load_settings(service(tmp_path, text), environ={})

    assert "server.host must be a string" in str(error.value)
    assert config_file(tmp_path) in str(error.value)


def test_an_unknown_log_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"logging\.format"):
        load_settings(
            service(tmp_path, "application:\n  name: svc\n"),
            environ={"LOGGING_FORMAT": "xml"},
        )


def test_non_string_keys_are_refused(tmp_path: Path) -> None:
    # YAML 1.1 reads a bare `on` as the boolean true.
    text = "application:\n  name: svc\ntriggers:\n  on: push\n"

    with pytest.raises(ConfigError, match="must be a string"):
        load_settings(service(tmp_path, text), environ={})


def test_port_over_a_server_that_is_not_a_mapping_is_a_config_error(
    tmp_path: Path,
) -> None:
    text = "application:\n  name: svc\nserver: 8080\n"

    with pytest.raises(ConfigError) as error:
        load_settings(service(tmp_path, text), environ={"PORT": "9000"})

    assert "server" in str(error.value)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        (
            "SERVER_MAX_BODY_BYTES",
            "0",
            "server.max_body_bytes must be a positive integer",
        ),
        (
            "SERVER_MAX_JSON_DEPTH",
            "-1",
            "server.max_json_depth must be a positive integer",
        ),
        ("SERVER_MAX_JSON_DEPTH", "deep", "server.max_json_depth must be an integer"),
        (
            "SERVER_GRACEFUL_SHUTDOWN_SECONDS",
            "0",
            "server.graceful_shutdown_seconds must be a positive integer",
        ),
    ],
)
def test_request_limits_must_be_positive(
    tmp_path: Path, variable: str, value: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(
            service(tmp_path, "application:\n  name: svc\n"), environ={variable: value}
        )
