# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from eaf import context
from eaf.web import (
    PROBLEM_TYPE,
    DomainErrors,
    Problem,
    RuleCheck,
    install_domain_problems,
)
from fastapi import APIRouter, Depends, FastAPI, Header

from iam.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)

LIST_LIMIT = 10_000
PROBLEM: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem, "content": {PROBLEM_TYPE: {}}}
    for status in (404, 409, 412, 422)
}
DEFAULT_TENANT = "default"
TENANT_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


async def tenant_scope(
    x_tenant_id: Annotated[
        str, Header(alias="X-Tenant-Id", pattern=TENANT_PATTERN)
    ] = DEFAULT_TENANT,
) -> AsyncIterator[None]:
    """Run the request in its tenant's security context (``X-Tenant-Id``, else the
    default tenant); every read and write of the event store is scoped to it. Declare
    a ``permission`` on the spec's endpoints to take the tenant from bearer tokens."""
    current = context.current_or_none() or context.SecurityContext()
    with context.use(replace(current, tenant_id=x_tenant_id)):
        yield


router = APIRouter(dependencies=[Depends(tenant_scope)])


def utc_now() -> datetime:
    """The instant computed values are computed at."""
    return datetime.now(UTC)


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
