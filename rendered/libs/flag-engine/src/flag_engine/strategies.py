"""The built-in activation strategies, compiled with their constraints and segments."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flag_engine.constraints import (
    Clock,
    InvalidRule,
    Predicate,
    Resolver,
    compile_all,
    field_resolver,
    in_networks,
)
from flag_engine.context import Context
from flag_engine.hashing import normalized_hash
from flag_engine.model import Segment, Strategy

_WHOLE = re.compile(r"\+?\d+")


@dataclass(frozen=True, slots=True)
class Environment:
    """What strategies read beyond the context: the host's name, a clock, randomness."""

    hostname: str
    clock: Clock
    rng: random.Random


def _never(context: Context) -> bool:
    return False


def _always(context: Context) -> bool:
    return True


def _percentage(parameters: Mapping[str, str], key: str) -> int | None:
    """The rollout percentage; None when absent or not a whole number (the strategy is off)."""
    text = parameters.get(key)
    if text is None or not _WHOLE.fullmatch(text):
        return None
    percent = int(text)
    if percent > 100:
        raise InvalidRule(f"{key} {text} is over 100")
    return percent


def _rollout(percent: int, stickiness: Resolver, group_id: str) -> Predicate:
    def test(context: Context) -> bool:
        identifier = stickiness(context)
        return (
            identifier is not None and normalized_hash(identifier, group_id) <= percent
        )

    return test


def _stickiness(name: str | None, env: Environment) -> Resolver:
    def random_id(context: Context) -> str:
        return str(env.rng.randrange(1, 10000))

    if name is None or name == "default":
        return lambda context: (
            context.user_id or context.session_id or random_id(context)
        )
    if name == "random":
        return random_id
    return field_resolver(name, env.clock)


def _flexible_rollout(strategy: Strategy, feature: str, env: Environment) -> Predicate:
    parameters = strategy.parameters
    percent = _percentage(parameters, "rollout")
    if percent is None:
        return _never
    group_id = parameters.get("groupId", feature)
    return _rollout(percent, _stickiness(parameters.get("stickiness"), env), group_id)


def _gradual(strategy: Strategy, stickiness: Resolver) -> Predicate:
    percent = _percentage(strategy.parameters, "percentage")
    group_id = strategy.parameters.get("groupId")
    if percent is None or group_id is None:
        return _never
    return _rollout(percent, stickiness, group_id)


def _user_with_id(strategy: Strategy) -> Predicate:
    ids = strategy.parameters.get("userIds")
    if ids is None:
        return _never
    members = frozenset(part.strip() for part in ids.split(","))
    return lambda context: context.user_id is not None and context.user_id in members


def _random(strategy: Strategy, env: Environment) -> Predicate:
    percent = _percentage(strategy.parameters, "percentage")
    if percent is None:
        return _never
    return lambda context: env.rng.randrange(1, 100) < percent


def _hostname(strategy: Strategy, env: Environment) -> Predicate:
    names = strategy.parameters.get("hostNames", "")
    allowed = frozenset(part.strip().lower() for part in names.split(","))
    enabled = env.hostname.lower() in allowed
    return _always if enabled else _never


def _activation(strategy: Strategy, feature: str, env: Environment) -> Predicate:
    builders: dict[str, Callable[[], Predicate]] = {
        "default": lambda: _always,
        "userWithId": lambda: _user_with_id(strategy),
        "gradualRolloutUserId": lambda: _gradual(
            strategy, lambda context: context.user_id
        ),
        "gradualRolloutSessionId": lambda: _gradual(
            strategy, lambda context: context.session_id
        ),
        "gradualRolloutRandom": lambda: _random(strategy, env),
        "flexibleRollout": lambda: _flexible_rollout(strategy, feature, env),
        "remoteAddress": lambda: (
            _never
            if "IPs" not in strategy.parameters
            else in_networks(
                lambda c: c.remote_address, strategy.parameters["IPs"].split(",")
            )
        ),
        "applicationHostname": lambda: _hostname(strategy, env),
    }
    build = builders.get(strategy.name)
    # Custom strategies have no implementation here: off, as in every Unleash SDK.
    return _never if build is None else build()


def compile_strategy(
    strategy: Strategy, feature: str, segments: Mapping[int, Segment], env: Environment
) -> Predicate:
    """The strategy holds for a context: its activation, its constraints and its segments'."""
    activation = _activation(strategy, feature, env)
    constraints = list(strategy.constraints)
    for segment_id in strategy.segments:
        segment = segments.get(segment_id)
        if segment is None:
            raise InvalidRule(f"unknown segment {segment_id}")
        constraints.extend(segment.constraints)
    conditions = compile_all(constraints, env.clock)
    if conditions is None:
        return activation
    return lambda context: activation(context) and conditions(context)
