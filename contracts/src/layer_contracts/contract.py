"""The `allow_list` import-linter contract type."""

from typing import cast

from grimp import ImportGraph
from importlinter.application import contract_utils, output
from importlinter.application.contract_utils import AlertLevel
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck
from importlinter.domain.helpers import module_expressions_to_modules
from importlinter.domain.imports import ImportExpression, Module, ModuleExpression

from layer_contracts.allow_list import AllowList
from layer_contracts.rendering import print_error_line
from layer_contracts.violations import Violation, find_violations

MISSING_EXTERNALS_MESSAGE = (
    "The allow_list contract needs external packages in the import graph: set "
    "'include_external_packages = True' in the top-level importlinter section of the config."
)


class AllowListContract(Contract):
    """Source packages may import only the allowed modules (and, optionally, the stdlib)."""

    type_name = "allow_list"

    source_modules = fields.ListField(subfield=fields.ModuleExpressionField())
    allowed_modules = fields.ListField(subfield=fields.ModuleField())
    allow_standard_library = fields.BooleanField(required=False, default=True)
    ignore_imports = fields.ListField(subfield=fields.ImportExpressionField(), required=False)
    unmatched_ignore_imports_alerting = fields.EnumField(AlertLevel, default=AlertLevel.ERROR)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        """Collect every direct import from the source packages that the allow list rejects."""
        self._require_external_packages()
        warnings = contract_utils.remove_ignored_imports(
            graph=graph,
            ignore_imports=cast("list[ImportExpression] | None", self.ignore_imports),
            unmatched_alerting=cast("AlertLevel", self.unmatched_ignore_imports_alerting),
        )
        sources = self._source_packages(graph)
        output.verbose_print(verbose, f"Checking imports of {', '.join(sources)}...")
        violations = find_violations(graph, sources, self._allow_list())
        return ContractCheck(
            kept=not violations, metadata={"violations": violations}, warnings=warnings
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        """Print one sorted line per offending import, with its line numbers."""
        violations = cast("list[Violation]", check.metadata["violations"])
        output.print_error(f"Imports outside the allow list ({self._allow_list().describe()}):")
        output.new_line()
        for violation in violations:
            print_error_line(f"-   {violation.describe()}")
        output.new_line()

    def _require_external_packages(self) -> None:
        flag = self.session_options.get("include_external_packages")
        if str(flag).lower() != "true":
            raise ValueError(MISSING_EXTERNALS_MESSAGE)

    def _source_packages(self, graph: ImportGraph) -> list[str]:
        packages: set[str] = set()
        for expression in cast("list[ModuleExpression]", self.source_modules):
            matched = module_expressions_to_modules(graph, [expression])
            names = {module.name for module in matched} & graph.modules
            if not names:
                raise ValueError(f"Source module '{expression.expression}' does not exist.")
            packages |= names
        return sorted(packages)

    def _allow_list(self) -> AllowList:
        allowed = cast("list[Module]", self.allowed_modules)
        return AllowList.of(
            (module.name for module in allowed),
            allow_standard_library=cast("bool", self.allow_standard_library),
        )
