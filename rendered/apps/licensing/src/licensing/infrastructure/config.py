# Generated from spec licensing by `generate`; edits are merged on re-render.

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
    "licensing.keys_file": "data/license-keys.json",
}

SERVICE_DIR = Path(
    os.environ.get("LICENSING_HOME", Path(__file__).resolve().parents[3])
)


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of this service (``LICENSING_HOME`` names its directory)."""
    return load_service_settings(SERVICE_DIR, environ=environ, defaults=DEFAULTS)
