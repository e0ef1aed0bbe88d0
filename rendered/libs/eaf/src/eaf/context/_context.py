from __future__ import annotations

import asyncio
import contextvars
import functools
import uuid
from collections.abc import Callable, Coroutine, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

T = TypeVar("T")

_current: contextvars.ContextVar[SecurityContext | None] = contextvars.ContextVar(
    "eaf_security_context", default=None
)


class MissingTenantError(RuntimeError):
    """Raised when tenant-scoped work runs without a tenant in its context."""


def _new_id() -> str:
    return str(uuid.uuid4())


@dataclass(frozen=True)
class SecurityContext:
    """Who is acting, for which tenant, and which request or event caused it."""

    tenant_id: str | None = None
    user_id: str | None = None
    roles: frozenset[str] = frozenset()
    permissions: frozenset[str] = frozenset()
    correlation_id: str = field(default_factory=_new_id)
    causation_id: str | None = None
    token: str | None = None
    platform: bool = False
    client_ip: str | None = None
    """The address the request came from (an attribute-based policy's ``env.ip``); not
    carried to the events and messages the request causes."""

    def caused_by(self, causation_id: str) -> SecurityContext:
        """The same actor and correlation, one step further down the causal chain."""
        return replace(self, causation_id=causation_id)

    def to_headers(self) -> dict[str, str]:
        """The context as message or HTTP headers (no token)."""
        headers = {"X-Correlation-Id": self.correlation_id}
        if self.tenant_id is not None:
            headers["X-Tenant-Id"] = self.tenant_id
        if self.user_id is not None:
            headers["X-User-Id"] = self.user_id
        if self.causation_id is not None:
            headers["X-Causation-Id"] = self.causation_id
        if self.platform:
            headers["X-Platform"] = "true"
        return headers

    @classmethod
    def from_headers(cls, headers: Mapping[str, str]) -> SecurityContext:
        """Restore a context written by :meth:`to_headers` (header names are case-insensitive)."""
        lowered = {key.lower(): value for key, value in headers.items()}
        return cls(
            tenant_id=lowered.get("x-tenant-id"),
            user_id=lowered.get("x-user-id"),
            correlation_id=lowered.get("x-correlation-id") or _new_id(),
            causation_id=lowered.get("x-causation-id"),
            platform=lowered.get("x-platform") == "true",
        )


def current_or_none() -> SecurityContext | None:
    """The context of the running task, if any."""
    return _current.get()


def current() -> SecurityContext:
    """The context of the running task; fails when there is none."""
    context = _current.get()
    if context is None:
        raise MissingTenantError("no security context is set for this unit of work")
    return context


def require_tenant() -> str:
    """The current tenant id; fails unless a tenant is set (platform work has none)."""
    context = current()
    if context.tenant_id is None:
        raise MissingTenantError(
            "this operation is tenant-scoped but the security context has no tenant"
        )
    return context.tenant_id


@contextmanager
def use(context: SecurityContext) -> Iterator[SecurityContext]:
    """Run the enclosed block with ``context`` as the security context."""
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)


@contextmanager
def in_tenant(tenant_id: str) -> Iterator[SecurityContext]:
    """Run the enclosed block in ``tenant_id``'s scope as the current actor: the event
    store, the read models and the events' metadata see that tenant, while the user, the
    correlation and the rest of the context stay (a platform operator acting in a tenant
    acts as that tenant's, ``platform`` off). Outside any context, an anonymous one."""
    outer = current_or_none() or SecurityContext()
    with use(replace(outer, tenant_id=tenant_id, platform=False)) as inner:
        yield inner


def platform_context(**overrides: Any) -> SecurityContext:
    """An explicitly platform-level context: no tenant, allowed to see every tenant."""
    return SecurityContext(platform=True, **overrides)


def spawn(coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """Start a task that runs with a copy of the current context (asyncio does this too;
    this makes the intent explicit and works from callbacks that lost the context)."""
    return asyncio.get_running_loop().create_task(
        coroutine, context=contextvars.copy_context()
    )


def copy_to_thread(function: Callable[..., T]) -> Callable[..., T]:
    """Wrap ``function`` so that, called in another thread, it sees this context."""
    snapshot = contextvars.copy_context()

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> T:
        return snapshot.copy().run(function, *args, **kwargs)

    return run
