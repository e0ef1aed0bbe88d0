# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Enums and value objects of the configuration domain."""

from __future__ import annotations

from dataclasses import dataclass

from configuration.domain.errors import (
    Violation,
)


@dataclass(frozen=True, kw_only=True)
class Property:
    """A property's value as stored; a secret holds the ciphertext, never the value"""

    value_: str
    secret: bool = False
    key_id: str | None = None

    def problems(self, prefix: str = "") -> list[Violation]:
        """The rules and invariants this value breaks (paths under ``prefix``)."""
        found: list[Violation] = []
        found.extend(self.check_value_(self.value_, prefix + "value"))
        found.extend(self.check_key_id(self.key_id, prefix + "keyId"))
        return found

    @staticmethod
    def check_value_(value: str, path: str = "value") -> list[Violation]:
        """The rules of ``value`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 65536:
            found.append(Violation(path, "Value allows at most 65536 characters"))
        return found

    @staticmethod
    def check_key_id(value: str | None, path: str = "keyId") -> list[Violation]:
        """The rules of ``keyId`` that ``value`` breaks."""
        found: list[Violation] = []
        if value is None:
            return found
        if len(value) > 100:
            found.append(Violation(path, "Key id allows at most 100 characters"))
        return found
