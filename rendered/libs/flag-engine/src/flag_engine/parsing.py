"""Reading the Unleash client API document (or a delta of it) into `model` values.

Unknown keys are ignored and null reads as absent, as Unleash clients do; a present value of
the wrong shape is a `DocumentError` naming its path (`features[2].strategies[0].parameters`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TypeVar

from flag_engine.model import (
    EMPTY,
    Constraint,
    Dependency,
    Document,
    Feature,
    Override,
    Payload,
    Segment,
    Strategy,
    VariantDefinition,
)

T = TypeVar("T")
Raw = Mapping[str, object]


class DocumentError(ValueError):
    """A malformed part of a client API document, at `path`."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _object(value: object, path: str) -> Raw:
    if not isinstance(value, Mapping):
        raise DocumentError(path, f"expected an object, got {_kind(value)}")
    return value


def _list(
    raw: Raw, key: str, path: str, item: Callable[[object, str], T]
) -> tuple[T, ...]:
    value = raw.get(key)
    if value is None:
        return ()
    where = _join(path, key)
    if not isinstance(value, list):
        raise DocumentError(where, f"expected a list, got {_kind(value)}")
    return tuple(
        item(element, f"{where}[{index}]") for index, element in enumerate(value)
    )


def _string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise DocumentError(path, f"expected a string, got {_kind(value)}")
    return value


def _required_string(raw: Raw, key: str, path: str) -> str:
    if key not in raw or raw[key] is None:
        raise DocumentError(_join(path, key), "missing (a string is required)")
    return _string(raw[key], _join(path, key))


def _optional_string(raw: Raw, key: str, path: str) -> str | None:
    value = raw.get(key)
    return None if value is None else _string(value, _join(path, key))


def _boolean(raw: Raw, key: str, path: str, default: bool | None = None) -> bool:
    value = raw.get(key)
    if value is None and default is not None:
        return default
    if not isinstance(value, bool):
        expected = "missing (a boolean is required)" if value is None else None
        raise DocumentError(
            _join(path, key), expected or f"expected a boolean, got {_kind(value)}"
        )
    return value


def _integer(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DocumentError(path, f"expected an integer, got {_kind(value)}")
    return value


def _parameters(raw: Raw, path: str) -> Mapping[str, str]:
    value = raw.get("parameters")
    if value is None:
        return EMPTY
    where = _join(path, "parameters")
    parameters: dict[str, str] = {}
    for key, item in _object(value, where).items():
        # Older servers send numbers for rollout percentages; they read as their text.
        if isinstance(item, int | float) and not isinstance(item, bool):
            item = str(item)
        parameters[key] = _string(item, f"{where}.{key}")
    return MappingProxyType(parameters)


def parse_constraint(value: object, path: str) -> Constraint:
    raw = _object(value, path)
    return Constraint(
        context_name=_required_string(raw, "contextName", path),
        operator=_required_string(raw, "operator", path),
        values=_list(raw, "values", path, _string),
        value=_optional_string(raw, "value", path),
        inverted=_boolean(raw, "inverted", path, default=False),
        case_insensitive=_boolean(raw, "caseInsensitive", path, default=False),
    )


def _payload(raw: Raw, path: str) -> Payload | None:
    value = raw.get("payload")
    if value is None:
        return None
    where = _join(path, "payload")
    payload = _object(value, where)
    return Payload(
        type=_required_string(payload, "type", where),
        value=_required_string(payload, "value", where),
    )


def _override(value: object, path: str) -> Override:
    raw = _object(value, path)
    return Override(
        context_name=_required_string(raw, "contextName", path),
        values=_list(raw, "values", path, _string),
    )


def _variant(value: object, path: str) -> VariantDefinition:
    raw = _object(value, path)
    if raw.get("weight") is None:
        raise DocumentError(_join(path, "weight"), "missing (an integer is required)")
    return VariantDefinition(
        name=_required_string(raw, "name", path),
        weight=_integer(raw["weight"], _join(path, "weight")),
        stickiness=_optional_string(raw, "stickiness", path),
        payload=_payload(raw, path),
        overrides=_list(raw, "overrides", path, _override),
    )


def _strategy(value: object, path: str) -> Strategy:
    raw = _object(value, path)
    return Strategy(
        name=_required_string(raw, "name", path),
        parameters=_parameters(raw, path),
        constraints=_list(raw, "constraints", path, parse_constraint),
        segments=_list(raw, "segments", path, _integer),
        variants=_list(raw, "variants", path, _variant),
    )


def _dependency(value: object, path: str) -> Dependency:
    raw = _object(value, path)
    variants = raw.get("variants")
    return Dependency(
        feature=_required_string(raw, "feature", path),
        enabled=_boolean(raw, "enabled", path, default=True),
        variants=None if variants is None else _list(raw, "variants", path, _string),
    )


def parse_feature(value: object, path: str) -> Feature:
    raw = _object(value, path)
    return Feature(
        name=_required_string(raw, "name", path),
        enabled=_boolean(raw, "enabled", path),
        strategies=_list(raw, "strategies", path, _strategy),
        variants=_list(raw, "variants", path, _variant),
        dependencies=_list(raw, "dependencies", path, _dependency),
        impression_data=_boolean(raw, "impressionData", path, default=False),
        project=_optional_string(raw, "project", path) or "default",
        type=_optional_string(raw, "type", path),
        description=_optional_string(raw, "description", path),
    )


def parse_segment(value: object, path: str) -> Segment:
    raw = _object(value, path)
    if raw.get("id") is None:
        raise DocumentError(_join(path, "id"), "missing (an integer is required)")
    return Segment(
        id=_integer(raw["id"], _join(path, "id")),
        constraints=_list(raw, "constraints", path, parse_constraint),
        name=_optional_string(raw, "name", path),
    )


def _load(document: Raw | str | bytes) -> Raw:
    if isinstance(document, str | bytes):
        try:
            document = json.loads(document)
        except ValueError as error:
            raise DocumentError("", f"not JSON: {error}") from error
    return _object(document, "")


def parse_document(document: Raw | str | bytes) -> Document:
    """A full client API document, or a delta document (`{"events": [...]}`) applied to nothing."""
    raw = _load(document)
    if "events" in raw and "features" not in raw:
        return apply_delta(Document(), raw)
    if raw.get("features") is None:
        raise DocumentError("features", "missing (a list is required)")
    features = _list(raw, "features", "", parse_feature)
    segments = _list(raw, "segments", "", parse_segment)
    version = raw.get("version")
    return Document(
        features={feature.name: feature for feature in features},
        segments={segment.id: segment for segment in segments},
        version=2 if version is None else _integer(version, "version"),
    )


def apply_delta(base: Document, delta: Raw | str | bytes) -> Document:
    """`base` after the events of a delta document (hydration, feature and segment changes)."""
    raw = _load(delta)
    features = dict(base.features)
    segments = dict(base.segments)
    events: Sequence[Raw] = _list(raw, "events", "", _object)
    for index, event in enumerate(events):
        path = f"events[{index}]"
        kind = _required_string(event, "type", path)
        if kind == "hydration":
            features = {
                f.name: f for f in _list(event, "features", path, parse_feature)
            }
            segments = {s.id: s for s in _list(event, "segments", path, parse_segment)}
        elif kind == "feature-updated":
            feature = parse_feature(event.get("feature"), _join(path, "feature"))
            features[feature.name] = feature
        elif kind == "feature-removed":
            features.pop(_required_string(event, "featureName", path), None)
        elif kind == "segment-updated":
            segment = parse_segment(event.get("segment"), _join(path, "segment"))
            segments[segment.id] = segment
        elif kind == "segment-removed":
            if event.get("segmentId") is None:
                raise DocumentError(
                    _join(path, "segmentId"), "missing (an integer is required)"
                )
            segments.pop(_integer(event["segmentId"], _join(path, "segmentId")), None)
        else:
            raise DocumentError(_join(path, "type"), f"unknown event type {kind!r}")
    return Document(features=features, segments=segments, version=base.version)
