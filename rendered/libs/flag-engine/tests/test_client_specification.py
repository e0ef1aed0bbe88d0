"""Every case of every suite of the official Unleash client specification.

The specification is the npm package `@unleash/client-specification`, which `make test`
installs into `tests/unleash-spec/` at the repository root.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from flag_engine import Context, Engine, Variant

ROOT = Path(__file__).resolve().parents[4]
SPECIFICATIONS = (
    ROOT
    / "tests/unleash-spec/node_modules/@unleash/client-specification/specifications"
)


def _cases() -> list[Any]:
    index = SPECIFICATIONS / "index.json"
    if not index.is_file():
        return [
            pytest.param(None, None, "", {}, None, id="client-specification-installed")
        ]
    cases = []
    for suite in json.loads(index.read_text()):
        spec = json.loads((SPECIFICATIONS / suite).read_text())
        name = suite.removesuffix(".json")
        for kind in ("tests", "variantTests"):
            for case in spec.get(kind, []):
                cases.append(
                    pytest.param(
                        suite,
                        kind,
                        case["toggleName"],
                        case["context"],
                        case["expectedResult"],
                        id=f"{name}: {case['description']}",
                    )
                )
    return cases


@cache
def _engine(suite: str) -> Engine:
    spec = json.loads((SPECIFICATIONS / suite).read_text())
    return Engine(spec["state"], hostname="")


def _as_json(variant: Variant) -> dict[str, object]:
    answer: dict[str, object] = {"name": variant.name, "enabled": variant.enabled}
    if variant.payload is not None:
        answer["payload"] = {
            "type": variant.payload.type,
            "value": variant.payload.value,
        }
    answer["feature_enabled"] = variant.feature_enabled
    return answer


@pytest.mark.parametrize(("suite", "kind", "flag", "context", "expected"), _cases())
def test_client_specification(
    suite: str | None,
    kind: str | None,
    flag: str,
    context: dict[str, Any],
    expected: Any,
) -> None:
    assert suite is not None, (
        f"the Unleash client specification is not installed at {SPECIFICATIONS}: "
        "run `make test` (it runs `npm ci` in tests/unleash-spec)"
    )
    engine = _engine(suite)
    if kind == "tests":
        assert engine.is_enabled(flag, Context.from_mapping(context)) is expected
    else:
        assert _as_json(engine.variant(flag, Context.from_mapping(context))) == expected
