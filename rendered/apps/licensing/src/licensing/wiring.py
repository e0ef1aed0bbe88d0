"""Factories of the licensing service's hand-written services, which the generated
``bootstrap`` calls in the order ``specs/licensing.yaml`` lists its ``components``."""

from pathlib import Path
from typing import Any

from licensing.application.ports.inbound import (
    LicenseUseCases,
    MachineUseCases,
    PolicyUseCases,
)
from licensing.application.ports.outbound import Clock
from licensing.application.signing import CheckOuts, LicenseKeyRing
from licensing.application.validation import Validator
from licensing.infrastructure.config import Settings


def license_keys(settings: Settings) -> LicenseKeyRing:
    """The Ed25519 keys signing license files (``licensing.keys_file``)."""
    keys_file = Path(str(settings.get("licensing.keys_file", "data/license-keys.json")))
    return LicenseKeyRing.load_or_create(
        keys_file if keys_file.is_absolute() else settings.service_dir / keys_file
    )


def validator(
    license: LicenseUseCases,  # noqa: A002 - the License aggregate's use cases
    policy: PolicyUseCases,
    machine: MachineUseCases,
    clock: Clock,
) -> Validator:
    """License validation by key or id, with its scope and machine checks."""
    return Validator(license, policy, machine, clock)


def check_outs(
    license: LicenseUseCases,  # noqa: A002 - the License aggregate's use cases
    policy: PolicyUseCases,
    queries: dict[str, Any],
    license_keys: LicenseKeyRing,
    clock: Clock,
) -> CheckOuts:
    """Signed offline license files."""
    return CheckOuts(license, policy, queries["Machines"], license_keys, clock)
