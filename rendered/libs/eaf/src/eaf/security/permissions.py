"""Permission strings ``<resource>:<action>`` and their wildcard grants.

A grant may replace either segment with ``*`` (``license:*``, ``*:read``, ``*:*``), and the
bare ``*`` grants everything. Partial wildcards such as ``lic*:read`` are not permissions.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from functools import lru_cache

WILDCARD = "*"
_SEGMENT = r"(?:\*|[A-Za-z0-9][A-Za-z0-9_.-]*)"
_PATTERN = re.compile(rf"{_SEGMENT}:{_SEGMENT}")
PERMISSION_PATTERN = rf"^(?:\*|{_SEGMENT}:{_SEGMENT})$"
"""Every well-formed permission or grant, for JSON Schema (``validate_permission``'s rule)."""


def validate_permission(permission: str) -> str:
    """``permission`` itself when it is a well-formed permission or grant pattern."""
    if permission == WILDCARD or (
        isinstance(permission, str) and _PATTERN.fullmatch(permission)
    ):
        return permission
    raise ValueError(
        f"invalid permission {permission!r}: expected '<resource>:<action>', either part"
        " may be '*' (letters, digits, '_', '.', '-')"
    )


def validate_permissions(permissions: Iterable[str]) -> frozenset[str]:
    """All of ``permissions``, validated."""
    return frozenset(validate_permission(permission) for permission in permissions)


@lru_cache(maxsize=4096)
def _grants_for(wanted: str) -> tuple[str, ...]:
    """Every grant that would allow ``wanted``: itself and its wildcard forms."""
    validate_permission(wanted)
    if wanted == WILDCARD:
        return (WILDCARD, "*:*")
    resource, action = wanted.split(":")
    return (wanted, f"{resource}:*", f"*:{action}", "*:*", WILDCARD)


def permission_matches(granted: str, wanted: str) -> bool:
    """Whether the grant ``granted`` (possibly a wildcard) allows ``wanted``."""
    return validate_permission(granted) in _grants_for(wanted)


def has_permission(granted: Collection[str], wanted: str) -> bool:
    """Whether any grant in ``granted`` allows ``wanted`` (constant time in the grants)."""
    return any(grant in granted for grant in _grants_for(wanted))
