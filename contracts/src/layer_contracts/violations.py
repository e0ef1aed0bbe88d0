"""Finding and describing imports that fall outside an allow list."""

from collections.abc import Iterable
from dataclasses import dataclass

from grimp import ImportGraph

from layer_contracts.allow_list import AllowList


@dataclass(frozen=True, order=True)
class Violation:
    """A direct import from a checked module to a module outside the allow list."""

    importer: str
    imported: str
    line_numbers: tuple[int, ...]

    def describe(self) -> str:
        """Render as `importer -> imported (l.3, l.7)`."""
        lines = ", ".join(f"l.{number}" for number in self.line_numbers) or "l.?"
        return f"{self.importer} -> {self.imported} ({lines})"


def modules_in(graph: ImportGraph, package: str) -> set[str]:
    """Return the package and all its descendants present in the graph."""
    if graph.is_module_squashed(package):
        return {package}
    return {package} | graph.find_descendants(package)


def find_violations(
    graph: ImportGraph, source_packages: Iterable[str], allow_list: AllowList
) -> list[Violation]:
    """Return every direct import from the source packages that the allow list rejects, sorted."""
    importers = {module for package in source_packages for module in modules_in(graph, package)}
    violations = [
        Violation(importer, imported, _line_numbers(graph, importer, imported))
        for importer in importers
        for imported in graph.find_modules_directly_imported_by(importer)
        if not allow_list.permits(imported)
    ]
    return sorted(violations)


def _line_numbers(graph: ImportGraph, importer: str, imported: str) -> tuple[int, ...]:
    details = graph.get_import_details(importer=importer, imported=imported)
    return tuple(sorted({detail["line_number"] for detail in details}))
