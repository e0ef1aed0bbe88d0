"""Which tenant's events a unit of work may write and read, from the security context."""

from __future__ import annotations

from dataclasses import dataclass

from eaf.context import MissingTenantError, current, require_tenant

__all__ = ["ReadScope", "read_scope", "write_tenant"]


@dataclass(frozen=True)
class ReadScope:
    """One tenant's events, or (``tenant_id is None``) every tenant's, for platform work."""

    tenant_id: str | None

    @property
    def platform(self) -> bool:
        return self.tenant_id is None

    def allows(self, tenant_id: str) -> bool:
        return self.tenant_id is None or self.tenant_id == tenant_id


def write_tenant() -> str:
    """The tenant that appends and tenant-scoped reads act for; fails without one."""
    return require_tenant()


def read_scope() -> ReadScope:
    """The current tenant, or every tenant when the context is explicitly platform-level."""
    context = current()
    if context.tenant_id is not None:
        return ReadScope(context.tenant_id)
    if context.platform:
        return ReadScope(None)
    raise MissingTenantError(
        "reading events needs a tenant in the security context, or a platform context"
    )
