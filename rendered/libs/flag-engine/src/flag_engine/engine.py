"""Answering flag questions over one client API document."""

from __future__ import annotations

import random
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from flag_engine.constraints import Clock, InvalidRule, Predicate
from flag_engine.context import Context
from flag_engine.model import (
    DISABLED,
    Dependency,
    Document,
    Feature,
    Variant,
    VariantDefinition,
)
from flag_engine.parsing import parse_document
from flag_engine.strategies import Environment, compile_strategy
from flag_engine.variants import select_variant


@dataclass(frozen=True, slots=True)
class _StrategyRule:
    holds: Predicate
    variants: tuple[VariantDefinition, ...]
    stickiness: str
    group_id: str


@dataclass(frozen=True, slots=True)
class _CompiledFeature:
    feature: Feature
    # None: a strategy Unleash cannot compile, which keeps the feature off.
    rules: tuple[_StrategyRule, ...] | None


def _compile(
    feature: Feature, document: Document, env: Environment
) -> _CompiledFeature:
    try:
        rules = tuple(
            _StrategyRule(
                holds=compile_strategy(strategy, feature.name, document.segments, env),
                variants=strategy.variants,
                stickiness=strategy.parameters.get("stickiness", "default"),
                group_id=strategy.parameters.get("groupId", feature.name),
            )
            for strategy in feature.strategies
        )
    except InvalidRule:
        return _CompiledFeature(feature, None)
    return _CompiledFeature(feature, rules)


def _now() -> datetime:
    return datetime.now(UTC)


class Engine:
    """Evaluates flags as the Unleash client specification says, from one document.

    `hostname` is what `applicationHostname` strategies compare with (default: this host's);
    `clock` gives the time for date constraints when the context has none.
    """

    def __init__(
        self,
        document: Document | Mapping[str, object] | str | bytes,
        *,
        hostname: str | None = None,
        clock: Clock = _now,
        rng: random.Random | None = None,
    ) -> None:
        self.document = (
            document if isinstance(document, Document) else parse_document(document)
        )
        self._rng = rng or random.Random()
        env = Environment(
            hostname=socket.gethostname() if hostname is None else hostname,
            clock=clock,
            rng=self._rng,
        )
        self._features = {
            name: _compile(feature, self.document, env)
            for name, feature in self.document.features.items()
        }

    def is_enabled(self, flag: str, context: Context) -> bool:
        """Whether `flag` is on for `context`; unknown flags are off."""
        compiled = self._features.get(flag)
        return compiled is not None and self._enabled(compiled, context)

    def variant(self, flag: str, context: Context) -> Variant:
        """The variant of `flag` for `context`: `disabled` when the flag is off or has none."""
        compiled = self._features.get(flag)
        if compiled is None:
            return DISABLED
        feature = compiled.feature
        if not feature.enabled or not self._dependencies_hold(feature, context):
            return DISABLED
        rules = compiled.rules
        if rules is None:
            return DISABLED
        matched = next((rule for rule in rules if rule.holds(context)), None)
        if matched is None and rules:
            return DISABLED
        chosen = self._choose(compiled, matched, context)
        if chosen is None:
            return Variant("disabled", enabled=False, feature_enabled=True)
        return Variant(
            chosen.name, enabled=True, payload=chosen.payload, feature_enabled=True
        )

    def _enabled(self, compiled: _CompiledFeature, context: Context) -> bool:
        feature = compiled.feature
        if not feature.enabled or compiled.rules is None:
            return False
        if feature.dependencies and not self._dependencies_hold(feature, context):
            return False
        return not compiled.rules or any(rule.holds(context) for rule in compiled.rules)

    def _choose(
        self,
        compiled: _CompiledFeature,
        matched: _StrategyRule | None,
        context: Context,
    ) -> VariantDefinition | None:
        if matched is not None and matched.variants:
            return select_variant(
                matched.variants,
                matched.group_id,
                matched.stickiness,
                context,
                self._rng,
            )
        feature = compiled.feature
        stickiness = feature.variants[0].stickiness if feature.variants else None
        return select_variant(
            feature.variants, feature.name, stickiness, context, self._rng
        )

    def _dependencies_hold(self, feature: Feature, context: Context) -> bool:
        return all(
            self._dependency_holds(dependency, context)
            for dependency in feature.dependencies
        )

    def _dependency_holds(self, dependency: Dependency, context: Context) -> bool:
        parent = self._features.get(dependency.feature)
        # Only one level of dependencies: a parent with parents of its own never satisfies.
        if parent is None or parent.feature.dependencies:
            return False
        if dependency.variants:
            matched = None
            if parent.rules:
                matched = next(
                    (rule for rule in parent.rules if rule.holds(context)), None
                )
            chosen = self._choose(parent, matched, context)
            if chosen is not None and chosen.name not in dependency.variants:
                return False
        return self._enabled(parent, context) == dependency.enabled
