"""The security context of the current unit of work, carried in ``contextvars``."""

from eaf.context._context import (
    MissingTenantError,
    SecurityContext,
    copy_to_thread,
    current,
    current_or_none,
    platform_context,
    require_tenant,
    spawn,
    use,
)

__all__ = [
    "MissingTenantError",
    "SecurityContext",
    "copy_to_thread",
    "current",
    "current_or_none",
    "platform_context",
    "require_tenant",
    "spawn",
    "use",
]
