"""IAM's deny list as a service knows it: revoked access tokens, and per subject (a user or
a service account) and per tenant the instant before which their tokens are refused.

Entries are kept only as long as a token they can refuse may still be valid, so memory
stays bounded by the revocations of one token lifetime.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from eaf.security import AccessClaims

#: IAM's event scope of platform tokens, which carry no ``tenant_id``.
PLATFORM_SCOPE = "platform"
ACTIVE = "ACTIVE"

ACCESS_TOKEN_REVOKED = "AccessTokenRevoked"
USER_STATUS_CHANGED = "UserStatusChanged"
#: A user's change (a merge patch of its status, roles, attributes, password) carries the
#: status it leaves the user in.
USER_CHANGED = "UserChanged"
SERVICE_ACCOUNT_STATUS_CHANGED = "ServiceAccountStatusChanged"
TENANT_STATUS_CHANGED = "TenantStatusChanged"
#: IAM's events that feed the deny list.
EVENT_TYPES = (
    ACCESS_TOKEN_REVOKED,
    USER_STATUS_CHANGED,
    USER_CHANGED,
    SERVICE_ACCOUNT_STATUS_CHANGED,
    TENANT_STATUS_CHANGED,
)
_SUBJECT_FIELDS = {
    USER_STATUS_CHANGED: "user_id",
    USER_CHANGED: "user_id",
    SERVICE_ACCOUNT_STATUS_CHANGED: "service_account_id",
}

K = TypeVar("K")


class _Expiring(Generic[K]):
    """Instants by key, each kept until its own deadline; a later instant wins."""

    def __init__(self) -> None:
        self._entries: dict[K, tuple[float, float]] = {}
        self._deadlines: list[tuple[float, K]] = []

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> float | None:
        entry = self._entries.get(key)
        return None if entry is None else entry[0]

    def put(self, key: K, instant: float, keep_until: float) -> None:
        known = self._entries.get(key)
        if known is not None and known[0] >= instant:
            return
        self._entries[key] = (instant, keep_until)
        heapq.heappush(self._deadlines, (keep_until, key))

    def prune(self, now: float) -> None:
        while self._deadlines and self._deadlines[0][0] <= now:
            _, key = heapq.heappop(self._deadlines)
            entry = self._entries.get(key)
            # A superseded deadline leaves the entry that replaced it alone.
            if entry is not None and entry[1] <= now:
                del self._entries[key]


class RevocationList:
    """What IAM has revoked, disabled or suspended, consulted by ``IamClient.validate``.

    ``max_token_lifetime`` bounds how long a refusal by instant is kept (a token issued
    before it expires by then), so a longer-lived token is refused outright. ``current``
    says whether the feed filling the list has caught up with the broker right now.
    """

    def __init__(
        self,
        *,
        max_token_lifetime: float = 3600.0,
        leeway: float = 30.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if max_token_lifetime <= 0 or leeway < 0:
            raise ValueError("max_token_lifetime must be positive, leeway not negative")
        self.max_token_lifetime = max_token_lifetime
        self.leeway = leeway
        self.current = False
        self._clock = clock
        self._tokens: _Expiring[tuple[str, str]] = _Expiring()
        self._subjects: _Expiring[tuple[str, str]] = _Expiring()
        self._tenants: _Expiring[str] = _Expiring()

    @property
    def window(self) -> float:
        """How many seconds back an event can still refuse a token valid now."""
        return self.max_token_lifetime + self.leeway

    def __len__(self) -> int:
        return len(self._tokens) + len(self._subjects) + len(self._tenants)

    def revoke_token(self, scope: str, jti: str, expires_at: float) -> None:
        """Refuse the token ``jti`` of ``scope`` (a tenant id) until it expires."""
        self._tokens.put((scope, jti), expires_at, expires_at + self.leeway)
        self.prune()

    def deny_subject(self, scope: str, subject: str, since: float) -> None:
        """Refuse the tokens of ``subject`` in ``scope`` issued at or before ``since``."""
        self._subjects.put((scope, subject), since, since + self.window)
        self.prune()

    def deny_tenant(self, scope: str, since: float) -> None:
        """Refuse every token of the tenant ``scope`` issued at or before ``since``."""
        self._tenants.put(scope, since, since + self.window)
        self.prune()

    def prune(self) -> None:
        """Forget the entries that can no longer refuse a token that is still valid."""
        now = self._clock()
        for entries in (self._tokens, self._subjects, self._tenants):
            entries.prune(now)

    def apply(self, event_type: str, scope: str, payload: Mapping[str, Any]) -> bool:
        """Record one of IAM's :data:`EVENT_TYPES` published in ``scope``; False when it
        refuses nothing (another type, a status back to ACTIVE). ``ValueError`` for a
        payload without the fields it needs."""
        if event_type == ACCESS_TOKEN_REVOKED:
            self.revoke_token(
                scope, _text(payload, "jti"), _instant(payload, "expires_at")
            )
            return True
        if event_type not in _SUBJECT_FIELDS and event_type != TENANT_STATUS_CHANGED:
            return False
        # A re-activation does not revive the tokens issued before the refusal.
        if _text(payload, "status") == ACTIVE:
            return False
        since = _instant(payload, "occurred_at")
        if event_type == TENANT_STATUS_CHANGED:
            self.deny_tenant(_text(payload, "tenant_id"), since)
        else:
            self.deny_subject(scope, _text(payload, _SUBJECT_FIELDS[event_type]), since)
        return True

    def refusal(self, claims: AccessClaims) -> str | None:
        """Why the token of ``claims`` is refused, or None."""
        scope = claims.tenant_id if claims.tenant_id is not None else PLATFORM_SCOPE
        if claims.exp - claims.iat > self.max_token_lifetime:
            return (
                f"token lifetime {claims.exp - claims.iat} s exceeds the"
                f" {self.max_token_lifetime:g} s revocations are kept"
            )
        if self._tokens.get((scope, claims.jti)) is not None:
            return "token revoked"
        # ``iat`` has whole seconds: a token of the same second as the refusal is
        # refused too, whether it was issued just before or just after it.
        since = self._tenants.get(scope)
        if since is not None and claims.iat <= since:
            return "token issued before its tenant was suspended"
        since = self._subjects.get((scope, claims.subject))
        if since is not None and claims.iat <= since:
            return "token issued before its subject was disabled"
        return None


def _text(payload: Mapping[str, Any], name: str) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} is missing or not a string")
    return value


def _instant(payload: Mapping[str, Any], name: str) -> float:
    """An ISO 8601 timestamp of the payload in seconds since the epoch (naive: UTC)."""
    moment = datetime.fromisoformat(_text(payload, name))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
