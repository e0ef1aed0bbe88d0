"""The hand-written parts on a real event store: issuing, the validation codes no HTTP
test reaches (grace period, stopped heartbeats, a policy lowered under a license), and the
key ring."""

from __future__ import annotations

import re
import stat
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

import pytest
from eaf.context import SecurityContext, use
from eaf.eventsourcing import EventStore, close_event_store, open_event_store
from eaf.projectors import projection_store
from license_verifier import verify

from licensing.application.issuing import IssuingLicenseService, new_license_key
from licensing.application.services import MachineService, PolicyService, ProductService
from licensing.application.signing import LicenseKeyRing, license_payload
from licensing.application.validation import Code, Validator
from licensing.domain.model import License
from licensing.infrastructure.persistence import transactions
from licensing.infrastructure.projections import (
    ReadModelLicenseListing,
    ReadModelMachineListing,
    ReadModelPolicyListing,
    ReadModelProductListing,
)


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.instant = datetime(2030, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.instant


@pytest.fixture
async def store() -> AsyncIterator[EventStore]:
    opened = await open_event_store(None)
    yield opened
    await close_event_store(opened)


async def test_licenses_take_their_policy_s_terms_and_validate_by_its_rules(
    store: EventStore,
) -> None:
    clock = Clock()
    wired, rows = transactions(store), projection_store(store)
    products = ProductService(wired, clock, ReadModelProductListing(rows))
    policies = PolicyService(wired, clock, ReadModelPolicyListing(rows))
    licenses = IssuingLicenseService(wired, clock, ReadModelLicenseListing(rows))
    machines = MachineService(wired, clock, ReadModelMachineListing(rows))
    validator = Validator(licenses, policies, machines, clock)
    with use(SecurityContext(tenant_id="acme")):
        product = await products.create(
            code="studio", name="Studio", url="", metadata={}
        )
        policy = await policies.create(
            product_id=UUID(product.id),
            name="Floating, heartbeats",
            duration_days=10,
            max_machines=3,
            floating=True,
            entitlements=["export"],
            grace_period_days=2,
            heartbeat_interval_seconds=600,
        )
        license = await licenses.create(
            key_="",
            policy_id=UUID(policy.id),
            product_id=UUID(product.id),
            name="",
            owner="",
            expires_at=None,
            duration_days=0,
            max_machines=None,
            metadata={},
        )
        assert (license.max_machines, license.duration_days) == (3, 10)
        assert license.expires_at == clock.instant + timedelta(days=10)
        assert (await validator.validate(license.key_)).code is Code.VALID  # floating

        for fingerprint in ("a", "b"):
            await machines.activate(
                license_id=UUID(license.id),
                fingerprint=fingerprint,
                name="",
                platform="",
            )
        clock.instant += timedelta(minutes=11)
        dead = await validator.validate(license.key_, fingerprint="a")
        assert (dead.code, dead.machine is not None) == (Code.HEARTBEAT_DEAD, True)
        machine = await machines.get_by_fingerprint("a")
        assert machine is not None
        await machines.heartbeat(machine.id)
        assert (
            await validator.validate(license.key_, fingerprint="a")
        ).code is Code.VALID

        await policies.update(
            policy.id,
            name=policy.name,
            duration_days=10,
            max_machines=1,
            floating=True,
            entitlements=["export"],
            grace_period_days=2,
            heartbeat_interval_seconds=None,
        )
        lowered = await validator.validate(license.key_)
        assert (lowered.code, lowered.detail) == (
            Code.TOO_MANY_MACHINES,
            "The license has 2 machines, 1 allowed",
        )

        await policies.update(
            policy.id,
            name=policy.name,
            duration_days=10,
            max_machines=None,
            floating=True,
            entitlements=["export"],
            grace_period_days=2,
            heartbeat_interval_seconds=None,
        )
        clock.instant += timedelta(days=11)
        graced = await validator.validate(license.key_)
        assert graced.code is Code.VALID and "grace period" in graced.detail
        clock.instant += timedelta(days=1)
        assert (await validator.validate(license.key_)).code is Code.EXPIRED

        await licenses.revoke(license.id)
        assert (await validator.validate(license.key_)).code is Code.REVOKED

    with use(SecurityContext(tenant_id="globex")):
        assert (await validator.validate(license.key_)).code is Code.NOT_FOUND


def test_generated_keys_are_random_and_fit_the_key_rule() -> None:
    keys = {new_license_key() for _ in range(100)}
    assert len(keys) == 100
    assert all(re.fullmatch(r"[A-Z2-7]{6}(-[A-Z2-7]{6}){3}", key) for key in keys)


def test_the_key_ring_is_created_once_private_and_verifies_its_files(
    tmp_path: Path,
) -> None:
    path = tmp_path / "data" / "license-keys.json"
    ring = LicenseKeyRing.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = LicenseKeyRing.load_or_create(path)
    assert again.jwks() == ring.jwks()
    assert all("d" not in key for key in ring.jwks()["keys"])

    license = License.create(
        key_="AAAAAA-BBBBBB",
        policy_id=UUID(int=1),
        product_id=UUID(int=2),
        name="",
        owner="ada",
        expires_at=None,
        duration_days=0,
        max_machines=None,
        metadata={},
        now=datetime(2030, 1, 1, tzinfo=UTC),
    )
    issued = datetime.now(UTC)
    certificate, kid = again.sign(
        license_payload(license, None, [], issued=issued, ttl=timedelta(days=1))
    )
    facts = verify(certificate, ring.jwks())
    assert (facts.key, facts.owner, facts.key_id, facts.expires_at) == (
        "AAAAAA-BBBBBB",
        "ada",
        kid,
        None,
    )
