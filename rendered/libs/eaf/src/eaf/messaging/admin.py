"""Dead letter administration over HTTP: the operations of ``eaf dlq`` as a router."""

# No ``from __future__ import annotations``: FastAPI must see the local aliases.
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, params
from pydantic import BaseModel

from eaf.messaging.ports import DeadLetter, DeadLetters


class DeadLetterOut(BaseModel):
    sequence: int
    durable: str
    reason: str
    attempts: int
    failed_at: datetime
    subject: str
    event_id: str
    event_type: str
    tenant_id: str | None
    headers: dict[str, str]
    payload: Any

    @classmethod
    def of(cls, letter: DeadLetter) -> "DeadLetterOut":
        return cls.model_validate(letter.to_dict())


class Replayed(BaseModel):
    replayed: list[int]


class Purged(BaseModel):
    purged: int


def dead_letter_router(
    provide: Callable[[], DeadLetters],
    *,
    prefix: str = "/admin/dlq",
    dependencies: Sequence[params.Depends] | None = None,
) -> APIRouter:
    """Routes over the dead letters ``provide`` returns; guard them with
    ``dependencies`` (e.g. a permission check)."""
    router = APIRouter(prefix=prefix, tags=["dead letters"], dependencies=dependencies)
    Letters = Annotated[DeadLetters, Depends(provide)]
    Durable = Annotated[str | None, Query(description="Only this consumer's letters.")]

    async def letter_or_404(dead: DeadLetters, sequence: int) -> DeadLetter:
        try:
            return await dead.get(sequence)
        except KeyError:
            raise HTTPException(404, f"no dead letter {sequence}") from None

    @router.get("")
    async def list_letters(
        dead: Letters,
        durable: Durable = None,
        limit: Annotated[int, Query(ge=1, le=10_000)] = 100,
    ) -> list[DeadLetterOut]:
        return [DeadLetterOut.of(letter) for letter in await dead.find(durable, limit)]

    @router.get("/{sequence}")
    async def show(dead: Letters, sequence: int) -> DeadLetterOut:
        return DeadLetterOut.of(await letter_or_404(dead, sequence))

    @router.post("/{sequence}/replay")
    async def replay(dead: Letters, sequence: int) -> Replayed:
        await letter_or_404(dead, sequence)
        await dead.replay(sequence)
        return Replayed(replayed=[sequence])

    @router.post("/replay")
    async def replay_all(dead: Letters, durable: Durable = None) -> Replayed:
        chosen = [letter.sequence for letter in await dead.find(durable, 10_000)]
        for sequence in chosen:
            await dead.replay(sequence)
        return Replayed(replayed=chosen)

    @router.delete("")
    async def purge(dead: Letters, durable: Durable = None) -> Purged:
        return Purged(purged=await dead.purge(durable))

    return router
