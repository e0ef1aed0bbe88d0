"""The rule deciding which imported modules an allow-list contract accepts."""

import sys
from collections.abc import Iterable
from dataclasses import dataclass

ALWAYS_ALLOWED = frozenset({"__future__"})


def is_within(module: str, package: str) -> bool:
    """Return whether `module` is `package` itself or one of its descendants."""
    return module == package or module.startswith(f"{package}.")


@dataclass(frozen=True)
class AllowList:
    """Modules (with their descendants) that checked code may import."""

    packages: tuple[str, ...]
    allow_standard_library: bool

    @classmethod
    def of(cls, packages: Iterable[str], *, allow_standard_library: bool) -> "AllowList":
        """Build an allow list from package names."""
        return cls(tuple(sorted(set(packages))), allow_standard_library)

    def describe(self) -> str:
        """List what is allowed, for humans."""
        stdlib = ("the standard library",) if self.allow_standard_library else ()
        return ", ".join(stdlib + self.packages)

    def permits(self, imported: str) -> bool:
        """Return whether importing the module named `imported` is allowed."""
        top_level = imported.partition(".")[0]
        if top_level in ALWAYS_ALLOWED:
            return True
        if self.allow_standard_library and top_level in sys.stdlib_module_names:
            return True
        return any(is_within(imported, package) for package in self.packages)
