from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eaf.security import (
    PERMISSION_PATTERN,
    has_permission,
    permission_matches,
    validate_permission,
)


@pytest.mark.parametrize(
    ("granted", "wanted", "allowed"),
    [
        ("license:create", "license:create", True),
        ("license:create", "license:read", False),
        ("license:create", "user:create", False),
        ("license:*", "license:create", True),
        ("license:*", "license:delete", True),
        ("license:*", "user:create", False),
        ("*:read", "license:read", True),
        ("*:read", "user-profile:read", True),
        ("*:read", "license:create", False),
        ("*:*", "anything:at-all", True),
        ("*", "anything:at-all", True),
        ("*", "*", True),
        ("*:*", "*", True),
        ("license:create", "license:*", False),
        ("license:*", "license:*", True),
        ("*:read", "license:*", False),
        ("*:read", "*:read", True),
        ("license:read", "*:read", False),
    ],
)
def test_wildcard_grants(granted: str, wanted: str, allowed: bool) -> None:
    assert permission_matches(granted, wanted) is allowed
    assert has_permission({granted}, wanted) is allowed


def test_any_grant_in_a_set_suffices() -> None:
    granted = {"user-profile:read", "license:*"}
    assert has_permission(granted, "license:revoke")
    assert has_permission(granted, "user-profile:read")
    assert not has_permission(granted, "user-profile:update")
    assert not has_permission(frozenset(), "user-profile:read")


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "license",
        "license:",
        ":read",
        "a:b:c",
        "lic*:read",
        "license:re*d",
        "license read",
    ],
)
def test_malformed_permissions_are_named_in_the_error(bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"invalid permission {bad!r}")):
        validate_permission(bad)
    with pytest.raises(ValueError, match="invalid permission"):
        has_permission({"*"}, bad)
    assert re.search(PERMISSION_PATTERN, bad) is None


@given(st.from_regex(PERMISSION_PATTERN, fullmatch=True))
def test_what_the_documented_pattern_allows_is_a_permission(permission: str) -> None:
    assert validate_permission(permission) == permission


@given(st.text(alphabet="ab*:_.-9 ", max_size=8))
def test_the_documented_pattern_is_the_rule(text: str) -> None:
    try:
        validate_permission(text)
    except ValueError:
        assert re.search(PERMISSION_PATTERN, text) is None
    else:
        assert re.search(PERMISSION_PATTERN, text) is not None


def test_malformed_grants_never_match() -> None:
    assert not has_permission({"license", "lic*:read"}, "license:read")
    with pytest.raises(ValueError, match="'lic\\*:read'"):
        permission_matches("lic*:read", "license:read")
