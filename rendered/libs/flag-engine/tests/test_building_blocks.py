"""The hash, semantic versions and Rust regex patterns the engine builds on."""

from __future__ import annotations

import pytest

from flag_engine import normalized_hash
from flag_engine.patterns import compile_pattern
from flag_engine.versions import precedence


def test_normalized_hash_matches_the_other_unleash_sdks() -> None:
    assert normalized_hash("123", "gr1") == 73
    assert normalized_hash("999", "groupX") == 25


def test_semver_precedence_orders_pre_releases_below_their_release() -> None:
    ordered = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0",
    ]
    keys = [precedence(version) for version in ordered]
    assert all(key is not None for key in keys)
    assert sorted(ordered, key=lambda v: precedence(v) or ()) == ordered
    assert precedence("1.0.0+build.5") == precedence("1.0.0")


@pytest.mark.parametrize("version", ["v1.0.0", "1.0", "01.0.0", "1.0.0-01", "1.0.0-"])
def test_semver_refuses_what_strict_semver_refuses(version: str) -> None:
    assert precedence(version) is None


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        ("^(?i)abc$", "AbC", True),
        ("a(?i)b|c", "C", True),
        ("^[[:digit:]]+$", "123", True),
        ("^abc$", "abc\n", False),
        (r"\x{41}", "A", True),
        ("(?<name>x)", "x", True),
    ],
)
def test_rust_patterns_match_as_in_rust(pattern: str, text: str, matches: bool) -> None:
    compiled = compile_pattern(pattern)
    assert compiled is not None
    assert (compiled.search(text) is not None) is matches


@pytest.mark.parametrize(
    "pattern", ["(?=a)", "(?<!a)b", r"(a)\1", r"\p{L}", "[a&&b]", "(unclosed"]
)
def test_patterns_rust_refuses_match_nothing(pattern: str) -> None:
    assert compile_pattern(pattern) is None
