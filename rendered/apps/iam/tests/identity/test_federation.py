"""The first sign-in of an external identity, whatever its source: created just in time or
linked by a verified email, kept in step afterwards (on an in-memory event store)."""

from dataclasses import replace
from pathlib import Path

import pytest
from eaf.context import in_tenant
from eaf.eventsourcing import EventStore

from iam.application.directory import Directory
from iam.application.federation import (
    ExternalIdentity,
    Federation,
    FirstSignInRefusedError,
)
from iam.bootstrap import Services, bootstrap
from iam.domain.federation import CREATE, LINK_BY_EMAIL
from iam.domain.model import User
from iam.infrastructure.federation_store import EventSourcedFederatedIdentities
from iam.infrastructure.persistence import EventSourcedUserRepository
from tests.identity.conftest import ADMIN_PASSWORD, settings_for

ALICE = ExternalIdentity(
    source="saml:corporate",
    external_id="a-1",
    username="alice",
    email="alice@example.org",
    email_verified=True,
    attributes={"name": "Alice"},
    roles=["tenant-admin"],
    managed_roles=frozenset({"tenant-admin"}),
)


class Listing:
    """The users the listing read model would show (it follows the store shortly)."""

    def __init__(self, store: EventStore) -> None:
        self.users: list[User] = []
        self._repository = EventSourcedUserRepository(store)

    async def list(self) -> list[User]:
        return self.users

    async def add(self, tenant_id: str, user_id: str) -> None:
        with in_tenant(tenant_id):
            user = await self._repository.get(user_id)
        assert user is not None
        self.users.append(user)


@pytest.fixture
async def services(tmp_path: Path) -> Services:
    return await bootstrap(settings_for(tmp_path, DATABASE_URL="sqlite://"))


@pytest.fixture
async def wired(services: Services) -> tuple[Directory, Federation, Listing, str]:
    directory = services.directory
    listing = Listing(services.store)
    federation = Federation(
        users=EventSourcedUserRepository(services.store),
        user_listing=listing,
        identities=EventSourcedFederatedIdentities(services.store),
        access=services.access,
        clock=services.clock,
    )
    tenant = await directory.create_tenant(
        name="Acme",
        admin_username="admin",
        admin_email="admin@acme.example",
        admin_password=ADMIN_PASSWORD,
    )
    return directory, federation, listing, tenant.id


async def test_the_first_sign_in_creates_the_user_and_later_ones_find_it(
    wired: tuple[Directory, Federation, Listing, str],
) -> None:
    _, federation, _, tenant_id = wired

    first = await federation.sign_in(tenant_id, ALICE, first_sign_in=CREATE)
    again = await federation.sign_in(tenant_id, ALICE, first_sign_in=CREATE)

    assert first.created and not again.created
    assert again.user.id == first.user.id
    assert first.user.roles == ["user", "tenant-admin"]
    assert first.user.attributes == {"name": "Alice"}
    identities = await federation.identities(tenant_id, "saml:corporate")
    assert [(i.external_id, i.user_id, i.created_user) for i in identities] == [
        ("a-1", first.user.id, True)
    ]


async def test_managed_roles_follow_the_source_and_the_others_stay(
    wired: tuple[Directory, Federation, Listing, str], services: Services
) -> None:
    _, federation, _, tenant_id = wired
    created = await federation.sign_in(tenant_id, ALICE, first_sign_in=CREATE)
    with in_tenant(tenant_id):
        await services.role.create(
            name="auditor", permissions=["iam-users:read"], description=""
        )
        await services.user.change_roles(
            created.user.id, roles=[*created.user.roles, "auditor"]
        )

    later = await federation.sign_in(
        tenant_id,
        replace(ALICE, roles=[], attributes={"name": "Alice L."}),
        first_sign_in=CREATE,
    )

    assert later.updated
    assert later.user.roles == ["user", "auditor"]
    assert later.user.attributes == {"name": "Alice L."}


async def local_user(
    services: Services, tenant_id: str, username: str, email: str
) -> User:
    """A user of the tenant made by the generated use case (its password hashed)."""
    with in_tenant(tenant_id):
        return await services.user.create(
            username=username,
            email=email,
            password="local-password-1",
            roles=["user"],
            attributes={},
        )


async def test_link_by_email_links_only_a_verified_email_of_one_user(
    wired: tuple[Directory, Federation, Listing, str], services: Services
) -> None:
    _, federation, listing, tenant_id = wired
    local = await local_user(services, tenant_id, "alice.local", "Alice@Example.org")
    await listing.add(tenant_id, local.id)

    unverified = await federation.sign_in(
        tenant_id,
        replace(ALICE, external_id="a-2", username="alice2", email_verified=False),
        first_sign_in=LINK_BY_EMAIL,
    )
    linked = await federation.sign_in(tenant_id, ALICE, first_sign_in=LINK_BY_EMAIL)

    assert unverified.created and unverified.user.id != local.id
    assert linked.linked and linked.user.id == local.id
    assert linked.user.roles == ["user", "tenant-admin"]


async def test_a_first_sign_in_that_matches_no_user_it_may_take_is_refused(
    wired: tuple[Directory, Federation, Listing, str], services: Services
) -> None:
    _, federation, listing, tenant_id = wired
    for username in ("alice", "alice.twin"):
        user = await local_user(services, tenant_id, username, "alice@example.org")
        await listing.add(tenant_id, user.id)

    with pytest.raises(FirstSignInRefusedError, match="Several users"):
        await federation.sign_in(tenant_id, ALICE, first_sign_in=LINK_BY_EMAIL)
    with pytest.raises(FirstSignInRefusedError, match="exists already"):
        await federation.sign_in(tenant_id, ALICE, first_sign_in=CREATE)
    assert await federation.identities(tenant_id, "saml:corporate") == []
