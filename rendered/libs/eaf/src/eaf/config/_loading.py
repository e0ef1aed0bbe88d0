from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from eaf.config._settings import _FALSE, _TRUE, ConfigError, Settings, _variable

CONFIG_FILE = Path("config") / "application.yaml"
PORT_VARIABLE = "PORT"
_LOG_LEVELS = frozenset(logging.getLevelNamesMapping()) - {"NOTSET", "WARN", "FATAL"}
_LOG_FORMATS = frozenset({"json", "text"})


def load_settings(
    service_dir: Path | str,
    *,
    environ: Mapping[str, str] | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> Settings:
    """Read ``<service_dir>/config/application.yaml`` and apply environment overrides.

    ``defaults`` (dotted key to value, None for a setting with no default) are the
    service's own settings, under the file. Every leaf ``a.b_c`` can be overridden by
    the variable ``A_B_C`` (camelCase keys become snake case), coerced to the type of
    the value it replaces; ``PORT`` overrides ``server.port`` above all.
    """
    environ = os.environ if environ is None else environ
    service_dir = Path(service_dir).resolve()
    config_file = service_dir / CONFIG_FILE
    from_file = _read_yaml(config_file)

    sources: dict[str, str] = {}
    declared: dict[str, Any] = {}
    for dotted, value in (defaults or {}).items():
        *parents, leaf = dotted.split(".")
        node = declared
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = value
    tree = _with_defaults(
        _merge(declared, from_file), _application_name(from_file, config_file, environ)
    )
    for dotted, _ in _leaves(tree):
        sources[dotted] = (
            str(config_file) if _has(from_file, dotted) else "the defaults"
        )
    for dotted, variable in _overrides(tree, environ):
        sources[dotted] = f"environment variable {variable}"
        _set(
            tree,
            dotted,
            # a declared setting takes its default's type, whatever the file holds
            _coerce(dotted, environ[variable], _typed(dotted, defaults, tree), sources),
        )

    _validate(tree, sources)
    return Settings(raw=_frozen(tree), service_dir=service_dir, config_file=config_file)


def env_variable(dotted: str) -> str:
    """The variable that overrides a dotted key: ``server.port`` → ``SERVER_PORT``."""
    return _variable(dotted)


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"configuration file not found: {path}") from None
    except OSError as error:
        raise ConfigError(f"cannot read configuration file {path}: {error}") from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigError(
            f"invalid YAML in {path}{_location(error)}: {_problem(error)}"
        ) from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise ConfigError(f"{path} must hold a mapping at the top level")
    _check_keys(document, path, "")
    return document


def _location(error: yaml.YAMLError) -> str:
    mark = getattr(error, "problem_mark", None)
    if mark is None:
        return ""
    return f", line {mark.line + 1}, column {mark.column + 1}"


def _problem(error: yaml.YAMLError) -> str:
    problem = getattr(error, "problem", None)
    return str(problem) if problem else str(error)


def _check_keys(node: dict[Any, Any], path: Path, prefix: str) -> None:
    for key, value in node.items():
        if not isinstance(key, str):
            # YAML 1.1 reads bare `on:` or `yes:` as booleans; say so rather than guess.
            raise ConfigError(
                f"{path}: key {key!r} under '{prefix or '<top>'}' must be a string"
            )
        if isinstance(value, dict):
            _check_keys(value, path, f"{prefix}{key}.")


def _application_name(
    from_file: Mapping[str, Any], config_file: Path, environ: Mapping[str, str]
) -> str:
    name = environ.get(env_variable("application.name")) or _get(
        from_file, "application.name"
    )
    if not isinstance(name, str) or not name:
        raise ConfigError(
            f"application.name must be a non-empty string in {config_file}"
        )
    return name


def _with_defaults(from_file: Mapping[str, Any], name: str) -> dict[str, Any]:
    defaults = {
        "application": {"name": name},
        "server": {
            "host": "127.0.0.1",
            "port": 8080,
            "max_body_bytes": 1024 * 1024,
            "max_json_depth": 32,
            "graceful_shutdown_seconds": 5,
        },
        "broker": {
            "url": "nats://localhost:4222",
            "relay": True,
            "consume": True,
            "embedded": False,
            "replicas": 1,
        },
        "security": {
            "iam_url": "http://127.0.0.1:8081",
            "issuer": "",
            "audience": "eaf",
            "revocation_feed": True,
            "introspect": False,
            "max_token_lifetime_seconds": 3600,
        },
        "database": {"url": f"sqlite:///data/{name}.db"},
        "flags": {"url": ""},
        "logging": {"level": "INFO", "format": "json"},
    }
    return _merge(defaults, from_file)


def _merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in top.items():
        below = merged.get(key)
        if isinstance(below, Mapping) and isinstance(value, Mapping):
            merged[key] = _merge(below, value)
        else:
            merged[key] = _merge({}, value) if isinstance(value, Mapping) else value
    return merged


def _leaves(node: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in node.items():
        if isinstance(value, Mapping):
            yield from _leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _overrides(
    tree: Mapping[str, Any], environ: Mapping[str, str]
) -> Iterator[tuple[str, str]]:
    for dotted, _ in list(_leaves(tree)):
        variable = env_variable(dotted)
        if variable in environ:
            yield dotted, variable
    # Only over a port setting; a malformed ``server`` is reported by the validation.
    if PORT_VARIABLE in environ and _has(tree, "server.port"):
        yield "server.port", PORT_VARIABLE


def _typed(
    dotted: str, defaults: Mapping[str, Any] | None, tree: Mapping[str, Any]
) -> Any:
    """The value whose type an override of ``dotted`` takes."""
    declared = (defaults or {}).get(dotted)
    return _get(tree, dotted) if declared is None else declared


def _coerce(dotted: str, text: str, current: Any, sources: Mapping[str, str]) -> Any:
    def wrong(expected: str) -> ConfigError:
        return ConfigError(
            f"{dotted} must be {expected}, got {text!r} (from {sources[dotted]})"
        )

    if isinstance(current, bool):
        if text.strip().lower() in _TRUE:
            return True
        if text.strip().lower() in _FALSE:
            return False
        raise wrong("a boolean (true/false)")
    if isinstance(current, int):
        try:
            return int(text)
        except ValueError:
            raise wrong("an integer") from None
    if isinstance(current, float):
        try:
            return float(text)
        except ValueError:
            raise wrong("a number") from None
    if isinstance(current, list):
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError:
            value = None
        if not isinstance(value, list):
            raise wrong("a YAML list such as [a, b]")
        return value
    return text


def _validate(tree: dict[str, Any], sources: Mapping[str, str]) -> None:
    def fail(dotted: str, expected: str) -> ConfigError:
        value = _get(tree, dotted)
        source = _source_of(dotted, sources)
        return ConfigError(
            f"{dotted} must be {expected}, got {value!r} (from {source})"
        )

    for dotted in ("application.name", "server.host", "broker.url", "database.url"):
        if not isinstance(_get(tree, dotted), str):
            raise fail(dotted, "a string")
    port = _get(tree, "server.port")
    if isinstance(port, bool) or not isinstance(port, int):
        raise fail("server.port", "an integer")
    if not 0 <= port <= 65535:
        raise fail("server.port", "between 0 and 65535")
    for dotted in (
        "server.max_body_bytes",
        "server.max_json_depth",
        "server.graceful_shutdown_seconds",
        "broker.replicas",
    ):
        value = _get(tree, dotted)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise fail(dotted, "a positive integer")
    level = _get(tree, "logging.level")
    if not isinstance(level, str) or level.upper() not in _LOG_LEVELS:
        raise fail("logging.level", f"one of {', '.join(sorted(_LOG_LEVELS))}")
    _set(tree, "logging.level", level.upper())
    if _get(tree, "logging.format") not in _LOG_FORMATS:
        raise fail("logging.format", "'json' or 'text'")


def _source_of(dotted: str, sources: Mapping[str, str]) -> str:
    """Where a key came from; under a scalar parent (``server: 8080``), the parent's."""
    keys = dotted.split(".")
    for end in range(len(keys), 0, -1):
        source = sources.get(".".join(keys[:end]))
        if source is not None:
            return source
    return "the defaults"


def _has(node: Mapping[str, Any], dotted: str) -> bool:
    sentinel = object()
    return _get(node, dotted, sentinel) is not sentinel


def _get(node: Mapping[str, Any], dotted: str, default: Any = None) -> Any:
    value: Any = node
    for key in dotted.split("."):
        if not isinstance(value, Mapping) or key not in value:
            return default
        value = value[key]
    return value


def _set(tree: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, leaf = dotted.split(".")
    node: Any = tree
    for key in parents:
        node = node[key]
    node[leaf] = value


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value
