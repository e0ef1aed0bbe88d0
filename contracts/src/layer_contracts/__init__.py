"""Custom import-linter contract types for rendered hexagonal services."""

from layer_contracts.contract import AllowListContract

__all__ = ["AllowListContract"]
