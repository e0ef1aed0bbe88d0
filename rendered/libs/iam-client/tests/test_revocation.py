"""The deny list: revoked tokens until they expire, refusals by instant per subject and
per tenant, isolation between tenants, bounded memory; and IamClient consulting it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from eaf.security import AccessClaims, KeyRing, TokenIssuer

from iam_client import AuthenticationError, IamClient, RevocationList

ISSUER = "https://iam.test"
AUDIENCE = "licensing-api"
T0 = 1_750_000_000.0


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def claims(
    *,
    tenant: str | None = "acme",
    subject: str = "u1",
    jti: str = "j1",
    iat: float = T0,
    lifetime: int = 900,
) -> AccessClaims:
    issued = int(iat)
    return AccessClaims(
        subject=subject,
        tenant_id=tenant,
        client_id="web",
        roles=frozenset(),
        permissions=frozenset(),
        scope=frozenset(),
        jti=jti,
        exp=issued + lifetime,
        iat=issued,
        issuer=ISSUER,
        audience=(AUDIENCE,),
        platform=tenant is None,
    )


def iso(instant: float) -> str:
    return datetime.fromtimestamp(instant, UTC).isoformat()


def status_changed(status: str, at: float, **ids: str) -> dict[str, Any]:
    return {**ids, "status": status, "occurred_at": iso(at)}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def revocations(clock: Clock) -> RevocationList:
    return RevocationList(max_token_lifetime=3600, leeway=30, clock=clock)


def test_a_revoked_token_is_refused_until_it_expires(
    revocations: RevocationList, clock: Clock
) -> None:
    token = claims(jti="j1")
    revocations.apply(
        "AccessTokenRevoked",
        "acme",
        {"jti": "j1", "expires_at": iso(token.exp), "occurred_at": iso(T0 + 5)},
    )
    assert revocations.refusal(token) == "token revoked"
    assert revocations.refusal(claims(jti="j2")) is None
    assert len(revocations) == 1

    clock.now = token.exp + 31  # expired, leeway included: nothing left to refuse
    revocations.prune()
    assert len(revocations) == 0


def test_a_disabled_user_s_earlier_tokens_are_refused_and_stay_refused(
    revocations: RevocationList, clock: Clock
) -> None:
    before = claims(iat=T0 - 60)
    disabled_at = T0 + 0.4
    revocations.apply(
        "UserStatusChanged",
        "acme",
        status_changed("DISABLED", disabled_at, user_id="u1"),
    )
    assert revocations.refusal(before) == "token issued before its subject was disabled"
    # iat has whole seconds: a token issued in the second of the disablement is refused.
    assert revocations.refusal(claims(iat=T0)) is not None
    assert revocations.refusal(claims(subject="u2", iat=T0 - 60)) is None

    # Re-activated: the old tokens stay refused, tokens issued later work.
    assert not revocations.apply(
        "UserStatusChanged", "acme", status_changed("ACTIVE", T0 + 2, user_id="u1")
    )
    assert revocations.refusal(before) is not None
    assert revocations.refusal(claims(iat=T0 + 3)) is None


def test_a_user_disabled_by_a_change_of_several_fields_is_refused(
    revocations: RevocationList,
) -> None:
    """IAM's PATCH of a user stores one UserChanged, with the status it leaves."""
    assert not revocations.apply(
        "UserChanged", "acme", status_changed("ACTIVE", T0, user_id="u1")
    )
    assert revocations.refusal(claims(subject="u1", iat=T0 - 1)) is None
    assert revocations.apply(
        "UserChanged", "acme", status_changed("DISABLED", T0, user_id="u1")
    )
    assert revocations.refusal(claims(subject="u1", iat=T0 - 1)) is not None


def test_deleted_users_and_disabled_service_accounts_are_refused(
    revocations: RevocationList,
) -> None:
    revocations.apply(
        "UserStatusChanged", "acme", status_changed("DELETED", T0, user_id="u1")
    )
    revocations.apply(
        "ServiceAccountStatusChanged",
        "acme",
        status_changed("DISABLED", T0, service_account_id="sa1"),
    )
    assert revocations.refusal(claims(subject="u1", iat=T0 - 1)) is not None
    assert revocations.refusal(claims(subject="sa1", iat=T0 - 1)) is not None


def test_a_suspended_tenant_s_earlier_tokens_are_refused(
    revocations: RevocationList,
) -> None:
    revocations.apply(
        "TenantStatusChanged",
        "acme",
        status_changed("SUSPENDED", T0 + 0.5, tenant_id="acme"),
    )
    refused = revocations.refusal(claims(subject="anyone", iat=T0 - 300))
    assert refused == "token issued before its tenant was suspended"
    revocations.apply(
        "TenantStatusChanged",
        "acme",
        status_changed("ACTIVE", T0 + 10, tenant_id="acme"),
    )
    assert revocations.refusal(claims(iat=T0 - 300)) is not None
    assert revocations.refusal(claims(iat=T0 + 11)) is None


def test_refusals_stay_in_their_tenant(revocations: RevocationList) -> None:
    revocations.apply(
        "UserStatusChanged", "tenant-a", status_changed("DISABLED", T0, user_id="u1")
    )
    revocations.apply(
        "AccessTokenRevoked",
        "tenant-a",
        {"jti": "j1", "expires_at": iso(T0 + 900), "occurred_at": iso(T0)},
    )
    revocations.apply(
        "TenantStatusChanged",
        "tenant-c",
        status_changed("SUSPENDED", T0, tenant_id="tenant-c"),
    )
    assert revocations.refusal(claims(tenant="tenant-a", iat=T0 - 1)) is not None
    same_ids_elsewhere = claims(tenant="tenant-b", subject="u1", jti="j1", iat=T0 - 1)
    assert revocations.refusal(same_ids_elsewhere) is None
    # A platform token (no tenant_id) lives in IAM's platform scope.
    assert revocations.refusal(claims(tenant=None, iat=T0 - 1)) is None


def test_platform_administrators_are_refused_in_the_platform_scope(
    revocations: RevocationList,
) -> None:
    revocations.apply(
        "UserStatusChanged", "platform", status_changed("DISABLED", T0, user_id="u1")
    )
    assert revocations.refusal(claims(tenant=None, iat=T0 - 1)) is not None
    assert revocations.refusal(claims(tenant="acme", iat=T0 - 1)) is None


def test_entries_expire_with_the_tokens_they_can_refuse(
    revocations: RevocationList, clock: Clock
) -> None:
    for index in range(100):
        revocations.apply(
            "UserStatusChanged",
            "acme",
            status_changed("DISABLED", T0, user_id=f"u{index}"),
        )
    revocations.apply(
        "TenantStatusChanged",
        "acme",
        status_changed("SUSPENDED", T0, tenant_id="acme"),
    )
    assert len(revocations) == 101
    clock.now = T0 + revocations.window  # every token issued before T0 has expired
    revocations.prune()
    assert len(revocations) == 0
    # A later refusal of the same user keeps it, and only it, for its own window.
    revocations.deny_subject("acme", "u1", T0 + 100)
    revocations.deny_subject("acme", "u1", T0 + 50)
    clock.now = T0 + 100 + revocations.window - 1
    revocations.prune()
    assert len(revocations) == 1


def test_a_token_outliving_the_kept_window_is_refused(
    revocations: RevocationList,
) -> None:
    refused = revocations.refusal(claims(lifetime=7200))
    assert refused == "token lifetime 7200 s exceeds the 3600 s revocations are kept"


def test_unreadable_and_unrelated_events(revocations: RevocationList) -> None:
    with pytest.raises(ValueError, match="jti"):
        revocations.apply("AccessTokenRevoked", "acme", {"expires_at": iso(T0)})
    with pytest.raises(ValueError):
        revocations.apply(
            "UserStatusChanged",
            "acme",
            {"user_id": "u1", "status": "DISABLED", "occurred_at": "yesterday"},
        )
    assert not revocations.apply("UserRolesChanged", "acme", {"user_id": "u1"})
    assert len(revocations) == 0


# IamClient with a deny list


async def test_validate_refuses_what_the_deny_list_refuses(
    key_ring: KeyRing, issuer: TokenIssuer
) -> None:
    revocations = RevocationList()
    client = IamClient(
        issuer=ISSUER, audience=AUDIENCE, jwks=key_ring.jwks(), revocations=revocations
    )
    issued = issuer.issue(subject="u1", client_id="web", tenant_id="acme")
    assert (await client.validate(issued.token)).id == "u1"
    revocations.revoke_token("acme", issued.claims["jti"], issued.claims["exp"])
    with pytest.raises(AuthenticationError, match="token revoked"):
        await client.validate(issued.token)


async def test_introspection_stands_in_while_the_deny_list_is_not_current(
    iam: Any, issuer: TokenIssuer, iam_http: httpx.AsyncClient
) -> None:
    revocations = RevocationList()
    client = IamClient(
        "http://iam.test",
        issuer=ISSUER,
        audience=AUDIENCE,
        http=iam_http,
        revocations=revocations,
        introspect=True,
    )
    token = issuer.issue(subject="u1", client_id="web", tenant_id="acme").token
    iam.revoked.add(token)
    with pytest.raises(AuthenticationError, match="no longer active"):
        await client.validate(token)
    revocations.current = True  # the feed vouches: IAM is not asked
    asked = len(iam.requests)
    assert (await client.validate(token)).id == "u1"
    assert len(iam.requests) == asked


def test_introspection_needs_iam(key_ring: KeyRing) -> None:
    with pytest.raises(ValueError, match="introspect needs base_url"):
        IamClient(
            issuer=ISSUER, audience=AUDIENCE, jwks=key_ring.jwks(), introspect=True
        )
