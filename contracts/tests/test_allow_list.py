import pytest

from layer_contracts.allow_list import AllowList
from layer_contracts.violations import Violation

ALLOW_LIST = AllowList.of(["user_profile.domain", "fastapi"], allow_standard_library=True)
NO_STDLIB = AllowList.of(["user_profile.domain"], allow_standard_library=False)


@pytest.mark.parametrize(
    "imported",
    ["user_profile.domain", "user_profile.domain.model", "fastapi", "fastapi.responses", "json"],
)
def test_permits_allowed_modules_their_descendants_and_stdlib(imported: str) -> None:
    assert ALLOW_LIST.permits(imported)


@pytest.mark.parametrize(
    "imported", ["user_profile", "user_profile.domainish", "fastapix", "requests", "thirdparty"]
)
def test_rejects_everything_else(imported: str) -> None:
    assert not ALLOW_LIST.permits(imported)


def test_stdlib_can_be_disallowed_but_future_cannot() -> None:
    assert not NO_STDLIB.permits("json")
    assert NO_STDLIB.permits("__future__")


def test_describes_what_is_allowed() -> None:
    assert ALLOW_LIST.describe() == "the standard library, fastapi, user_profile.domain"
    assert NO_STDLIB.describe() == "user_profile.domain"


def test_violation_describes_importer_imported_and_lines() -> None:
    violation = Violation("pkg.infrastructure.db", "requests", (3, 7))

    assert violation.describe() == "pkg.infrastructure.db -> requests (l.3, l.7)"
