"""Dead letters in the ``DLQ`` stream, on ``dlq.<durable>.<original subject>``."""

from __future__ import annotations

from datetime import UTC, datetime

import nats.js.errors
from nats.js import JetStreamContext
from nats.js.api import RawStreamMsg

from eaf.messaging.message import Delivery, Header, Message, original
from eaf.messaging.ports import DeadLetter
from eaf.messaging.retry import retrying
from eaf.messaging.settings import MessagingSettings
from eaf.messaging.subjects import check_name

_MAX_REASON = 2000


class JetStreamDeadLetters:
    """Dead letters keep the original body and headers; the failure is in extra headers.
    A dead letter's id is its sequence in the DLQ stream."""

    def __init__(self, js: JetStreamContext, settings: MessagingSettings) -> None:
        self._js = js
        self._settings = settings
        self._subjects = settings.subjects

    def _filter(self, durable: str | None) -> str:
        prefix = self._settings.dlq_prefix
        if durable is None:
            return f"{prefix}.>"
        return f"{prefix}.{check_name(durable, 'durable name')}.>"

    async def add(self, durable: str, reason: str, delivery: Delivery) -> None:
        """Store a message ``durable`` gave up on; idempotent per delivery sequence."""
        message = original(delivery.message)
        headers = dict(message.headers)
        headers.update(
            {
                Header.MSG_ID: f"{durable}-{delivery.sequence}",
                Header.DLQ_REASON: " ".join(reason.split())[:_MAX_REASON],
                Header.DLQ_ATTEMPTS: str(delivery.attempt),
                Header.DLQ_DURABLE: durable,
                Header.DLQ_SEQUENCE: str(delivery.sequence),
                Header.DLQ_FAILED_AT: datetime.now(UTC).isoformat(),
            }
        )
        subject = f"{self._settings.dlq_prefix}.{durable}.{message.subject}"
        await retrying(
            lambda: self._js.publish(
                subject, message.data, stream=self._settings.dlq_stream, headers=headers
            ),
            attempts=self._settings.publish_attempts,
        )

    async def find(
        self, durable: str | None = None, limit: int = 100
    ) -> list[DeadLetter]:
        letters: list[DeadLetter] = []
        subject = self._filter(durable)
        sequence = 1
        while len(letters) < limit:
            try:
                raw = await self._js.get_msg(
                    self._settings.dlq_stream, seq=sequence, subject=subject, next=True
                )
            except nats.js.errors.NotFoundError:
                break
            letters.append(self._letter(raw))
            sequence = (raw.seq or sequence) + 1
        return letters

    async def get(self, sequence: int) -> DeadLetter:
        try:
            raw = await self._js.get_msg(self._settings.dlq_stream, seq=sequence)
        except nats.js.errors.NotFoundError:
            raise KeyError(sequence) from None
        return self._letter(raw)

    async def replay(self, sequence: int) -> None:
        letter = await self.get(sequence)
        headers = dict(letter.message.headers)
        headers[Header.ORIGINAL_SUBJECT] = letter.message.subject
        # Unique per dead letter: replaying one twice is absorbed as a duplicate.
        headers[Header.MSG_ID] = (
            f"replay-{letter.durable}-{letter.message.event_id}-{sequence}"
        )
        subject = self._subjects.replay(letter.durable)
        await retrying(
            lambda: self._js.publish(
                subject,
                letter.message.data,
                stream=self._settings.stream,
                headers=headers,
            ),
            attempts=self._settings.publish_attempts,
        )
        await retrying(lambda: self._js.delete_msg(self._settings.dlq_stream, sequence))

    async def purge(self, durable: str | None = None) -> int:
        subject = self._filter(durable)
        info = await self._js.stream_info(
            self._settings.dlq_stream, subjects_filter=subject
        )
        count = sum((info.state.subjects or {}).values())
        await self._js.purge_stream(self._settings.dlq_stream, subject=subject)
        return count

    def _letter(self, raw: RawStreamMsg) -> DeadLetter:
        headers = dict(raw.headers or {})
        durable = headers.get(Header.DLQ_DURABLE, "")
        subject = raw.subject or ""
        prefix = f"{self._settings.dlq_prefix}.{durable}."
        message = Message(
            subject=subject.removeprefix(prefix), data=raw.data or b"", headers=headers
        )
        failed_at = headers.get(Header.DLQ_FAILED_AT)
        return DeadLetter(
            sequence=raw.seq or 0,
            durable=durable,
            reason=headers.get(Header.DLQ_REASON, ""),
            attempts=int(headers.get(Header.DLQ_ATTEMPTS, "0")),
            failed_at=datetime.fromisoformat(failed_at)
            if failed_at
            else datetime.now(UTC),
            message=original(message),
        )
