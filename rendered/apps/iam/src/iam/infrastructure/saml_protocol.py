"""SAML 2.0 Web Browser SSO with pysaml2 and xmlsec1: the service provider's metadata,
signed AuthnRequests, and responses verified before anything in them is read."""

import base64
import binascii
import calendar
import logging
import re
import warnings
from datetime import UTC, datetime
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from cryptography import x509
from cryptography.utils import CryptographyDeprecationWarning

from iam.application.ports.saml import (
    POST_BINDING,
    REDIRECT_BINDING,
    IdentityProviderDescription,
    OutgoingRequest,
    SamlError,
    ServiceProvider,
    VerifiedAssertion,
)
from iam.domain.model import SamlIdentityProvider
from iam.infrastructure.saml_keys import SamlKeyPair

with warnings.catch_warnings():
    # pysaml2 touches cipher modes that cryptography deprecated (once, on import)
    warnings.simplefilter("ignore", CryptographyDeprecationWarning)
    from saml2 import (  # type: ignore[import-untyped]
        BINDING_HTTP_POST,
        BINDING_HTTP_REDIRECT,
        create_class_from_xml_string,
        md,
    )
    from saml2.client import Saml2Client  # type: ignore[import-untyped]
    from saml2.config import SPConfig  # type: ignore[import-untyped]
    from saml2.metadata import entity_descriptor  # type: ignore[import-untyped]
    from saml2.response import AuthnResponse  # type: ignore[import-untyped]
    from saml2.saml import (  # type: ignore[import-untyped]
        NAMEID_FORMAT_UNSPECIFIED,
        Assertion,
    )
    from saml2.time_util import str_to_time  # type: ignore[import-untyped]
    from saml2.xmldsig import SIG_RSA_SHA256  # type: ignore[import-untyped]

logger = logging.getLogger(__name__)

BINDINGS = {REDIRECT_BINDING: BINDING_HTTP_REDIRECT, POST_BINDING: BINDING_HTTP_POST}
SAML_NAMES = {value: name for name, value in BINDINGS.items()}
# Any element named Assertion or EncryptedAssertion, whatever its prefix: a response
# carries exactly one Assertion, so a second one (the wrapping attacks) is refused early.
ASSERTION_ELEMENT = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(Encrypted)?Assertion[\s>/]")
IN_RESPONSE_TO = re.compile(rb"""\bInResponseTo\s*=\s*["']([^"'<>]{1,256})["']""")
MAX_RESPONSE_BYTES = 256 * 1024


class Pysaml2Protocol:
    """A :class:`~iam.application.ports.saml.SamlProtocol` with pysaml2."""

    def __init__(
        self,
        keys: SamlKeyPair,
        *,
        clock_skew_seconds: int = 60,
        xmlsec_binary: str | None = None,
    ) -> None:
        self._keys = keys
        self._clock_skew = clock_skew_seconds
        self._xmlsec = xmlsec_binary

    def certificate(self, text: str) -> str:
        body = "".join(
            line.strip() for line in text.strip().splitlines() if "-----" not in line
        )
        try:
            der = base64.b64decode(body, validate=True)
            x509.load_der_x509_certificate(der)
        except (binascii.Error, ValueError):
            raise ValueError("not an X.509 certificate") from None
        return base64.b64encode(der).decode("ascii")

    def describe(self, metadata_xml: str) -> IdentityProviderDescription:
        try:
            descriptor = create_class_from_xml_string(md.EntityDescriptor, metadata_xml)
        except Exception:
            descriptor = None
        if descriptor is None:
            raise ValueError("Not a SAML 2.0 EntityDescriptor")
        if not descriptor.idpsso_descriptor:
            raise ValueError("The metadata describes no identity provider")
        idp = descriptor.idpsso_descriptor[0]
        sso_urls = {
            SAML_NAMES[service.binding]: str(service.location)
            for service in idp.single_sign_on_service
            if service.binding in SAML_NAMES
        }
        certificates = [
            "".join(str(certificate.text).split())
            for key in idp.key_descriptor
            if key.use in (None, "signing")
            for data in key.key_info.x509_data
            if (certificate := data.x509_certificate) is not None and certificate.text
        ]
        if not certificates:
            raise ValueError("The identity provider has no signing certificate")
        for certificate in certificates:
            try:
                self.certificate(certificate)
            except ValueError:
                raise ValueError(
                    "A signing certificate of the identity provider is not an X.509"
                    " certificate"
                ) from None
        return IdentityProviderDescription(
            entity_id=str(descriptor.entity_id),
            sso_urls=sso_urls,
            signing_certificates=certificates,
        )

    def metadata(self, sp: ServiceProvider, *, sign_requests: bool) -> str:
        config = self._config(sp, None, sign_requests=sign_requests)
        return str(entity_descriptor(config))

    def authn_request(
        self, provider: SamlIdentityProvider, sp: ServiceProvider, relay_state: str
    ) -> OutgoingRequest:
        client = Saml2Client(
            self._config(sp, provider, sign_requests=provider.sign_requests)
        )
        binding = BINDINGS[provider.binding]
        request_id, info = client.prepare_for_authenticate(
            entityid=provider.entity_id,
            relay_state=relay_state,
            binding=binding,
            nameid_format=provider.name_id_format,
            sign=provider.sign_requests,
            sigalg=SIG_RSA_SHA256 if provider.sign_requests else None,
            response_binding=BINDING_HTTP_POST,
        )
        if binding == BINDING_HTTP_REDIRECT:
            location = dict(info["headers"])["Location"]
            return OutgoingRequest(str(request_id), provider.binding, location)
        fields = dict(
            re.findall(r'name="(SAMLRequest|RelayState)" value="([^"]*)"', info["data"])
        )
        return OutgoingRequest(
            str(request_id), provider.binding, str(info["url"]), fields
        )

    def in_response_to(self, saml_response: str) -> str | None:
        match = IN_RESPONSE_TO.search(_decoded(saml_response))
        return match.group(1).decode("ascii", "replace") if match else None

    def verify(
        self,
        provider: SamlIdentityProvider,
        sp: ServiceProvider,
        saml_response: str,
        request_id: str,
    ) -> VerifiedAssertion:
        document = _decoded(saml_response)
        found = ASSERTION_ELEMENT.findall(document)
        if found.count(b"Encrypted"):
            raise SamlError("encrypted assertions are not accepted")
        if len(found) != 1:
            raise SamlError("a response carries exactly one assertion")
        client = Saml2Client(
            self._config(sp, provider, sign_requests=provider.sign_requests)
        )
        try:
            response = client.parse_authn_request_response(
                saml_response, BINDING_HTTP_POST, outstanding={request_id: "/"}
            )
        except Exception as error:
            logger.info("SAML response refused: %s: %s", type(error).__name__, error)
            raise SamlError(_reason(error)) from None
        if not isinstance(response, AuthnResponse) or response.assertion is None:
            raise SamlError("the response carries no valid assertion")
        return self._verified(response, sp, request_id)

    def _verified(
        self, response: AuthnResponse, sp: ServiceProvider, request_id: str
    ) -> VerifiedAssertion:
        """The values of the one assertion pysaml2 verified (its signature, or the
        response's, checked against the provider's metadata certificate)."""
        assertion: Assertion = response.assertion
        if response.in_response_to != request_id:
            raise SamlError("the response answers another request")
        if response.response.destination != sp.acs_url:
            raise SamlError("the response is for another Destination")
        subject = assertion.subject
        if subject is None or subject.name_id is None or not subject.name_id.text:
            raise SamlError("the assertion names no subject")
        attributes: dict[str, list[str]] = {}
        for statement in assertion.attribute_statement:
            for attribute in statement.attribute:
                values = [
                    str(value.text).strip()
                    for value in attribute.attribute_value
                    if value.text is not None
                ]
                for name in {attribute.name, attribute.friendly_name} - {None, ""}:
                    attributes.setdefault(str(name), []).extend(values)
        return VerifiedAssertion(
            assertion_id=str(assertion.id),
            issuer=str(assertion.issuer.text).strip(),
            in_response_to=request_id,
            name_id=str(subject.name_id.text).strip(),
            name_id_format=str(subject.name_id.format or NAMEID_FORMAT_UNSPECIFIED),
            attributes=attributes,
            expires_at=_expiry(assertion),
        )

    def _config(
        self,
        sp: ServiceProvider,
        provider: SamlIdentityProvider | None,
        *,
        sign_requests: bool,
    ) -> SPConfig:
        settings: dict[str, Any] = {
            "entityid": sp.entity_id,
            "key_file": str(self._keys.key_file),
            "cert_file": str(self._keys.cert_file),
            "accepted_time_diff": self._clock_skew,
            "allow_unknown_attributes": True,
            "service": {
                "sp": {
                    "endpoints": {
                        "assertion_consumer_service": [(sp.acs_url, BINDING_HTTP_POST)]
                    },
                    "authn_requests_signed": sign_requests,
                    "want_response_signed": False,
                    "want_assertions_signed": False,
                    "want_assertions_or_response_signed": True,
                    "allow_unsolicited": False,
                    "only_use_keys_in_metadata": True,
                }
            },
        }
        if self._xmlsec:
            settings["xmlsec_binary"] = self._xmlsec
        if provider is not None:
            settings["metadata"] = {"inline": [self._idp_metadata(provider)]}
            settings["service"]["sp"]["name_id_format"] = [provider.name_id_format]
        config = SPConfig()
        config.load(settings)
        return config

    def _idp_metadata(self, provider: SamlIdentityProvider) -> str:
        if provider.metadata_xml.strip():
            return provider.metadata_xml
        certificate = self.certificate(provider.signing_certificate)
        services = "".join(
            f"<md:SingleSignOnService Binding={quoteattr(binding)}"
            f" Location={quoteattr(provider.sso_url)}/>"
            for binding in BINDINGS.values()
        )
        return (
            '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"'
            ' xmlns:ds="http://www.w3.org/2000/09/xmldsig#"'
            f" entityID={quoteattr(provider.entity_id)}>"
            '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">'
            '<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>'
            f"{escape(certificate)}"
            "</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>"
            f"{services}</md:IDPSSODescriptor></md:EntityDescriptor>"
        )


def _decoded(saml_response: str) -> bytes:
    if len(saml_response) > MAX_RESPONSE_BYTES * 4 // 3 + 4:
        raise SamlError("the response is too large")
    try:
        return base64.b64decode(saml_response, validate=False)
    except (binascii.Error, ValueError):
        raise SamlError("the response is not base64") from None


def _expiry(assertion: Assertion) -> datetime:
    """The latest NotOnOrAfter of the assertion's conditions and bearer confirmations."""
    instants = []
    if assertion.conditions is not None and assertion.conditions.not_on_or_after:
        instants.append(assertion.conditions.not_on_or_after)
    for confirmation in assertion.subject.subject_confirmation:
        data = confirmation.subject_confirmation_data
        if data is not None and data.not_on_or_after:
            instants.append(data.not_on_or_after)
    if not instants:
        raise SamlError("the assertion never expires")
    return max(datetime.fromtimestamp(_epoch(instant), UTC) for instant in instants)


def _epoch(instant: str) -> float:
    return calendar.timegm(str_to_time(instant))


def _reason(error: Exception) -> str:
    """A short, safe description of a refusal for the error answer."""
    kind = type(error).__name__
    reasons = {
        "SignatureError": "the signature is missing or not the identity provider's",
        "SigverError": "the response is not signed by the identity provider",
        "InvalidAssertion": "a response carries exactly one assertion",
        "ResponseLifetimeExceed": "the response or assertion expired",
        "ToEarly": "the assertion is not valid yet",
        "UnsolicitedResponse": "the response answers no outstanding request",
        "VerificationError": "the assertion's conditions do not hold (expired, or not yet valid)",
        "UnknownPrincipal": "the issuer is not the identity provider",
        "StatusError": "the identity provider reported an error",
    }
    for name, reason in reasons.items():
        if name in kind:
            return reason
    if "audience" in str(error).lower():
        return "the assertion is for another audience"
    return "the response is not valid"
