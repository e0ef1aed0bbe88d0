from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import ServiceTree

PERSISTENCE = "user_profile.infrastructure.persistence"
HEADER = "from __future__ import annotations\n\n"


def offending_lines(output: str) -> list[str]:
    return [line.removeprefix("-   ") for line in output.splitlines() if " -> " in line]


def test_clean_service_keeps_the_contract(service: ServiceTree) -> None:
    result = service.lint()

    assert result.exit_code == 0, result.output
    assert "KEPT" in result.output


def test_stdlib_web_framework_and_own_layers_are_allowed(service: ServiceTree) -> None:
    service.write(
        PERSISTENCE,
        HEADER + "import json\n"
        "import os.path\n"
        "from fastapi import APIRouter\n"
        "from fastapi.responses import JSONResponse\n"
        "from starlette.requests import Request\n"
        "from pydantic import BaseModel\n"
        "from eaf.events import publish\n"
        "from user_profile.domain.model import Profile\n"
        "from user_profile.infrastructure import bootstrap_helpers\n",
    )

    result = service.lint()

    assert result.exit_code == 0, result.output


def test_external_package_outside_the_allow_list_breaks_it(service: ServiceTree) -> None:
    service.write(PERSISTENCE, HEADER + "import thirdparty\n")

    result = service.lint()

    assert result.exit_code == 1, result.output
    assert "BROKEN" in result.output
    assert offending_lines(result.output) == [f"{PERSISTENCE} -> thirdparty (l.3)"]


def test_importing_the_root_bootstrap_module_breaks_it(service: ServiceTree) -> None:
    service.write(PERSISTENCE, HEADER + "from user_profile import bootstrap\n")

    result = service.lint()

    assert result.exit_code == 1, result.output
    assert offending_lines(result.output) == [f"{PERSISTENCE} -> user_profile.bootstrap (l.3)"]


def test_the_root_package_itself_is_not_allowed(service: ServiceTree) -> None:
    service.write("user_profile", "VERSION = '1'\n")
    service.write(PERSISTENCE, HEADER + "from user_profile import VERSION\n")

    result = service.lint()

    assert result.exit_code == 1, result.output
    assert offending_lines(result.output) == [f"{PERSISTENCE} -> user_profile (l.3)"]


def test_disallowing_the_standard_library_makes_json_a_violation(service: ServiceTree) -> None:
    service.write(PERSISTENCE, HEADER + "import json\n")

    result = service.lint(extra="allow_standard_library = False\n")

    assert result.exit_code == 1, result.output
    assert offending_lines(result.output) == [f"{PERSISTENCE} -> json (l.3)"]


def test_every_offending_import_gets_one_sorted_line(service: ServiceTree) -> None:
    service.write(PERSISTENCE, "import thirdparty\nimport requests\nimport thirdparty.sub\n")
    service.write("user_profile.infrastructure", "from user_profile import main\n")

    result = service.lint()

    assert result.exit_code == 1, result.output
    assert offending_lines(result.output) == [
        "user_profile.infrastructure -> user_profile.main (l.1)",
        f"{PERSISTENCE} -> requests (l.2)",
        f"{PERSISTENCE} -> thirdparty (l.1, l.3)",
    ]


def test_other_layers_are_not_checked(service: ServiceTree) -> None:
    service.write("user_profile.domain.model", "import thirdparty\n")

    result = service.lint()

    assert result.exit_code == 0, result.output


def test_ignored_imports_are_not_violations(service: ServiceTree) -> None:
    service.write(PERSISTENCE, "import thirdparty\n")

    result = service.lint(extra=f"ignore_imports =\n    {PERSISTENCE} -> thirdparty\n")

    assert result.exit_code == 0, result.output


def test_missing_include_external_packages_is_a_clear_error(service: ServiceTree) -> None:
    result = service.lint(include_external_packages=False)

    assert result.exit_code == 1, result.output
    assert "include_external_packages = True" in " ".join(result.output.split())
    assert "KEPT" not in result.output


def test_unknown_source_module_is_an_error(service: ServiceTree) -> None:
    result = service.lint(source_modules="user_profile.adapters")

    assert result.exit_code == 1, result.output
    assert "Source module 'user_profile.adapters' does not exist." in result.output


def test_long_offending_lines_are_not_wrapped(service: ServiceTree) -> None:
    long_module = f"{PERSISTENCE}_for_a_deliberately_long_module_name_that_overflows_80_columns"
    service.write(long_module, "import thirdparty\n")

    result = service.lint()

    assert result.exit_code == 1, result.output
    assert offending_lines(result.output) == [f"{long_module} -> thirdparty (l.1)"]
