"""Where the broker is and how its streams are named and kept."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from eaf.messaging.subjects import Subjects, check_name, check_token


@dataclass(frozen=True)
class MessagingSettings:
    """Broker settings; ``url`` may list several servers, comma separated."""

    url: str = "nats://localhost:4222"
    prefix: str = "events"
    stream: str = "EVENTS"
    dlq_stream: str = "DLQ"
    dlq_prefix: str = "dlq"
    replicas: int = 1
    duplicate_window: float = 120.0
    ack_wait: float = 30.0
    publish_timeout: float = 5.0
    publish_attempts: int = 10

    def __post_init__(self) -> None:
        check_name(self.stream, "stream name")
        check_name(self.dlq_stream, "stream name")
        check_token(self.dlq_prefix, "DLQ subject prefix")
        if self.dlq_prefix == self.prefix:
            raise ValueError(
                "the DLQ subject prefix must differ from the events prefix"
            )

    @property
    def servers(self) -> list[str]:
        return [server.strip() for server in self.url.split(",") if server.strip()]

    @property
    def subjects(self) -> Subjects:
        return Subjects(self.prefix)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> MessagingSettings:
        """Settings from ``EAF_NATS_URL``, ``EAF_EVENTS_PREFIX`` and
        ``EAF_EVENTS_REPLICAS``."""
        environ = os.environ if environ is None else environ
        return cls(
            url=environ.get("EAF_NATS_URL", cls.url),
            prefix=environ.get("EAF_EVENTS_PREFIX", cls.prefix),
            replicas=int(environ.get("EAF_EVENTS_REPLICAS", cls.replicas)),
        )
