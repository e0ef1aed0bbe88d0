"""Fixtures that build throwaway service packages and run the real lint-imports on them."""

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT_PACKAGE = "user_profile"

CONTRACT_HEAD = """\
[importlinter]
root_package = user_profile
contract_types =
    allow_list: layer_contracts.AllowListContract
"""

CONTRACT_BODY = """\
[importlinter:contract:infrastructure-allow-list]
name = Infrastructure may import only its own layers, the standard library and the web framework
type = allow_list
source_modules =
    {source_modules}
allowed_modules =
    user_profile.infrastructure
    user_profile.application
    user_profile.domain
    fastapi
    starlette
    pydantic
    eaf
"""

PACKAGES = (
    "user_profile",
    "user_profile.domain",
    "user_profile.application",
    "user_profile.infrastructure",
    "thirdparty",
)

CLEAN_MODULES = {
    "user_profile.bootstrap": "from user_profile.infrastructure import persistence\n",
    "user_profile.main": "from user_profile import bootstrap\n",
    "user_profile.domain.model": "class Profile:\n    pass\n",
    "user_profile.application.service": "from user_profile.domain.model import Profile\n",
    "user_profile.infrastructure.persistence": (
        "from user_profile.application import service\n"
        "from user_profile.domain.model import Profile\n"
    ),
}


@dataclass(frozen=True)
class LintResult:
    """Exit code and combined output of one lint-imports run."""

    exit_code: int
    output: str


class ServiceTree:
    """A throwaway hexagonal service package on disk, checked with lint-imports."""

    def __init__(self, root: Path) -> None:
        self.root = root
        for package in PACKAGES:
            self.root.joinpath(*package.split(".")).mkdir(parents=True)
            self.write(package, "")
        for module, source in CLEAN_MODULES.items():
            self.write(module, source)

    def write(self, module: str, source: str) -> None:
        """Write `source` to the module with this dotted name (a package's `__init__.py`)."""
        base = self.root.joinpath(*module.split("."))
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        path.write_text(source)

    def lint(
        self,
        *,
        include_external_packages: bool = True,
        source_modules: str = "user_profile.infrastructure",
        extra: str = "",
    ) -> LintResult:
        """Write `.importlinter` and run `lint-imports` on the tree in a subprocess."""
        head = CONTRACT_HEAD
        if include_external_packages:
            head += "include_external_packages = True\n"
        config = self.root / ".importlinter"
        body = CONTRACT_BODY.format(source_modules=source_modules)
        config.write_text(f"{head}\n{body}{extra}")
        env = {**os.environ, "PYTHONPATH": str(self.root), "COLUMNS": "80", "NO_COLOR": "1"}
        env.pop("FORCE_COLOR", None)
        completed = subprocess.run(
            [_lint_imports(), "--config", str(config), "--no-cache"],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        return LintResult(completed.returncode, completed.stdout + completed.stderr)


def _lint_imports() -> str:
    script = Path(sys.executable).parent / "lint-imports"
    if not script.exists():
        pytest.fail(f"lint-imports is not installed next to {sys.executable}")
    return str(script)


@pytest.fixture
def service(tmp_path: Path) -> ServiceTree:
    """A clean service package plus a fake `thirdparty` distribution, both under tmp_path."""
    return ServiceTree(tmp_path)
