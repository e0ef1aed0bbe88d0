"""The SAML login use cases on an in-memory event store, with a fake protocol whose
responses name the request and assertion they carry: what the IAM itself keeps (pending
requests, used assertion IDs) is tested apart from the XML."""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from hashlib import sha256
from pathlib import Path

import pytest

from iam.application.ports.saml import (
    IdentityProviderDescription,
    OutgoingRequest,
    SamlError,
    ServiceProvider,
    VerifiedAssertion,
)
from iam.application.saml_login import SamlIdentity, SamlLogins
from iam.application.saml_providers import (
    RoleMapper,
    SamlProviders,
    SamlProviderSettings,
)
from iam.bootstrap import bootstrap
from iam.domain.model import SamlIdentityProvider
from iam.infrastructure.persistence import (
    EventSourcedSamlAssertionUseRepository,
    EventSourcedSamlIdentityProviderRepository,
    EventSourcedSamlLoginRequestRepository,
    EventSourcedTenantRepository,
)
from iam.infrastructure.saml_provider_listing import StoredSamlProviderListing
from tests.identity.conftest import ADMIN_PASSWORD, settings_for


@dataclass
class MovableClock:
    instant: datetime = field(default_factory=lambda: datetime.now(UTC))

    def now(self) -> datetime:
        return self.instant


class FakeSamlProtocol:
    """Requests ``id-1``, ``id-2``...; a response ``"<request id> <assertion id>"`` is
    taken as verified."""

    def __init__(self) -> None:
        self.sent = 0

    def describe(self, metadata_xml: str) -> IdentityProviderDescription:
        return IdentityProviderDescription(
            "https://idp.test", {"HTTP-Redirect": "https://idp.test/sso"}, ["MIIB"]
        )

    def certificate(self, text: str) -> str:
        return text

    def metadata(self, sp: ServiceProvider, *, sign_requests: bool) -> str:
        return f"<EntityDescriptor entityID='{sp.entity_id}'/>"

    def authn_request(
        self, provider: SamlIdentityProvider, sp: ServiceProvider, relay_state: str
    ) -> OutgoingRequest:
        self.sent += 1
        return OutgoingRequest(f"id-{self.sent}", provider.binding, provider.sso_url)

    def in_response_to(self, saml_response: str) -> str | None:
        return saml_response.split()[0]

    def verify(
        self,
        provider: SamlIdentityProvider,
        sp: ServiceProvider,
        saml_response: str,
        request_id: str,
    ) -> VerifiedAssertion:
        _, assertion_id = saml_response.split()
        return VerifiedAssertion(
            assertion_id=assertion_id,
            issuer="https://idp.test",
            in_response_to=request_id,
            name_id="alice",
            name_id_format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
            attributes={"groups": ["admins"]},
            expires_at=datetime.now(UTC) + timedelta(minutes=5),
        )


@dataclass
class World:
    logins: SamlLogins
    clock: MovableClock
    tenant_id: str


@pytest.fixture
async def world(tmp_path: Path) -> World:
    settings = settings_for(tmp_path, DATABASE_URL="sqlite://")
    clock = MovableClock()
    services = await bootstrap(settings, clock=clock)
    tenant = await services.directory.create_tenant(
        name="Acme",
        admin_username="admin",
        admin_email="admin@acme.example",
        admin_password=ADMIN_PASSWORD,
    )
    protocol = FakeSamlProtocol()
    providers = SamlProviders(
        providers=EventSourcedSamlIdentityProviderRepository(services.store),
        listing=StoredSamlProviderListing(services.store),
        protocol=protocol,
        access=services.access,
        clock=clock,
    )
    await providers.create(
        tenant.id,
        "corp",
        SamlProviderSettings(
            metadata_xml="<fake/>",
            role_mappers=[RoleMapper("groups", "admins", "tenant-admin")],
        ),
    )
    logins = SamlLogins(
        providers=providers,
        requests=EventSourcedSamlLoginRequestRepository(services.store),
        assertion_uses=EventSourcedSamlAssertionUseRepository(services.store),
        tenants=EventSourcedTenantRepository(services.store),
        protocol=protocol,
        clock=clock,
        public_url="https://iam.test",
        request_ttl=timedelta(minutes=10),
    )
    return World(logins, clock, tenant.id)


async def test_an_assertion_id_is_accepted_once_even_in_answer_to_a_new_request(
    world: World,
) -> None:
    first = await world.logins.start(world.tenant_id, "corp", "state-1")
    second = await world.logins.start(world.tenant_id, "corp", "state-2")

    login = await world.logins.complete(
        world.tenant_id, "corp", f"{first.request_id} assertion-1", "state-1"
    )
    assert login.identity.roles == ["tenant-admin"]
    assert login.relay_state == "state-1"
    with pytest.raises(SamlError, match="used already"):
        await world.logins.complete(
            world.tenant_id, "corp", f"{second.request_id} assertion-1", "state-2"
        )


async def test_a_pending_request_expires(world: World) -> None:
    request = await world.logins.start(world.tenant_id, "corp", "state")
    world.clock.instant += timedelta(minutes=11)

    with pytest.raises(SamlError, match="expired"):
        await world.logins.complete(
            world.tenant_id, "corp", f"{request.request_id} assertion-1", "state"
        )


async def test_the_service_provider_is_named_per_tenant_and_provider(
    world: World,
) -> None:
    sp = world.logins.service_provider(world.tenant_id, "corp")

    assert sp.entity_id == (
        f"https://iam.test/api/v1/tenants/{world.tenant_id}/saml/corp/metadata"
    )
    assert (
        sp.acs_url == f"https://iam.test/api/v1/tenants/{world.tenant_id}/saml/corp/acs"
    )


@pytest.mark.parametrize(
    ("name_id", "attributes", "username"),
    [
        ("alice@corp.example", {}, "alice@corp.example"),
        ("opaque id/with spaces", {"username": "alice"}, "alice"),
        (
            "opaque id/with spaces",
            {},
            "corp-" + sha256(b"opaque id/with spaces").hexdigest()[:16],
        ),
    ],
)
def test_the_username_is_mapped_else_the_name_id_else_derived(
    name_id: str, attributes: dict[str, str], username: str
) -> None:
    identity = SamlIdentity(
        tenant_id="t",
        provider_alias="corp",
        issuer="https://idp.test",
        name_id=name_id,
        name_id_format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
        attributes=attributes,
        roles=[],
    )

    assert identity.username == username
