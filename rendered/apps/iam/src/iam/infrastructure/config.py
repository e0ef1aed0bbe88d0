# Generated from spec iam by `generate`; edits are merged on re-render.

"""Settings of the service: config/application.yaml, overridden by the environment."""

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from eaf.config import Settings
from eaf.config import load_settings as load_service_settings

__all__ = ["SERVICE_DIR", "Settings", "load_settings"]

#: The service's own settings and their defaults (None: required), under the file.
DEFAULTS: dict[str, Any] = {
    "security.issuer": "http://127.0.0.1:8081",
    "security.audience": "eaf",
    "security.keys_file": "data/keys.json",
    "security.secrets_file": "data/secrets.json",
    "security.access_token_ttl_seconds": 900.0,
    "security.refresh_token_ttl_seconds": 2592000.0,
    "security.browser_session_ttl_seconds": 28800.0,
    "security.password_hashing.time_cost": 3,
    "security.password_hashing.memory_cost": 65536,
    "security.password_hashing.parallelism": 4,
    "security.login_throttle.max_failures": 5,
    "security.login_throttle.base_delay_seconds": 1.0,
    "security.login_throttle.max_delay_seconds": 900.0,
    "security.saml.public_url": "",
    "security.saml.keys_dir": "",
    "security.saml.request_ttl_seconds": 600.0,
    "security.saml.clock_skew_seconds": 60,
    "iam.platform_admin.username": "",
    "iam.platform_admin.password": "",
    "iam.platform_admin.email": "",
}

SERVICE_DIR = Path(os.environ.get("IAM_HOME", Path(__file__).resolve().parents[3]))


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of this service (``IAM_HOME`` names its directory)."""
    return load_service_settings(SERVICE_DIR, environ=environ, defaults=DEFAULTS)
