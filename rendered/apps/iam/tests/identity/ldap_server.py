"""A real OpenLDAP server (Debian's ``slapd``) for the federation tests: its own config,
database and TLS certificates (made by a CA of the test) under a temporary directory, on
free loopback ports, with ``memberOf`` maintained by the memberof overlay."""

import datetime
import ipaddress
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

SLAPD = "/usr/sbin/slapd"
BASE_DN = "dc=example,dc=org"
ADMIN_DN = f"cn=admin,{BASE_DN}"
ADMIN_PASSWORD = "directory-admin-1"
USERS_DN = f"ou=people,{BASE_DN}"
GROUPS_DN = f"ou=groups,{BASE_DN}"

CONFIG = """\
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/nis.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
pidfile {root}/slapd.pid
TLSCACertificateFile {root}/ca.pem
TLSCertificateFile {root}/server.pem
TLSCertificateKeyFile {root}/server.key
database mdb
suffix "{base}"
rootdn "{admin}"
rootpw {password}
directory {root}/db
maxsize 10485760
overlay memberof
"""

SEED = f"""\
dn: {BASE_DN}
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: {USERS_DN}
objectClass: organizationalUnit
ou: people

dn: {GROUPS_DN}
objectClass: organizationalUnit
ou: groups
"""


def slapd_missing() -> str | None:
    """Why the LDAP tests cannot run here, or None."""
    if shutil.which(SLAPD) is None and not Path(SLAPD).exists():
        return "slapd is not installed (apt-get install slapd ldap-utils)"
    if shutil.which("ldapadd") is None:
        return "ldap-utils is not installed (apt-get install ldap-utils)"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def certificates(root: Path) -> str:
    """A CA and a server certificate for 127.0.0.1 and localhost; the CA's PEM."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test LDAP CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [
                    x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                    x509.DNSName("localhost"),
                ]
            ),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    ca_pem = ca.public_bytes(serialization.Encoding.PEM).decode()
    (root / "ca.pem").write_text(ca_pem)
    (root / "server.pem").write_bytes(server.public_bytes(serialization.Encoding.PEM))
    (root / "server.key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return ca_pem


@dataclass
class Slapd:
    """A running slapd; ``add``, ``modify`` and ``delete`` take LDIF through ldap-utils."""

    root: Path
    port: int
    tls_port: int
    ca_pem: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ldap://127.0.0.1:{self.port}"

    @property
    def ldaps_url(self) -> str:
        return f"ldaps://127.0.0.1:{self.tls_port}"

    @classmethod
    def start_in(cls, root: Path) -> "Slapd":
        (root / "db").mkdir(parents=True)
        ca_pem = certificates(root)
        (root / "slapd.conf").write_text(
            CONFIG.format(
                root=root, base=BASE_DN, admin=ADMIN_DN, password=ADMIN_PASSWORD
            )
        )
        server = cls(root, free_port(), free_port(), ca_pem)
        server.start()
        server.ldif("ldapadd", SEED)
        return server

    def start(self) -> None:
        with (self.root / "slapd.log").open("ab") as log:
            self.process = subprocess.Popen(
                [
                    SLAPD,
                    "-f",
                    str(self.root / "slapd.conf"),
                    "-h",
                    f"{self.url}/ {self.ldaps_url}/",
                    "-d",
                    "0",
                ],
                stdout=log,
                stderr=log,
            )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "slapd did not start: "
                        + (self.root / "slapd.log").read_text(errors="replace")
                    ) from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def ldif(self, tool: str, text: str) -> None:
        subprocess.run(
            [tool, "-x", "-H", self.url, "-D", ADMIN_DN, "-w", ADMIN_PASSWORD],
            input=text.encode(),
            check=True,
            capture_output=True,
        )

    def add_user(
        self, uid: str, password: str, *, mail: str | None = None, cn: str = ""
    ) -> str:
        dn = f"uid={uid},{USERS_DN}"
        self.ldif(
            "ldapadd",
            f"dn: {dn}\nobjectClass: inetOrgPerson\nuid: {uid}\n"
            f"cn: {cn or uid.title()}\nsn: {uid}\nmail: {mail or f'{uid}@example.org'}\n"
            f"userPassword: {password}\n",
        )
        return dn

    def add_group(self, name: str, *members: str) -> None:
        lines = "".join(f"member: {member}\n" for member in members)
        self.ldif(
            "ldapadd",
            f"dn: cn={name},{GROUPS_DN}\nobjectClass: groupOfNames\ncn: {name}\n{lines}",
        )

    def modify(self, dn: str, attribute: str, value: str) -> None:
        self.ldif(
            "ldapmodify",
            f"dn: {dn}\nchangetype: modify\nreplace: {attribute}\n{attribute}: {value}\n",
        )

    def delete(self, dn: str) -> None:
        subprocess.run(
            [
                "ldapdelete",
                "-x",
                "-H",
                self.url,
                "-D",
                ADMIN_DN,
                "-w",
                ADMIN_PASSWORD,
                dn,
            ],
            check=True,
            capture_output=True,
        )
