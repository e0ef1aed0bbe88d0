"""The LDAP protocol through ldap3 (hand-written, like the other protocol code: the
infrastructure layer may import only the framework's libraries).

Every operation opens its own connection on a worker thread: each URL in turn until one
answers, StartTLS or LDAPS verified against the provider's CA certificate (or the
system's), then a simple bind. Filter values are escaped, so a username can never widen
a search."""

import asyncio
import socket
import ssl
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any
from uuid import UUID

with warnings.catch_warnings():
    # ldap3 2.9 imports names that pyasn1 0.6 deprecates
    warnings.simplefilter("ignore", DeprecationWarning)
    from ldap3 import (  # type: ignore[import-untyped]
        SUBTREE,
        Connection,
        Server,
        Tls,
    )
    from ldap3.core import (  # type: ignore[import-untyped]
        exceptions as ldap_errors,
    )
    from ldap3.utils.conv import (  # type: ignore[import-untyped]
        escape_filter_chars,
    )
    from ldap3.utils.dn import parse_dn  # type: ignore[import-untyped]

from iam.application.ports.federation import IdentitySourceUnavailableError, LdapEntry
from iam.domain.federation import LdapSettings

MODIFIED = "modifyTimestamp"
MEMBER_OF = "memberOf"
UNAVAILABLE = (
    ldap_errors.LDAPCommunicationError,
    ldap_errors.LDAPSSLConfigurationError,
    ldap_errors.LDAPStartTLSError,
    ldap_errors.LDAPSocketOpenError,
    ldap_errors.LDAPSessionTerminatedByServerError,
    ldap_errors.LDAPResponseTimeoutError,
    ldap_errors.LDAPMaximumRetriesError,
    ssl.SSLError,
    socket.timeout,
    OSError,
)


class Ldap3Directory:
    """An :class:`~iam.application.ports.federation.LdapDirectory` on ldap3."""

    async def find_user(
        self, settings: LdapSettings, credential: str, username: str
    ) -> LdapEntry | None:
        return await asyncio.to_thread(self._find_user, settings, credential, username)

    async def check_password(
        self, settings: LdapSettings, dn: str, password: str
    ) -> bool:
        if not password:
            return False
        return await asyncio.to_thread(self._check_password, settings, dn, password)

    async def users(
        self, settings: LdapSettings, credential: str, modified_since: str = ""
    ) -> list[LdapEntry]:
        return await asyncio.to_thread(
            self._users, settings, credential, modified_since
        )

    def _find_user(
        self, settings: LdapSettings, credential: str, username: str
    ) -> LdapEntry | None:
        value = escape_filter_chars(username)
        names = [settings.username_attribute, *settings.login_attributes]
        alternatives = "".join(f"({name}={value})" for name in names)
        wanted = f"(&(objectClass={settings.user_object_class})(|{alternatives}))"
        with _service_bound(settings, credential) as connection:
            found = _search(
                connection, settings.users_dn, wanted, _user_attributes(settings)
            )
            if len(found) != 1:
                return None
            return _entry(connection, settings, found[0])

    def _check_password(self, settings: LdapSettings, dn: str, password: str) -> bool:
        try:
            with _bound(settings, dn, password):
                return True
        except _BindRefused:
            return False

    def _users(
        self, settings: LdapSettings, credential: str, modified_since: str
    ) -> list[LdapEntry]:
        wanted = f"(objectClass={settings.user_object_class})"
        if modified_since:
            since = escape_filter_chars(modified_since)
            # strictly newer: LDAP filters have no ">", so "not at or before"
            wanted = f"(&{wanted}(!({MODIFIED}<={since})))"
        with _service_bound(settings, credential) as connection:
            found = _search(
                connection, settings.users_dn, wanted, _user_attributes(settings)
            )
            entries = [_entry(connection, settings, item) for item in found]
        return [entry for entry in entries if entry is not None]


@contextmanager
def _service_bound(settings: LdapSettings, credential: str) -> Iterator[Connection]:
    """A connection bound with the provider's service account."""
    try:
        with _bound(settings, settings.bind_dn, credential) as connection:
            yield connection
    except _BindRefused as refusal:
        raise IdentitySourceUnavailableError(
            f"the LDAP directory refused the service bind ({refusal}): check bindDn"
            " and bindCredential"
        ) from None


class _BindRefused(Exception):
    """The directory answered a bind with a refusal (its result's description)."""


@contextmanager
def _bound(settings: LdapSettings, dn: str, password: str) -> Iterator[Connection]:
    """A connection bound as ``dn``: the first URL that answers."""
    failures: list[str] = []
    for url in settings.urls:
        connection = Connection(
            _server(settings, url),
            user=dn,
            password=password,
            receive_timeout=int(max(1, settings.read_timeout_seconds)),
            read_only=True,
            raise_exceptions=False,
        )
        try:
            connection.open()
            if settings.start_tls and not connection.start_tls():
                raise IdentitySourceUnavailableError(
                    f"StartTLS with {url} failed: {connection.result}"
                )
        except UNAVAILABLE as error:
            failures.append(f"{url}: {_reason(error)}")
            _close(connection)
            continue
        except IdentitySourceUnavailableError:
            _close(connection)
            raise
        try:
            if not connection.bind():
                # the directory answered: wrong password, locked or expired account...
                raise _BindRefused(str(connection.result.get("description")))
            yield connection
            return
        except UNAVAILABLE as error:
            raise IdentitySourceUnavailableError(f"{url}: {_reason(error)}") from error
        finally:
            connection.unbind()
    raise IdentitySourceUnavailableError(
        "the LDAP directory cannot be reached: " + "; ".join(failures)
    )


def _close(connection: Connection) -> None:
    """Close what a failed open leaves behind (ldap3 keeps the socket)."""
    with suppress(*UNAVAILABLE):
        connection.unbind()
    if connection.socket is not None:
        connection.socket.close()


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    if "certificate" in text.casefold() or isinstance(error, ssl.SSLError):
        return f"TLS failed ({text})"
    return text


class _VerifiedTls(Tls):  # type: ignore[misc]
    """ldap3's TLS with the standard library's certificate and host name checks (ldap3
    2.9 checks the host name with the deprecated ``ssl.match_hostname``)."""

    def __init__(self, ca_certificate: str) -> None:
        super().__init__(validate=ssl.CERT_REQUIRED)
        self._context = ssl.create_default_context(cadata=ca_certificate or None)

    def wrap_socket(self, connection: Connection, do_handshake: bool = False) -> None:
        connection.socket = self._context.wrap_socket(
            connection.socket,
            server_side=False,
            do_handshake_on_connect=do_handshake,
            server_hostname=connection.server.host,
        )


def _server(settings: LdapSettings, url: str) -> Server:
    return Server(
        url,
        use_ssl=url.startswith("ldaps://"),
        tls=_VerifiedTls(settings.ca_certificate),
        connect_timeout=settings.connect_timeout_seconds,
    )


def _user_attributes(settings: LdapSettings) -> list[str]:
    names = {
        settings.username_attribute,
        settings.uuid_attribute,
        settings.email_attribute,
        settings.name_attribute,
        MODIFIED,
        *settings.login_attributes,
    }
    if settings.membership_attribute == MEMBER_OF:
        names.add(MEMBER_OF)
    return sorted(names)


def _search(
    connection: Connection, base: str, wanted: str, attributes: list[str]
) -> list[dict[str, Any]]:
    results = connection.extend.standard.paged_search(
        base, wanted, SUBTREE, attributes=attributes, paged_size=500, generator=False
    )
    if connection.result.get("result") not in (0, None):
        raise IdentitySourceUnavailableError(
            f"the search under {base} failed: {connection.result.get('description')}"
        )
    return [item for item in results if item.get("type") == "searchResEntry"]


def _first(item: dict[str, Any], name: str) -> str:
    for key, values in item.get("raw_attributes", {}).items():
        if key.casefold() == name.casefold() and values:
            raw: bytes = values[0]
            if name.casefold() == "objectguid" and len(raw) == 16:
                return str(UUID(bytes_le=raw))
            return raw.decode("utf-8", errors="replace")
    return ""


def _all(item: dict[str, Any], name: str) -> list[str]:
    for key, values in item.get("raw_attributes", {}).items():
        if key.casefold() == name.casefold():
            return [value.decode("utf-8", errors="replace") for value in values]
    return []


def _entry(
    connection: Connection, settings: LdapSettings, item: dict[str, Any]
) -> LdapEntry | None:
    external_id = _first(item, settings.uuid_attribute)
    username = _first(item, settings.username_attribute)
    if not external_id or not username:
        return None
    return LdapEntry(
        dn=item["dn"],
        username=username,
        external_id=external_id,
        email=_first(item, settings.email_attribute),
        name=_first(item, settings.name_attribute),
        groups=_groups(connection, settings, item, username),
        modified=_first(item, MODIFIED),
    )


def _groups(
    connection: Connection, settings: LdapSettings, item: dict[str, Any], username: str
) -> list[str]:
    """The names (first RDN values) of the groups the user is a member of."""
    if settings.membership_attribute == MEMBER_OF:
        return sorted(_rdn_value(dn) for dn in _all(item, MEMBER_OF))
    if not settings.groups_dn:
        return []
    # memberUid holds usernames; member and uniqueMember hold DNs
    member = (
        username
        if settings.membership_attribute.casefold() == "memberuid"
        else item["dn"]
    )
    wanted = (
        f"(&(objectClass={settings.group_object_class})"
        f"({settings.membership_attribute}={escape_filter_chars(member)}))"
    )
    found = _search(connection, settings.groups_dn, wanted, ["cn"])
    return sorted(_first(group, "cn") or _rdn_value(group["dn"]) for group in found)


def _rdn_value(dn: str) -> str:
    try:
        return str(parse_dn(dn)[0][1])
    except (ldap_errors.LDAPInvalidDnError, IndexError):
        return dn
