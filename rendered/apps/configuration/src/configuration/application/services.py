# Generated from spec configuration by `generate`; edits are merged on re-render.

"""The use cases of the configuration service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

from configuration.application.ports.outbound import (
    Clock,
    ConfigSchemaListing,
    Idempotency,
    PropertySetListing,
    Transaction,
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
        async def work(tx: Transaction) -> ConfigSchema:
            now = self._clock.now()
            created = ConfigSchema.define(
                application=application, document=document, now=now
            )
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "define",
                application,
                document,
            ),
            kind=ConfigSchema,
        )

    async def revise(
        self,
        id: str,
        *,
        document: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ConfigSchema:
        async def work(tx: Transaction) -> ConfigSchema:
            now = self._clock.now()
            current = await tx.get(ConfigSchema, id)
            if current is None:
                raise NotFoundError("Schema not found")
            tx.expect(current, expected_version)
            changed = current.revise(document=document, now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "revise",
                id,
                document,
            ),
            kind=ConfigSchema,
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ConfigSchema:
        async def work(tx: Transaction) -> ConfigSchema:
            now = self._clock.now()
            current = await tx.get(ConfigSchema, id)
            if current is None:
                raise NotFoundError("Schema not found")
            tx.expect(current, expected_version)
            changed = current.remove(now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
            kind=ConfigSchema,
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
        async def work(tx: Transaction) -> PropertySet:
            now = self._clock.now()
            created = PropertySet.create(
                key_=key_,
                application=application,
                profile=profile,
                label=label,
                properties=properties,
                now=now,
            )
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                key_,
                application,
                profile,
                label,
                properties,
            ),
            kind=PropertySet,
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
        async def work(tx: Transaction) -> PropertySet:
            now = self._clock.now()
            current = await tx.get(PropertySet, id)
            if current is None:
                raise NotFoundError("Property set not found")
            tx.expect(current, expected_version)
            changed = current.change(
                properties=properties, rolled_back_to=rolled_back_to, now=now
            )
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "change",
                id,
                properties,
                rolled_back_to,
            ),
            kind=PropertySet,
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> PropertySet:
        async def work(tx: Transaction) -> PropertySet:
            now = self._clock.now()
            current = await tx.get(PropertySet, id)
            if current is None:
                raise NotFoundError("Property set not found")
            tx.expect(current, expected_version)
            changed = current.remove(now=now)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
            kind=PropertySet,
        )

    async def get(self, id: str) -> PropertySet | None:
        return await self._transactions.load(PropertySet, id)

    async def get_by_key(self, key_: str) -> PropertySet | None:
        return await self._transactions.load_by(PropertySet, "key_", key_)

    async def list(self) -> list[PropertySet]:
        return await self._listing.list()
