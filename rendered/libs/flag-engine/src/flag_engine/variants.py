"""Choosing a variant: overrides first, then a sticky weighted pick."""

from __future__ import annotations

import random
from collections.abc import Sequence

from flag_engine.context import Context
from flag_engine.hashing import VARIANT_SEED, normalized_hash
from flag_engine.model import VariantDefinition


def _field(context: Context, name: str) -> str | None:
    if name == "userId":
        return context.user_id
    if name == "sessionId":
        return context.session_id
    if name == "environment":
        return context.environment
    if name == "appName":
        return context.app_name
    if name == "remoteAddress":
        return context.remote_address
    return context.properties.get(name)


def _seed(stickiness: str | None, context: Context) -> str | None:
    if stickiness is None or stickiness == "default":
        return context.user_id or context.session_id
    return _field(context, stickiness)


def _override(
    variants: Sequence[VariantDefinition], context: Context
) -> VariantDefinition | None:
    for variant in variants:
        for override in variant.overrides:
            if override.context_name == "currentTime":
                moment = context.current_time
                value = None if moment is None else moment.isoformat()
            else:
                value = _field(context, override.context_name)
            if value is not None and value in override.values:
                return variant
    return None


def select_variant(
    variants: Sequence[VariantDefinition],
    group_id: str,
    stickiness: str | None,
    context: Context,
    rng: random.Random,
) -> VariantDefinition | None:
    """The variant for this context; None when there is none to give.

    Contexts without the stickiness field get a random pick, not a sticky one.
    """
    if not variants:
        return None
    chosen = _override(variants, context)
    if chosen is not None:
        return chosen
    total = sum(variant.weight for variant in variants)
    if total <= 0:
        return None
    seed = _seed(stickiness, context)
    target = (
        rng.randint(1, total)
        if seed is None
        else normalized_hash(seed, group_id, total, VARIANT_SEED)
    )
    counter = 0
    for variant in variants:
        counter += variant.weight
        if counter >= target:
            return variant
    return None
