"""Flag evaluation against the Unleash Python SDK's own engine, on the same flags and contexts.

ours:   ``Engine.is_enabled`` + ``Engine.variant`` of flag-engine (pure Python).
theirs: ``UnleashEngine.is_enabled`` + ``get_variant`` of yggdrasil-engine, the Rust engine
        UnleashClient 6.x evaluates with locally (through ctypes, context as JSON).

200 flags (flexible rollouts with default, userId, sessionId and custom stickiness, the
other built-in strategies, constraints of every kind, segments, strategy and feature
variants with overrides, dependencies) and 10,000 contexts; each context asks about
FLAGS_PER_CONTEXT flags in turn. Both sides must give the same answer for every pair: the
number of disagreements is printed and must be 0. Each side runs ROUNDS interleaved rounds;
the median counts.

    python benchmarks/flags.py [contexts]
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "rendered/libs/flag-engine/src"))

from flag_engine import Context, Engine  # noqa: E402
from yggdrasil_engine.engine import UnleashEngine  # noqa: E402

FLAGS = 200
SEGMENTS = 10
FLAGS_PER_CONTEXT = 20
ROUNDS = 3
ENVIRONMENTS = ["production", "staging", "development"]
APPS = ["web", "mobile", "api", "batch"]
PLANS = ["free", "pro", "enterprise"]


def _constraint(rng: random.Random) -> dict[str, Any]:
    kind = rng.randrange(8)
    constraint: dict[str, Any]
    if kind == 0:
        constraint = {
            "contextName": "environment",
            "operator": "IN",
            "values": rng.sample(ENVIRONMENTS, 2),
        }
    elif kind == 1:
        constraint = {"contextName": "appName", "operator": "NOT_IN", "values": [rng.choice(APPS)]}
    elif kind == 2:
        constraint = {
            "contextName": "userId",
            "operator": "STR_STARTS_WITH",
            "values": [f"USER-{rng.randrange(10)}", "user-1"],
            "caseInsensitive": True,
        }
    elif kind == 3:
        constraint = {
            "contextName": "age",
            "operator": rng.choice(["NUM_GT", "NUM_LTE"]),
            "value": str(rng.randrange(18, 70)),
        }
    elif kind == 4:
        constraint = {
            "contextName": "version",
            "operator": rng.choice(["SEMVER_GT", "SEMVER_LT", "SEMVER_EQ"]),
            "value": rng.choice(["1.2.0", "2.0.0-beta.2", "1.10.3", "2.0.0"]),
        }
    elif kind == 5:
        constraint = {
            "contextName": "currentTime",
            "operator": rng.choice(["DATE_AFTER", "DATE_BEFORE"]),
            "value": f"2026-0{rng.randrange(1, 10)}-15T12:00:00.000Z",
        }
    elif kind == 6:
        constraint = {
            "contextName": "email",
            "operator": "STR_ENDS_WITH",
            "values": ["@example.com", "@acme.io"],
        }
    else:
        constraint = {
            "contextName": "remoteAddress",
            "operator": "IN_CIDR",
            "values": ["10.1.0.0/16", "10.3.7.0/24"],
        }
    constraint["inverted"] = rng.random() < 0.2
    return constraint


def _variants(rng: random.Random, prefix: str, count: int) -> list[dict[str, Any]]:
    weights = [1000 // count] * count
    weights[0] += 1000 - sum(weights)
    return [
        {
            "name": f"{prefix}{index}",
            "weight": weight,
            "weightType": "variable",
            "stickiness": "default",
            "payload": {"type": "string", "value": f"{prefix}-payload-{index}"},
        }
        for index, weight in enumerate(weights)
    ]


def _strategy(rng: random.Random, name: str) -> dict[str, Any]:
    kind = rng.random()
    if kind < 0.7:
        strategy: dict[str, Any] = {
            "name": "flexibleRollout",
            "parameters": {
                "rollout": str(rng.choice([0, 10, 25, 50, 75, 100])),
                "stickiness": rng.choice(["default", "userId", "sessionId", "tenant"]),
                "groupId": name,
            },
        }
    elif kind < 0.8:
        ids = ",".join(f"user-{rng.randrange(2000)}" for _ in range(30))
        strategy = {"name": "userWithId", "parameters": {"userIds": ids}}
    elif kind < 0.9:
        strategy = {"name": "default", "parameters": {}}
    elif kind < 0.95:
        strategy = {"name": "remoteAddress", "parameters": {"IPs": "10.0.0.1, 10.2.0.0/16"}}
    else:
        strategy = {
            "name": "gradualRolloutUserId",
            "parameters": {"percentage": str(rng.randrange(101)), "groupId": name},
        }
    strategy["constraints"] = [_constraint(rng) for _ in range(rng.randrange(3))]
    strategy["segments"] = [rng.randrange(1, SEGMENTS + 1)] if rng.random() < 0.3 else []
    strategy["variants"] = (
        _variants(rng, "strategy-variant-", rng.randrange(2, 4)) if rng.random() < 0.3 else []
    )
    return strategy


def client_features(seed: int = 7) -> dict[str, Any]:
    """A realistic `GET /api/client/features` body."""
    rng = random.Random(seed)
    segments = [
        {
            "id": index,
            "name": f"segment-{index}",
            "constraints": [_constraint(rng) for _ in range(rng.randrange(1, 3))],
        }
        for index in range(1, SEGMENTS + 1)
    ]
    features = []
    for index in range(FLAGS):
        name = f"flag-{index:03}"
        feature: dict[str, Any] = {
            "name": name,
            "type": "release",
            "project": "default",
            "enabled": rng.random() < 0.9,
            "impressionData": False,
            "strategies": [_strategy(rng, name) for _ in range(rng.randrange(1, 3))],
            "variants": _variants(rng, "variant-", rng.randrange(2, 5))
            if rng.random() < 0.5
            else [],
        }
        if feature["variants"] and rng.random() < 0.2:
            feature["variants"][-1]["overrides"] = [
                {
                    "contextName": "userId",
                    "values": [f"user-{rng.randrange(200)}" for _ in range(20)],
                }
            ]
        if index >= 20 and rng.random() < 0.1:
            parent = features[rng.randrange(20)]
            dependency: dict[str, Any] = {"feature": parent["name"], "enabled": rng.random() < 0.8}
            if parent["variants"] and rng.random() < 0.5:
                dependency["variants"] = [parent["variants"][0]["name"]]
            feature["dependencies"] = [dependency]
        features.append(feature)
    return {"version": 2, "features": features, "segments": segments}


def contexts(count: int, seed: int = 11) -> list[dict[str, Any]]:
    """Client-specification contexts; every one has the fields the flags stick on."""
    rng = random.Random(seed)
    return [
        {
            "userId": f"user-{index}",
            "sessionId": f"session-{rng.randrange(10**9)}",
            "remoteAddress": f"10.{rng.randrange(4)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
            "environment": rng.choice(ENVIRONMENTS),
            "appName": rng.choice(APPS),
            "currentTime": f"2026-0{rng.randrange(1, 10)}-{rng.randrange(10, 28)}T10:00:00.000Z",
            "properties": {
                "tenant": f"tenant-{rng.randrange(50)}",
                "plan": rng.choice(PLANS),
                "age": str(rng.randrange(16, 80)),
                "version": rng.choice(
                    ["1.1.9", "1.2.0", "1.10.3", "2.0.0-beta.1", "2.0.0-beta.10", "2.0.0", "2.1.0"]
                ),
                "email": f"person{index}@{rng.choice(['example.com', 'acme.io', 'other.org'])}",
            },
        }
        for index in range(count)
    ]


Answer = tuple[bool, str, bool, Any, bool]


def _ours(engine: Engine, pairs: list[tuple[str, Context]]) -> list[Answer]:
    answers = []
    for flag, context in pairs:
        enabled = engine.is_enabled(flag, context)
        variant = engine.variant(flag, context)
        payload = variant.payload
        answers.append(
            (
                enabled,
                variant.name,
                variant.enabled,
                None if payload is None else {"type": payload.type, "value": payload.value},
                variant.feature_enabled,
            )
        )
    return answers


def _theirs(engine: UnleashEngine, pairs: list[tuple[str, dict[str, Any]]]) -> list[Answer]:
    answers = []
    for flag, context in pairs:
        enabled = engine.is_enabled(flag, context).is_enabled
        variant = engine.get_variant(flag, context).variant
        answers.append(
            (
                enabled,
                variant.name,
                variant.enabled,
                variant.payload or None,
                variant.feature_enabled,
            )
        )
    return answers


def _timed(run: Callable[[], list[Answer]]) -> tuple[float, list[Answer]]:
    start = time.perf_counter()
    answers = run()
    return time.perf_counter() - start, answers


def main(count: int) -> None:
    document = client_features()
    raw_contexts = contexts(count)
    ours = Engine(document, hostname="bench")
    theirs = UnleashEngine()
    theirs.take_state(json.dumps(document))

    flag_names = [feature["name"] for feature in document["features"]]
    ours_pairs = []
    theirs_pairs = []
    for index, raw in enumerate(raw_contexts):
        context = Context.from_mapping(raw)
        for step in range(FLAGS_PER_CONTEXT):
            flag = flag_names[(index * 7 + step * 13) % FLAGS]
            ours_pairs.append((flag, context))
            theirs_pairs.append((flag, raw))

    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    disagreements = -1
    enabled_share = 0.0
    for _ in range(ROUNDS):
        ours_time, ours_answers = _timed(lambda: _ours(ours, ours_pairs))
        theirs_time, theirs_answers = _timed(lambda: _theirs(theirs, theirs_pairs))
        times["ours"].append(ours_time)
        times["theirs"].append(theirs_time)
        if disagreements < 0:
            wrong = [
                (pair[0], pair[1], mine, theirs_answer)
                for pair, mine, theirs_answer in zip(
                    theirs_pairs, ours_answers, theirs_answers, strict=True
                )
                if mine != theirs_answer
            ]
            disagreements = len(wrong)
            for flag, raw, mine, theirs_answer in wrong[:5]:
                print(
                    f"disagreement on {flag} for {raw['userId']}: "
                    f"ours {mine}, theirs {theirs_answer}"
                )
            enabled_share = sum(answer[0] for answer in ours_answers) / len(ours_answers)

    evaluations = 2 * len(ours_pairs)
    ours_rate = evaluations / statistics.median(times["ours"])
    theirs_rate = evaluations / statistics.median(times["theirs"])
    print(
        f"{FLAGS} flags, {count} contexts x {FLAGS_PER_CONTEXT} flags = {len(ours_pairs)} pairs, "
        f"is_enabled + variant each ({evaluations} evaluations), {enabled_share:.0%} enabled; "
        f"median of {ROUNDS} interleaved rounds"
    )
    print(f"{'flag-engine:':<22} {ours_rate:>10,.0f} evaluations/s")
    print(f"{'yggdrasil-engine:':<22} {theirs_rate:>10,.0f} evaluations/s")
    print(f"ratio (ours/theirs throughput): {ours_rate / theirs_rate:.2f}")
    print(f"disagreements: {disagreements}")
    assert disagreements == 0, f"{disagreements} (flag, context) pairs answered differently"


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
