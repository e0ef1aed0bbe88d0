"""The contract of the short-lived sign-in state (codes, sessions, forms), and the
embedded adapter that keeps it in memory."""

import asyncio
from datetime import timedelta

from iam.application.ports.signin import Expiring
from iam.infrastructure.signin_state import MemoryExpiring, NoExternalProviders


class ExpiringContract:
    """What every :class:`Expiring` adapter does; subclass with ``make``."""

    def make(self) -> Expiring[str]:
        raise NotImplementedError

    async def test_a_value_is_read_until_it_expires(self) -> None:
        store = self.make()
        await store.put("k", "v", timedelta(seconds=30))
        assert await store.get("k") == "v"
        await store.put("short", "v", timedelta(milliseconds=10))
        await asyncio.sleep(0.05)
        assert await store.get("short") is None
        assert await store.get("never") is None

    async def test_of_two_callers_only_one_pops_the_value(self) -> None:
        store = self.make()
        await store.put("code", "grant", timedelta(seconds=30))
        taken = await asyncio.gather(store.pop("code"), store.pop("code"))
        assert sorted(taken, key=str) == [None, "grant"]
        assert await store.get("code") is None


class TestMemoryExpiring(ExpiringContract):
    def make(self) -> Expiring[str]:
        return MemoryExpiring()


async def test_no_external_provider_is_configured_yet() -> None:
    assert await NoExternalProviders().providers("any") == []


def test_the_sign_in_page_has_one_button_per_external_provider() -> None:
    from iam.application.ports.signin import ExternalProvider
    from iam.infrastructure.signin_pages import signin_page

    page = signin_page(
        action="/realms/acme/login",
        form_id="f",
        realm="acme",
        client_name="Portal",
        providers=[
            ExternalProvider("Corporate <SSO>", "https://sso.example/start?a=1&b=2")
        ],
    )
    html = bytes(page.body).decode()
    assert (
        '<a class="button" href="https://sso.example/start?a=1&amp;b=2">'
        "Sign in with Corporate &lt;SSO&gt;</a>"
    ) in html
