# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""The use cases of the feature flags service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from eaf.eventsourcing import change_one, make_one

from feature_flags.application.ports.outbound import (
    Clock,
    FlagListing,
    Idempotency,
    ProjectListing,
    SegmentListing,
    Transaction,
    Transactions,
    UsageReportListing,
)
from feature_flags.domain.errors import (
    DomainValidationError,
    NotFoundError,
    Violation,
    every_violation,
)
from feature_flags.domain.model import Flag, Project, Segment, UsageReport
from feature_flags.domain.types import (
    Constraint,
    Dependency,
    EnvironmentConfig,
    FlagType,
    ToggleUsage,
    Variant,
)


class ProjectService:
    """Runs the Project use cases (implements ``ProjectUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: ProjectListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        key_: str,
        name: str,
        description: str,
        environments: list[str],
        idempotency: Idempotency | None = None,
    ) -> Project:
        return await make_one(
            self._transactions,
            Project,
            lambda now: Project.create(
                key_=key_,
                name=name,
                description=description,
                environments=environments,
                now=now,
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                key_,
                name,
                description,
                environments,
            ),
        )

    async def update(
        self,
        id: str,
        *,
        name: str,
        description: str,
        environments: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Project:
        return await change_one(
            self._transactions,
            Project,
            id,
            lambda current, now: current.update(
                name=name, description=description, environments=environments, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Project not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "update",
                id,
                name,
                description,
                environments,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Project:
        return await change_one(
            self._transactions,
            Project,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Project not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> Project | None:
        return await self._transactions.load(Project, id)

    async def get_by_key(self, key_: str) -> Project | None:
        return await self._transactions.load_by(Project, "key_", key_)

    async def list(self) -> list[Project]:
        return await self._listing.list()


class SegmentService:
    """Runs the Segment use cases (implements ``SegmentUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: SegmentListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        name: str,
        description: str,
        constraints: list[Constraint],
        idempotency: Idempotency | None = None,
    ) -> Segment:
        return await make_one(
            self._transactions,
            Segment,
            lambda now: Segment.create(
                name=name, description=description, constraints=constraints, now=now
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                name,
                description,
                constraints,
            ),
        )

    async def update(
        self,
        id: str,
        *,
        name: str,
        description: str,
        constraints: list[Constraint],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Segment:
        return await change_one(
            self._transactions,
            Segment,
            id,
            lambda current, now: current.update(
                name=name, description=description, constraints=constraints, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Segment not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "update",
                id,
                name,
                description,
                constraints,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Segment:
        return await change_one(
            self._transactions,
            Segment,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Segment not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> Segment | None:
        return await self._transactions.load(Segment, id)

    async def get_by_name(self, name: str) -> Segment | None:
        return await self._transactions.load_by(Segment, "name", name)

    async def list(self) -> list[Segment]:
        return await self._listing.list()


class FlagService:
    """Runs the Flag use cases (implements ``FlagUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: FlagListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        key_: str,
        project_id: UUID,
        description: str,
        type_: FlagType,
        impression_data: bool,
        environments: dict[str, EnvironmentConfig],
        variants: list[Variant],
        dependencies: list[Dependency],
        idempotency: Idempotency | None = None,
    ) -> Flag:
        async def work(tx: Transaction) -> Flag:
            now = self._clock.now()
            project = await tx.get(Project, str(project_id))
            missing = [
                *(
                    [Violation("projectId", "No project has this id")]
                    if project is None
                    else []
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                created = Flag.create(
                    key_=key_,
                    project_id=project_id,
                    description=description,
                    type_=type_,
                    impression_data=impression_data,
                    environments=environments,
                    variants=variants,
                    dependencies=dependencies,
                    now=now,
                )
            if missing or project is None:
                raise DomainValidationError.of(*missing)
            tx.keep(project)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                key_,
                project_id,
                description,
                type_,
                impression_data,
                environments,
                variants,
                dependencies,
            ),
            kind=Flag,
        )

    async def describe(
        self,
        id: str,
        *,
        description: str,
        type_: FlagType,
        impression_data: bool,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.describe(
                description=description,
                type_=type_,
                impression_data=impression_data,
                now=now,
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "describe",
                id,
                description,
                type_,
                impression_data,
            ),
        )

    async def configure(
        self,
        id: str,
        *,
        environments: dict[str, EnvironmentConfig],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.configure(environments=environments, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "configure",
                id,
                environments,
            ),
        )

    async def set_variants(
        self,
        id: str,
        *,
        variants: list[Variant],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.set_variants(variants=variants, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "setVariants",
                id,
                variants,
            ),
        )

    async def set_dependencies(
        self,
        id: str,
        *,
        dependencies: list[Dependency],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.set_dependencies(
                dependencies=dependencies, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "setDependencies",
                id,
                dependencies,
            ),
        )

    async def mark_stale(
        self,
        id: str,
        *,
        stale: bool,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.mark_stale(stale=stale, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "markStale",
                id,
                stale,
            ),
        )

    async def archive(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.archive(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "archive",
                id,
            ),
        )

    async def revive(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.revive(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "revive",
                id,
            ),
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Flag:
        return await change_one(
            self._transactions,
            Flag,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Flag not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> Flag | None:
        return await self._transactions.load(Flag, id)

    async def get_by_key(self, key_: str) -> Flag | None:
        return await self._transactions.load_by(Flag, "key_", key_)

    async def list(self) -> list[Flag]:
        return await self._listing.list()


class UsageReportService:
    """Runs the UsageReport use cases (implements ``UsageReportUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: UsageReportListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def submit(
        self,
        *,
        app_name: str,
        instance_id: str,
        environment: str,
        start: datetime,
        stop: datetime,
        toggles: dict[str, ToggleUsage],
        idempotency: Idempotency | None = None,
    ) -> UsageReport:
        return await make_one(
            self._transactions,
            UsageReport,
            lambda now: UsageReport.submit(
                app_name=app_name,
                instance_id=instance_id,
                environment=environment,
                start=start,
                stop=stop,
                toggles=toggles,
                now=now,
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "submit",
                app_name,
                instance_id,
                environment,
                start,
                stop,
                toggles,
            ),
        )

    async def get(self, id: str) -> UsageReport | None:
        return await self._transactions.load(UsageReport, id)

    async def list(self) -> list[UsageReport]:
        return await self._listing.list()
