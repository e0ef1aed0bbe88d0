"""Semantic versions as Unleash's SEMVER_* operators read them (SemVer 2.0, strict)."""

from __future__ import annotations

import re

_VERSION = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)

PreRelease = tuple[tuple[int, int, str], ...]
Precedence = tuple[int, int, int, int, PreRelease]


def precedence(text: str) -> Precedence | None:
    """A key ordering versions by SemVer precedence (build metadata ignored), or None if invalid.

    A release ranks above its pre-releases; pre-release identifiers compare numerically when
    numeric, below alphanumeric ones, and a longer list ranks above its prefix.
    """
    match = _VERSION.fullmatch(text)
    if match is None:
        return None
    major, minor, patch, pre = match.groups()
    if pre is None:
        return int(major), int(minor), int(patch), 1, ()
    identifiers = tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in pre.split(".")
    )
    return int(major), int(minor), int(patch), 0, identifiers
