"""A real SAML 2.0 identity provider for the tests: pysaml2's ``Server`` with its own key
pair, answering the AuthnRequests the IAM sends through the (test) browser."""

import base64
import warnings
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.utils import CryptographyDeprecationWarning
from cryptography.x509.oid import NameOID

with warnings.catch_warnings():
    # pysaml2's IdP touches cipher modes that cryptography deprecated (once, on import)
    warnings.simplefilter("ignore", CryptographyDeprecationWarning)
    from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT  # type: ignore[import-untyped]
    from saml2.authn_context import PASSWORD  # type: ignore[import-untyped]
    from saml2.config import IdPConfig  # type: ignore[import-untyped]
    from saml2.metadata import entity_descriptor  # type: ignore[import-untyped]
    from saml2.saml import NAME_FORMAT_BASIC, NAMEID_FORMAT_EMAILADDRESS, NameID  # type: ignore[import-untyped]
    from saml2.server import Server  # type: ignore[import-untyped]

IDP_ENTITY_ID = "https://idp.test/saml/metadata"
SSO_URL = "https://idp.test/saml/sso"


def key_pair(directory: Path, name: str) -> tuple[Path, Path]:
    """A new RSA key and self-signed certificate, as PEM files."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    key_file, cert_file = directory / f"{name}-key.pem", directory / f"{name}-cert.pem"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return key_file, cert_file


@dataclass(frozen=True)
class AuthnRequest:
    """An AuthnRequest the identity provider received and verified."""

    id: str
    acs_url: str
    issuer: str
    relay_state: str
    signed: bool


class TestIdentityProvider:
    """pysaml2's IdP, trusting the service providers whose metadata it is given."""

    __test__ = False

    def __init__(
        self, directory: Path, name: str = "idp", entity_id: str = IDP_ENTITY_ID
    ) -> None:
        self.entity_id = entity_id
        self.key_file, self.cert_file = key_pair(directory, name)
        self._sp_metadata: list[str] = []
        self._lifetime_minutes = 5
        self.server = self._server()

    @property
    def certificate_pem(self) -> str:
        return self.cert_file.read_text()

    def metadata(self) -> str:
        return str(entity_descriptor(self._config()))

    def trust(self, sp_metadata: str) -> None:
        """Know a service provider (its ACS and its request-signing certificate)."""
        self._sp_metadata.append(sp_metadata)
        self.server = self._server()

    def receive(self, url: str, form: dict[str, str] | None = None) -> AuthnRequest:
        """The AuthnRequest of a redirect URL (signature in the query) or a posted
        form (enveloped signature), verified against the SP's metadata."""
        if form is None:
            query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
            parsed = self.server.parse_authn_request(
                query["SAMLRequest"],
                BINDING_HTTP_REDIRECT,
                relay_state=query.get("RelayState"),
                sigalg=query.get("SigAlg"),
                signature=query.get("Signature"),
            )
            signed = "Signature" in query
            relay_state = query.get("RelayState", "")
        else:
            parsed = self.server.parse_authn_request(
                form["SAMLRequest"], BINDING_HTTP_POST
            )
            signed = parsed.message.signature is not None
            relay_state = form.get("RelayState", "")
        message = parsed.message
        return AuthnRequest(
            id=message.id,
            acs_url=message.assertion_consumer_service_url,
            issuer=message.issuer.text,
            relay_state=relay_state,
            signed=signed,
        )

    def respond(
        self,
        request: AuthnRequest,
        *,
        email: str = "alice@corp.example",
        attributes: dict[str, list[str]] | None = None,
        sign_response: bool = False,
        sign_assertion: bool = True,
        audience: str | None = None,
        in_response_to: str | None = None,
        lifetime_minutes: int = 5,
    ) -> str:
        """A base64 Response for ``email``, as the IdP would post it to the ACS."""
        identity = attributes or {
            "mail": [email],
            "displayName": ["Alice Example"],
            "groups": ["staff", "admins"],
        }
        if lifetime_minutes != self._lifetime_minutes:
            self._lifetime_minutes = lifetime_minutes
            self.server = self._server()
        response = self.server.create_authn_response(
            identity=identity,
            in_response_to=in_response_to or request.id,
            destination=request.acs_url,
            sp_entity_id=audience or request.issuer,
            name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=email),
            authn={"class_ref": PASSWORD, "authn_auth": self.entity_id},
            sign_response=sign_response,
            sign_assertion=sign_assertion,
        )
        return base64.b64encode(str(response).encode()).decode()

    def _policy(self) -> dict[str, Any]:
        return {
            "default": {
                "lifetime": {"minutes": self._lifetime_minutes},
                "attribute_restrictions": None,
                "name_form": NAME_FORMAT_BASIC,
            }
        }

    def _config(self) -> IdPConfig:
        settings: dict[str, Any] = {
            "entityid": self.entity_id,
            "key_file": str(self.key_file),
            "cert_file": str(self.cert_file),
            "accepted_time_diff": 60,
            "service": {
                "idp": {
                    "endpoints": {
                        "single_sign_on_service": [
                            (SSO_URL, BINDING_HTTP_REDIRECT),
                            (SSO_URL, BINDING_HTTP_POST),
                        ]
                    },
                    "want_authn_requests_signed": True,
                    "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
                    "policy": self._policy(),
                }
            },
        }
        if self._sp_metadata:
            settings["metadata"] = {"inline": list(self._sp_metadata)}
        config = IdPConfig()
        config.load(settings)
        return config

    def _server(self) -> Server:
        return Server(config=self._config())
