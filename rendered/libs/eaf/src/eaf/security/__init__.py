"""Security primitives: password hashing, signing keys and tokens, permission and policy checks."""

from eaf.security.conditions import Condition, environment
from eaf.security.jwks import (
    ASYMMETRIC_ALGORITHMS,
    KeyRingJwks,
    PublicKeys,
    StaticJwks,
    VerificationKey,
)
from eaf.security.keys import SIGNING_ALGORITHM, KeyRing, SigningKey
from eaf.security.passwords import LoginThrottle, PasswordHasher
from eaf.security.permissions import (
    PERMISSION_PATTERN,
    has_permission,
    permission_matches,
    validate_permission,
    validate_permissions,
)
from eaf.security.policy import Decision, Policy, PolicyEngine, TenantRules
from eaf.security.ports import JwksProvider
from eaf.security.secret_box import SealedSecrets, SecretBox, SecretError
from eaf.security.tokens import (
    ACCESS_TOKEN_TYPE,
    AccessClaims,
    InvalidTokenError,
    IssuedToken,
    TokenIssuer,
)
from eaf.security.verification import TokenVerifier

__all__ = [
    "PERMISSION_PATTERN",
    "ACCESS_TOKEN_TYPE",
    "ASYMMETRIC_ALGORITHMS",
    "SIGNING_ALGORITHM",
    "AccessClaims",
    "Condition",
    "Decision",
    "InvalidTokenError",
    "IssuedToken",
    "JwksProvider",
    "KeyRing",
    "KeyRingJwks",
    "LoginThrottle",
    "PasswordHasher",
    "Policy",
    "PolicyEngine",
    "PublicKeys",
    "SigningKey",
    "SealedSecrets",
    "SecretBox",
    "SecretError",
    "StaticJwks",
    "TenantRules",
    "TokenIssuer",
    "TokenVerifier",
    "VerificationKey",
    "environment",
    "has_permission",
    "permission_matches",
    "validate_permission",
    "validate_permissions",
]
