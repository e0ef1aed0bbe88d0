# Generated from spec configuration by `generate`; edits are merged on re-render.

"""The use cases of the configuration service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

from eaf.eventsourcing import change_one, make_one

from configuration.application.ports.outbound import (
    Clock,
    ConfigSchemaListing,
    Idempotency,
    PropertySetListing,
    Transactions,
)
from configuration.domain.errors import NotFoundError
from configuration.domain.model import ConfigSchema, PropertySet
from configuration.domain.types import Property


class ConfigSchemaService:
    """Runs the ConfigSchema use cases (implements ``ConfigSchemaUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: ConfigSchemaListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def define(
        self, *, application: str, document: str, idempotency: Idempotency | None = None
    ) -> ConfigSchema:
        return await make_one(
            self._transactions,
            ConfigSchema,
            lambda now: ConfigSchema.define(
                application=application, document=document, now=now
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "define",
                application,
                document,
            ),
        )

    async def revise(
        self,
        id: str,
        *,
        document: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ConfigSchema:
        return await change_one(
            self._transactions,
            ConfigSchema,
            id,
            lambda current, now: current.revise(document=document, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Schema not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "revise",
                id,
                document,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ConfigSchema:
        return await change_one(
            self._transactions,
            ConfigSchema,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Schema not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> ConfigSchema | None:
        return await self._transactions.load(ConfigSchema, id)

    async def get_by_application(self, application: str) -> ConfigSchema | None:
        return await self._transactions.load_by(
            ConfigSchema, "application", application
        )

    async def list(self) -> list[ConfigSchema]:
        return await self._listing.list()


class PropertySetService:
    """Runs the PropertySet use cases (implements ``PropertySetUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: PropertySetListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        key_: str,
        application: str,
        profile: str,
        label: str,
        properties: dict[str, Property],
        idempotency: Idempotency | None = None,
    ) -> PropertySet:
        return await make_one(
            self._transactions,
            PropertySet,
            lambda now: PropertySet.create(
                key_=key_,
                application=application,
                profile=profile,
                label=label,
                properties=properties,
                now=now,
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                key_,
                application,
                profile,
                label,
                properties,
            ),
        )

    async def change(
        self,
        id: str,
        *,
        properties: dict[str, Property],
        rolled_back_to: int | None,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> PropertySet:
        return await change_one(
            self._transactions,
            PropertySet,
            id,
            lambda current, now: current.change(
                properties=properties, rolled_back_to=rolled_back_to, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Property set not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "change",
                id,
                properties,
                rolled_back_to,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> PropertySet:
        return await change_one(
            self._transactions,
            PropertySet,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Property set not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> PropertySet | None:
        return await self._transactions.load(PropertySet, id)

    async def get_by_key(self, key_: str) -> PropertySet | None:
        return await self._transactions.load_by(PropertySet, "key_", key_)

    async def list(self) -> list[PropertySet]:
        return await self._listing.list()
