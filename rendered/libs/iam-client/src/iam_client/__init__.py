"""IAM client: local JWT validation against cached JWKS, a revocation deny list fed by IAM's events, introspection, permission checks, FastAPI dependencies"""

from iam_client.client import IamClient, RemoteJwks
from iam_client.fastapi import (
    ProblemError,
    authenticated,
    bearer_token,
    install,
    require,
    security_context,
)
from iam_client.feed import RevocationFeed
from iam_client.http import forward_context, forwarding_client
from iam_client.model import (
    AuthenticationError,
    IamDownError,
    IamUnavailableError,
    PermissionDeniedError,
    TokenValidator,
    User,
)
from iam_client.revocation import RevocationList

__all__ = [
    "AuthenticationError",
    "IamClient",
    "IamDownError",
    "IamUnavailableError",
    "PermissionDeniedError",
    "ProblemError",
    "RemoteJwks",
    "RevocationFeed",
    "RevocationList",
    "TokenValidator",
    "User",
    "authenticated",
    "bearer_token",
    "forward_context",
    "forwarding_client",
    "install",
    "require",
    "security_context",
]
