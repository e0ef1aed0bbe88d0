"""Subjects: ``<prefix>.<tenant>.<service>.<EventType>``, consumer filters, replays."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

PLATFORM_TENANT = "_platform"
"""The tenant token of platform-level events, which belong to no tenant."""

_TOKEN = re.compile(r"^[A-Za-z0-9_\-]+$")
_NAME = re.compile(r"^[A-Za-z0-9_\-]+$")


def check_token(value: str, what: str) -> str:
    """``value`` if it can be one subject token (no dots, wildcards or spaces)."""
    if not _TOKEN.match(value):
        raise ValueError(f"{what} {value!r} cannot be used in a subject")
    return value


def check_name(value: str, what: str) -> str:
    """``value`` if it is a valid stream or consumer name."""
    if not _NAME.match(value):
        raise ValueError(f"{what} {value!r} may only hold letters, digits, '_' and '-'")
    return value


def matches(pattern: str, subject: str) -> bool:
    """Whether ``subject`` matches the pattern (NATS wildcards ``*`` and ``>``)."""
    wanted = pattern.split(".")
    tokens = subject.split(".")
    for index, token in enumerate(wanted):
        if token == ">":
            return len(tokens) > index
        if index >= len(tokens) or (token != "*" and token != tokens[index]):
            return False
    return len(tokens) == len(wanted)


@dataclass(frozen=True)
class Subjects:
    """The subject scheme under one prefix.

    Events have exactly four tokens after a one-token prefix; replays addressed to one
    durable consumer have three (``<prefix>._replay.<durable>``), so no event filter can
    ever match another consumer's replays."""

    prefix: str = "events"

    def __post_init__(self) -> None:
        check_token(self.prefix, "subject prefix")

    @property
    def all(self) -> str:
        """What the events stream stores."""
        return f"{self.prefix}.>"

    def event(self, tenant: str | None, service: str, event_type: str) -> str:
        """The subject an event is published to."""
        return _event_subject(self.prefix, tenant, service, event_type)

    def replay(self, durable: str) -> str:
        """Where dead letters are replayed to reach only the consumer ``durable``."""
        return f"{self.prefix}._replay.{check_name(durable, 'durable name')}"

    def filters(
        self,
        *,
        tenants: Sequence[str] = (),
        services: Sequence[str] = (),
        event_types: Sequence[str] = (),
    ) -> list[str]:
        """A consumer's filter subjects: every combination; empty means any."""
        return [
            f"{self.prefix}.{tenant}.{service}.{event_type}"
            for tenant in _tokens(tenants, "tenant")
            for service in _tokens(services, "service")
            for event_type in _tokens(event_types, "event type")
        ]


@functools.lru_cache(maxsize=4096)
def _event_subject(
    prefix: str, tenant: str | None, service: str, event_type: str
) -> str:
    # Cached: the relay builds one per message, from few distinct values.
    return ".".join(
        (
            prefix,
            check_token(PLATFORM_TENANT if tenant is None else tenant, "tenant"),
            check_token(service, "service"),
            check_token(event_type, "event type"),
        )
    )


def _tokens(values: Sequence[str], what: str) -> list[str]:
    if isinstance(values, str):
        raise TypeError(f"{what}s must be a sequence of names, not a string")
    return [check_token(value, what) for value in values] or ["*"]
