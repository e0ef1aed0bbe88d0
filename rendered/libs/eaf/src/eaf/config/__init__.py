"""A service's settings: ``config/application.yaml`` with environment overrides."""

from eaf.config._loading import load_settings
from eaf.config._settings import ConfigError, Settings

__all__ = ["ConfigError", "Settings", "load_settings"]
