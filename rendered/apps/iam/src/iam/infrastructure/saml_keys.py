"""The service provider's own signing key and self-signed certificate, as two PEM files
(the key with mode 0600) beside the token key ring; made on first use, never committed."""

import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID

from iam.infrastructure.config import Settings

KEY_FILE, CERTIFICATE_FILE = "saml-sp-key.pem", "saml-sp-cert.pem"
VALIDITY = timedelta(days=3650)


@dataclass(frozen=True)
class SamlKeyPair:
    """Where the key and certificate are (xmlsec1 reads files, not bytes)."""

    key_file: Path
    cert_file: Path

    @property
    def certificate_base64(self) -> str:
        """The certificate's base64 DER, as metadata carries it."""
        pem = self.cert_file.read_text(encoding="ascii")
        return "".join(line for line in pem.splitlines() if "-----" not in line)

    @classmethod
    def from_settings(cls, settings: Settings) -> "SamlKeyPair":
        """The pair in ``security.saml.keys_dir``, else beside the token key ring
        (``security.keys_file``)."""
        directory = Path(
            settings.text("security.saml.keys_dir")
            or settings.path("security.keys_file").parent
        )
        return cls.load_or_create(
            directory if directory.is_absolute() else settings.service_dir / directory,
            common_name=f"{settings.name} SAML service provider",
        )

    @classmethod
    def load_or_create(cls, directory: Path, common_name: str) -> "SamlKeyPair":
        """The pair stored in ``directory``, or a new RSA-2048 pair written there."""
        pair = cls(directory / KEY_FILE, directory / CERTIFICATE_FILE)
        if pair.key_file.exists() and pair.cert_file.exists():
            return pair
        directory.mkdir(parents=True, exist_ok=True)
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name[:64])])
        now = datetime.now(UTC)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(minutes=5))
            .not_valid_after(now + VALIDITY)
            .sign(key, hashes.SHA256())
        )
        _write(
            pair.key_file,
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            ),
        )
        _write(pair.cert_file, certificate.public_bytes(serialization.Encoding.PEM))
        return pair


def _write(path: Path, data: bytes) -> None:
    """Write atomically with mode 0600 (the key is secret; the certificate does no harm)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
