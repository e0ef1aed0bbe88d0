"""Issuing licenses (hand-written: what the spec cannot say): a key generated when the
request leaves it empty, and the terms a request leaves out taken from the policy."""

from __future__ import annotations

import base64
import secrets
from datetime import datetime, timedelta
from uuid import UUID

from licensing.application.ports.outbound import Idempotency, Transaction
from licensing.application.services import LicenseService
from licensing.domain.errors import DomainValidationError, Violation
from licensing.domain.model import License, Policy, Product

__all__ = ["IssuingLicenseService", "new_license_key"]

KEY_BYTES = 15
"""120 random bits: four groups of six base32 characters."""


def new_license_key() -> str:
    """A random license key such as ``K7QX2M-4BZL9A-...`` (base32, no padding)."""
    text = base64.b32encode(secrets.token_bytes(KEY_BYTES)).decode()
    return "-".join(text[i : i + 6] for i in range(0, len(text), 6))


def node_locked_limit(policy: Policy) -> int | None:
    """How many machines a license of ``policy`` may have: one when node-locked, else
    the policy's maximum (None: no limit)."""
    return policy.max_machines if policy.floating else 1


class IssuingLicenseService(LicenseService):
    """The rendered license use cases, with ``create`` issuing: an empty key is generated,
    ``durationDays`` 0 and ``maxMachines`` null take the policy's, and a license without
    ``expiresAt`` expires after the duration."""

    async def create(
        self,
        *,
        key_: str,
        policy_id: UUID,
        product_id: UUID,
        name: str,
        owner: str,
        expires_at: datetime | None,
        duration_days: int,
        max_machines: int | None,
        metadata: dict[str, str],
        idempotency: Idempotency | None = None,
    ) -> License:
        async def work(tx: Transaction) -> License:
            now = self._clock.now()
            policy = await tx.get(Policy, str(policy_id))
            product = await tx.get(Product, str(product_id))
            missing = [
                *(
                    [Violation("policyId", "No policy has this id")]
                    if policy is None
                    else []
                ),
                *(
                    [Violation("productId", "No product has this id")]
                    if product is None
                    else []
                ),
            ]
            if missing or policy is None or product is None:
                raise DomainValidationError.of(*missing)
            days = duration_days or (policy.duration_days or 0)
            created = License.create(
                key_=key_ or new_license_key(),
                policy_id=policy_id,
                product_id=product_id,
                name=name,
                owner=owner,
                expires_at=expires_at
                if expires_at is not None or not days
                else now + timedelta(days=days),
                duration_days=days,
                max_machines=max_machines
                if max_machines is not None
                else node_locked_limit(policy),
                metadata=metadata,
                now=now,
            )
            tx.keep(policy)
            tx.keep(product)
            return tx.save(created)

        # The request as the caller sent it (key left empty): a replay answers the first
        # license, with the key generated then.
        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                key_,
                policy_id,
                product_id,
                name,
                owner,
                expires_at,
                duration_days,
                max_machines,
                metadata,
            ),
            kind=License,
        )
