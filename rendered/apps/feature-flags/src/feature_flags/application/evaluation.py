"""Evaluation of a tenant's flags in one environment (hand-written: the part no spec says).

The flags and segments of the read models become the Unleash client API document (what
`GET /api/client/features` serves and what Unleash SDKs evaluate locally); the flag-engine
library evaluates it for OFREP. A document is built once per (tenant, environment) and
reused while the flags and segments it came from are unchanged (its ETag is their digest).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from flag_engine import Context, Engine

from feature_flags.domain.model import Flag, Segment
from feature_flags.domain.types import Constraint, Strategy, Variant

__all__ = [
    "Evaluation",
    "Evaluations",
    "FlagNotFoundError",
    "Snapshot",
    "client_document",
]


class FlagNotFoundError(LookupError):
    """No flag of that key in the tenant (or it is archived)."""


class Listing(Protocol):
    """The read model queries the evaluation reads (the tenant's rows)."""

    async def list(self) -> Sequence[Any]: ...


def _constraint(constraint: Constraint) -> dict[str, Any]:
    document: dict[str, Any] = {
        "contextName": constraint.context_name,
        "operator": constraint.operator.value,
        "values": list(constraint.values_),
        "inverted": constraint.inverted,
        "caseInsensitive": constraint.case_insensitive,
    }
    if constraint.value_ is not None:
        document["value"] = constraint.value_
    return document


def _variant(variant: Variant) -> dict[str, Any]:
    document: dict[str, Any] = {
        "name": variant.name,
        "weight": variant.weight,
        "weightType": "variable",
        "stickiness": variant.stickiness,
    }
    if variant.payload_ is not None:
        document["payload"] = {
            "type": variant.payload_.type_.value,
            "value": variant.payload_.value_,
        }
    return document


def _strategy(strategy: Strategy, segment_ids: Mapping[str, int]) -> dict[str, Any]:
    return {
        "name": strategy.name,
        "parameters": dict(strategy.parameters),
        "constraints": [_constraint(c) for c in strategy.constraints],
        # A removed segment no longer matches anyone: -1 names no segment.
        "segments": [segment_ids.get(str(s), -1) for s in strategy.segments],
        "variants": [_variant(v) for v in strategy.variants],
    }


def client_document(
    flags: Sequence[Flag], segments: Sequence[Segment], environment: str
) -> dict[str, Any]:
    """The Unleash client API document (version 2) of ``flags`` in ``environment``: a
    flag without a configuration there is off; archived flags are left out."""
    ordered = sorted(segments, key=lambda s: s.name)
    segment_ids = {str(segment.id): index + 1 for index, segment in enumerate(ordered)}
    features = []
    for flag in sorted(flags, key=lambda f: f.key_):
        if flag.archived_:
            continue
        config = flag.environments.get(environment)
        features.append(
            {
                "name": flag.key_,
                "type": flag.type_.value,
                "project": str(flag.project_id),
                "enabled": config is not None and config.enabled,
                "stale": flag.stale,
                "impressionData": flag.impression_data,
                "strategies": [
                    _strategy(s, segment_ids)
                    for s in (config.strategies if config is not None else [])
                ],
                "variants": [_variant(v) for v in flag.variants],
                "dependencies": [
                    {
                        "feature": d.feature,
                        "enabled": d.enabled,
                        **({"variants": list(d.variants)} if d.variants else {}),
                    }
                    for d in flag.dependencies
                ],
            }
        )
    return {
        "version": 2,
        "features": features,
        "segments": [
            {
                "id": segment_ids[str(segment.id)],
                "name": segment.name,
                "constraints": [_constraint(c) for c in segment.constraints],
            }
            for segment in ordered
        ],
        "query": {"environment": environment},
    }


@dataclass(frozen=True)
class Evaluation:
    """One flag's answer: enabled or not, and the variant (``disabled`` when none)."""

    key: str
    enabled: bool
    variant: str
    payload: dict[str, Any] | None
    reason: str
    valued: bool = False
    """Whether the flag's variants carry payloads (its value is then a payload)."""


@dataclass(frozen=True)
class Snapshot:
    """A tenant's flags in one environment: the client document, its ETag, its engine."""

    document: dict[str, Any]
    etag: str
    engine: Engine

    @cached_property
    def features(self) -> dict[str, dict[str, Any]]:
        """The document's features by name (a bulk evaluation looks each up once)."""
        return {feature["name"]: feature for feature in self.document["features"]}

    def flag_keys(self) -> list[str]:
        return list(self.features)

    def evaluate(self, key: str, context: Mapping[str, Any]) -> Evaluation:
        """``key`` for ``context`` (the keys of Unleash's context: userId, sessionId,
        remoteAddress, environment, appName, currentTime, properties; any other key is
        a property)."""
        feature = self.features.get(key)
        if feature is None:
            raise FlagNotFoundError(key)
        given = _unleash_context(context, self.document["query"]["environment"])
        enabled = self.engine.is_enabled(key, given)
        variant = self.engine.variant(key, given)
        if not feature["enabled"]:
            reason = "DISABLED"
        elif variant.enabled:
            reason = "SPLIT"
        elif feature["strategies"]:
            reason = "TARGETING_MATCH" if enabled else "DEFAULT"
        else:
            reason = "STATIC"
        payload = None
        if variant.enabled and variant.payload is not None:
            payload = {"type": variant.payload.type, "value": variant.payload.value}
        valued = any(
            "payload" in v
            for v in feature["variants"]
            + [v for s in feature["strategies"] for v in s["variants"]]
        )
        return Evaluation(key, enabled, variant.name, payload, reason, valued)


_CONTEXT_KEYS = {
    "userId",
    "sessionId",
    "remoteAddress",
    "environment",
    "appName",
    "currentTime",
    "properties",
}


def _unleash_context(context: Mapping[str, Any], environment: str) -> Context:
    """An OpenFeature evaluation context as Unleash's: ``targetingKey`` is the user id;
    keys Unleash does not name become properties (string values)."""
    given: dict[str, Any] = {"environment": environment}
    properties: dict[str, str] = {}
    for name, value in context.items():
        if name == "targetingKey":
            given.setdefault("userId", str(value))
        elif name == "properties" and isinstance(value, Mapping):
            properties.update({str(k): str(v) for k, v in value.items()})
        elif name in _CONTEXT_KEYS:
            given[name] = str(value)
        else:
            properties[name] = value if isinstance(value, str) else json.dumps(value)
    given["environment"] = environment
    given["properties"] = properties
    return Context.from_mapping(given)


class Evaluations:
    """Snapshots of the tenant's flags per environment, rebuilt when the read models
    changed (compared through the digest of what they hold)."""

    def __init__(self, flags: Listing, segments: Listing) -> None:
        self._flags = flags
        self._segments = segments
        self._cache: dict[tuple[str, str], Snapshot] = {}

    async def snapshot(self, tenant: str, environment: str) -> Snapshot:
        flags = list(await self._flags.list())
        segments = list(await self._segments.list())
        document = client_document(flags, segments, environment)
        text = json.dumps(document, sort_keys=True, separators=(",", ":"))
        etag = '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
        cached = self._cache.get((tenant, environment))
        if cached is not None and cached.etag == etag:
            return cached
        snapshot = Snapshot(document, etag, Engine(document))
        self._cache[(tenant, environment)] = snapshot
        return snapshot
