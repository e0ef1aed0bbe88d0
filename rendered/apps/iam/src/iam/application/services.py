# Generated from spec iam by `generate`; edits are merged on re-render.

"""The use cases of the iam service: each runs in one transaction of the
event store (every change it makes is stored at once, or none), rerun from the start when
a concurrent writer got there first."""

from __future__ import annotations

import asyncio

from eaf.eventsourcing import DuplicateKeyError, change_one, keyed_id, make_one
from eaf.security import PasswordHasher

from iam.application.ports.outbound import (
    Clock,
    Idempotency,
    PolicyListing,
    RegisteredClientListing,
    RoleListing,
    ServiceAccountListing,
    TenantRepository,
    Transaction,
    Transactions,
    UserListing,
)
from iam.domain.errors import (
    DomainValidationError,
    NotFoundError,
    Violation,
    every_violation,
    with_value,
)
from iam.domain.model import (
    Policy,
    RegisteredClient,
    Role,
    ServiceAccount,
    Tenant,
    User,
)
from iam.domain.types import (
    ClientType,
    GrantType,
    PolicyCondition,
    PolicyEffect,
    TenantStatus,
)


class TenantService:
    """Runs the Tenant use cases (implements ``TenantUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        *,
        records: TenantRepository,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._records = records  # the records of every tenant (a platform read)

    async def create(
        self, *, name: str, admin_user_id: str, idempotency: Idempotency | None = None
    ) -> Tenant:
        return await make_one(
            self._transactions,
            Tenant,
            lambda now: Tenant.create(name=name, admin_user_id=admin_user_id, now=now),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                name,
                admin_user_id,
            ),
        )

    async def change_status(
        self,
        id: str,
        *,
        status: TenantStatus,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Tenant:
        return await change_one(
            self._transactions,
            Tenant,
            id,
            lambda current, now: current.change_status(status=status, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Tenant not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
        )

    async def get(self, id: str) -> Tenant | None:
        return await self._transactions.load(Tenant, id)

    async def every_tenant(self) -> list[Tenant]:
        """Every tenant record, one per tenant (read across the tenants: for
        platform operators only)."""
        return await self._records.all_tenants()


class UserService:
    """Runs the User use cases (implements ``UserUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: UserListing,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing
        self._hasher = hasher or PasswordHasher()  # argon2id, for password

    async def create(
        self,
        *,
        username: str,
        email: str,
        password: str,
        roles: list[str],
        attributes: dict[str, str],
        idempotency: Idempotency | None = None,
    ) -> User:
        # a secret's rules are its plain text's; from here on only its hash goes (the
        # fingerprint of an idempotent request leaves it out)
        DomainValidationError.raise_for(
            [
                *User.check_password(password),
            ]
        )
        password = await asyncio.to_thread(self._hasher.hash, password)

        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            roles_ref = [
                await tx.get(
                    Role,
                    keyed_id("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "role", [item]),
                )
                for item in roles
            ]
            missing = [
                *(
                    Violation(
                        f"roles.{index}", with_value("Unknown role {value}", value)
                    )
                    for index, (value, item) in enumerate(
                        zip(roles, roles_ref, strict=True)
                    )
                    if item is None
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                created = User.create(
                    username=username,
                    email=email,
                    password=password,
                    roles=roles,
                    attributes=attributes,
                    now=now,
                    id=keyed_id(
                        "8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91",
                        "",
                        [username],
                        ignore_case=True,
                    ),
                )
            if missing:
                raise DomainValidationError.of(*missing)
            if await tx.exists(User, created.id):
                raise DuplicateKeyError("User", "username")
            for found_roles_ref in roles_ref:
                if found_roles_ref is not None:
                    tx.keep(found_roles_ref)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                username,
                email,
                roles,
                attributes,
            ),
            kind=User,
        )

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        return await change_one(
            self._transactions,
            User,
            id,
            lambda current, now: current.change_status(status=status, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("User not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
        )

    async def change_roles(
        self,
        id: str,
        *,
        roles: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            current = await tx.get(User, id)
            if current is None:
                raise NotFoundError("User not found")
            tx.expect(current, expected_version)
            roles_ref = [
                await tx.get(
                    Role,
                    keyed_id("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "role", [item]),
                )
                for item in roles
            ]
            missing = [
                *(
                    Violation(
                        f"roles.{index}", with_value("Unknown role {value}", value)
                    )
                    for index, (value, item) in enumerate(
                        zip(roles, roles_ref, strict=True)
                    )
                    if item is None
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                changed = current.change_roles(roles=roles, now=now)
            if missing:
                raise DomainValidationError.of(*missing)
            for found_roles_ref in roles_ref:
                if found_roles_ref is not None:
                    tx.keep(found_roles_ref)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "changeRoles",
                id,
                roles,
            ),
            kind=User,
        )

    async def change_attributes(
        self,
        id: str,
        *,
        attributes: dict[str, str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        return await change_one(
            self._transactions,
            User,
            id,
            lambda current, now: current.change_attributes(
                attributes=attributes, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("User not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changeAttributes",
                id,
                attributes,
            ),
        )

    async def change_password(
        self,
        id: str,
        *,
        password: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        # a secret's rules are its plain text's; from here on only its hash goes (the
        # fingerprint of an idempotent request leaves it out)
        DomainValidationError.raise_for(
            [
                *User.check_password(password),
            ]
        )
        password = await asyncio.to_thread(self._hasher.hash, password)
        return await change_one(
            self._transactions,
            User,
            id,
            lambda current, now: current.change_password(password=password, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("User not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changePassword",
                id,
            ),
        )

    async def change(
        self,
        id: str,
        *,
        status: str,
        roles: list[str],
        attributes: dict[str, str],
        password: str | None,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        # a secret's rules are its plain text's; from here on only its hash goes (the
        # fingerprint of an idempotent request leaves it out); None keeps the one
        # stored (a merge patch left it out)
        if password is not None:
            DomainValidationError.raise_for(User.check_password(password))
            password = await asyncio.to_thread(self._hasher.hash, password)

        async def work(tx: Transaction) -> User:
            now = self._clock.now()
            current = await tx.get(User, id)
            if current is None:
                raise NotFoundError("User not found")
            tx.expect(current, expected_version)
            roles_ref = [
                await tx.get(
                    Role,
                    keyed_id("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "role", [item]),
                )
                for item in roles
            ]
            missing = [
                *(
                    Violation(
                        f"roles.{index}", with_value("Unknown role {value}", value)
                    )
                    for index, (value, item) in enumerate(
                        zip(roles, roles_ref, strict=True)
                    )
                    if item is None
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                changed = current.change(
                    status=status,
                    roles=roles,
                    attributes=attributes,
                    password=current.password if password is None else password,
                    now=now,
                )
            if missing:
                raise DomainValidationError.of(*missing)
            for found_roles_ref in roles_ref:
                if found_roles_ref is not None:
                    tx.keep(found_roles_ref)
            return tx.save(changed)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "change",
                id,
                status,
                roles,
                attributes,
            ),
            kind=User,
        )

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        return await change_one(
            self._transactions,
            User,
            id,
            lambda current, now: current.remove(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("User not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "remove",
                id,
            ),
        )

    async def get(self, id: str) -> User | None:
        return await self._transactions.load(User, id)

    async def list(self) -> list[User]:
        return await self._listing.list()


class RoleService:
    """Runs the Role use cases (implements ``RoleUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: RoleListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        name: str,
        permissions: list[str],
        description: str,
        idempotency: Idempotency | None = None,
    ) -> Role:
        return await make_one(
            self._transactions,
            Role,
            lambda now: Role.create(
                name=name,
                permissions=permissions,
                description=description,
                now=now,
                id=keyed_id("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "role", [name]),
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                name,
                permissions,
                description,
            ),
            key="name",
        )

    async def change(
        self,
        id: str,
        *,
        permissions: list[str],
        description: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        return await change_one(
            self._transactions,
            Role,
            id,
            lambda current, now: current.change(
                permissions=permissions, description=description, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Role not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "change",
                id,
                permissions,
                description,
            ),
        )

    async def change_permissions(
        self,
        id: str,
        *,
        permissions: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        return await change_one(
            self._transactions,
            Role,
            id,
            lambda current, now: current.change_permissions(
                permissions=permissions, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Role not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changePermissions",
                id,
                permissions,
            ),
        )

    async def describe(
        self,
        id: str,
        *,
        description: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        return await change_one(
            self._transactions,
            Role,
            id,
            lambda current, now: current.describe(description=description, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Role not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "describe",
                id,
                description,
            ),
        )

    async def get(self, id: str) -> Role | None:
        return await self._transactions.load(Role, id)

    async def list(self) -> list[Role]:
        return await self._listing.list()


class PolicyService:
    """Runs the Policy use cases (implements ``PolicyUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: PolicyListing,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing

    async def create(
        self,
        *,
        name: str,
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        idempotency: Idempotency | None = None,
    ) -> Policy:
        return await make_one(
            self._transactions,
            Policy,
            lambda now: Policy.create(
                name=name,
                effect=effect,
                permissions=permissions,
                conditions=conditions,
                now=now,
                id=keyed_id("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "policy", [name]),
            ),
            clock=self._clock,
            idempotency=idempotency,
            request=(
                "create",
                name,
                effect,
                permissions,
                conditions,
            ),
            key="name",
        )

    async def change(
        self,
        id: str,
        *,
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        return await change_one(
            self._transactions,
            Policy,
            id,
            lambda current, now: current.change(
                effect=effect, permissions=permissions, conditions=conditions, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Policy not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "change",
                id,
                effect,
                permissions,
                conditions,
            ),
        )

    async def disable(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        return await change_one(
            self._transactions,
            Policy,
            id,
            lambda current, now: current.disable(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Policy not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "disable",
                id,
            ),
        )

    async def get(self, id: str) -> Policy | None:
        return await self._transactions.load(Policy, id)

    async def list(self) -> list[Policy]:
        return await self._listing.list()


class ServiceAccountService:
    """Runs the ServiceAccount use cases (implements ``ServiceAccountUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: ServiceAccountListing,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing
        self._hasher = hasher or PasswordHasher()  # argon2id, for clientSecret

    async def create(
        self,
        *,
        client_id: str,
        client_secret: str,
        roles: list[str],
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        # a secret's rules are its plain text's; from here on only its hash goes (the
        # fingerprint of an idempotent request leaves it out)
        client_secret = await asyncio.to_thread(self._hasher.hash, client_secret)

        async def work(tx: Transaction) -> ServiceAccount:
            now = self._clock.now()
            roles_ref = [
                await tx.get(
                    Role,
                    keyed_id("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "role", [item]),
                )
                for item in roles
            ]
            missing = [
                *(
                    Violation(
                        f"roles.{index}", with_value("Unknown role {value}", value)
                    )
                    for index, (value, item) in enumerate(
                        zip(roles, roles_ref, strict=True)
                    )
                    if item is None
                ),
            ]
            # every broken rule at once: the unknown references and the values' own
            with every_violation(missing):
                created = ServiceAccount.create(
                    client_id=client_id,
                    client_secret=client_secret,
                    roles=roles,
                    now=now,
                    id=keyed_id(
                        "8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "client", [client_id]
                    ),
                )
            if missing:
                raise DomainValidationError.of(*missing)
            if await tx.exists(ServiceAccount, created.id):
                raise DuplicateKeyError("ServiceAccount", "client_id")
            # the key is taken once among ServiceAccount and RegisteredClient, until commit
            taken = keyed_id(
                "8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91",
                "registered-client",
                [created.client_id],
            )
            if await tx.exists(RegisteredClient, taken):
                raise DuplicateKeyError(
                    "ServiceAccount", "client_id", holder="RegisteredClient"
                )
            tx.keep_absent(RegisteredClient, taken)
            for found_roles_ref in roles_ref:
                if found_roles_ref is not None:
                    tx.keep(found_roles_ref)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "create",
                client_id,
                roles,
            ),
            kind=ServiceAccount,
        )

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        return await change_one(
            self._transactions,
            ServiceAccount,
            id,
            lambda current, now: current.change_status(status=status, now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Service account not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changeStatus",
                id,
                status,
            ),
        )

    async def change_secret(
        self,
        id: str,
        *,
        client_secret: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        # a secret's rules are its plain text's; from here on only its hash goes (the
        # fingerprint of an idempotent request leaves it out)
        client_secret = await asyncio.to_thread(self._hasher.hash, client_secret)
        return await change_one(
            self._transactions,
            ServiceAccount,
            id,
            lambda current, now: current.change_secret(
                client_secret=client_secret, now=now
            ),
            clock=self._clock,
            missing=lambda: NotFoundError("Service account not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "changeSecret",
                id,
            ),
        )

    async def disable(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        return await change_one(
            self._transactions,
            ServiceAccount,
            id,
            lambda current, now: current.disable(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("Service account not found"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "disable",
                id,
            ),
        )

    async def get(self, id: str) -> ServiceAccount | None:
        return await self._transactions.load(ServiceAccount, id)

    async def list(self) -> list[ServiceAccount]:
        return await self._listing.list()


class RegisteredClientService:
    """Runs the RegisteredClient use cases (implements ``RegisteredClientUseCases``)."""

    def __init__(
        self,
        transactions: Transactions,
        clock: Clock,
        listing: RegisteredClientListing,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self._transactions = transactions
        self._clock = clock
        self._listing = listing
        self._hasher = hasher or PasswordHasher()  # argon2id, for clientSecret

    async def register(
        self,
        *,
        client_id: str,
        name: str,
        client_type: ClientType,
        client_secret: str | None,
        grant_types: list[GrantType],
        redirect_uris: list[str],
        post_logout_redirect_uris: list[str],
        scopes: list[str],
        first_party: bool,
        idempotency: Idempotency | None = None,
    ) -> RegisteredClient:
        # a secret's rules are its plain text's; from here on only its hash goes (the
        # fingerprint of an idempotent request leaves it out)
        if client_secret is not None:  # made only on its condition (made_when)
            client_secret = await asyncio.to_thread(self._hasher.hash, client_secret)

        async def work(tx: Transaction) -> RegisteredClient:
            now = self._clock.now()
            created = RegisteredClient.register(
                client_id=client_id,
                name=name,
                client_type=client_type,
                client_secret=client_secret,
                grant_types=grant_types,
                redirect_uris=redirect_uris,
                post_logout_redirect_uris=post_logout_redirect_uris,
                scopes=scopes,
                first_party=first_party,
                now=now,
                id=keyed_id(
                    "8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91",
                    "registered-client",
                    [client_id],
                ),
            )
            if await tx.exists(RegisteredClient, created.id):
                raise DuplicateKeyError("RegisteredClient", "client_id")
            # the key is taken once among RegisteredClient and ServiceAccount, until commit
            taken = keyed_id(
                "8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "client", [created.client_id]
            )
            if await tx.exists(ServiceAccount, taken):
                raise DuplicateKeyError(
                    "RegisteredClient", "client_id", holder="ServiceAccount"
                )
            tx.keep_absent(ServiceAccount, taken)
            return tx.save(created)

        return await self._transactions.run(
            work,
            idempotency=idempotency,
            request=(
                "register",
                client_id,
                name,
                client_type,
                grant_types,
                redirect_uris,
                post_logout_redirect_uris,
                scopes,
                first_party,
            ),
            kind=RegisteredClient,
        )

    async def disable(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> RegisteredClient:
        return await change_one(
            self._transactions,
            RegisteredClient,
            id,
            lambda current, now: current.disable(now=now),
            clock=self._clock,
            missing=lambda: NotFoundError("No such client"),
            expected_version=expected_version,
            idempotency=idempotency,
            request=(
                "disable",
                id,
            ),
        )

    async def get(self, id: str) -> RegisteredClient | None:
        return await self._transactions.load(RegisteredClient, id)

    async def get_by_client_id(self, client_id: str) -> RegisteredClient | None:
        return await self._transactions.load(
            RegisteredClient,
            keyed_id(
                "8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "registered-client", [client_id]
            ),
        )

    async def list(self) -> list[RegisteredClient]:
        return await self._listing.list()
