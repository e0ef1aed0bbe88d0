# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP adapter's error handling: domain failures answered as RFC 9457 problem bodies
listing every broken rule (the spec declares no endpoint; hand-written routers get it)."""

from __future__ import annotations

from eaf.web import (
    DomainErrors,
    RuleCheck,
    install_domain_problems,
    problem_responses,
)
from fastapi import FastAPI

from iam.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)

# The problem answers a route documents (hand-written routers use it too).
PROBLEM = problem_responses(404, 409, 412, 422)


# The rules of each request body, by route and field path, so that a request that breaks
# them is answered with the spec's messages (the models state the same rules to clients).
RULES: dict[str, dict[str, RuleCheck]] = {}
NESTED_RULES: dict[str, RuleCheck] = {}
UNIQUE_FIELDS: dict[tuple[str, str], str] = {}


def install_error_handlers(app: FastAPI) -> None:
    """Answer bad requests and domain failures with problem bodies."""
    install_domain_problems(
        app,
        DomainErrors(
            validation=DomainValidationError,
            not_found=NotFoundError,
            conflict=ConcurrencyError,
            refused=DomainError,
            service="iam",
            rules=RULES,
            nested_rules=NESTED_RULES,
            unique_fields=UNIQUE_FIELDS,
        ),
    )
