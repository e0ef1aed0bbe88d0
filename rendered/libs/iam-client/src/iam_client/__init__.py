"""IAM client: local JWT validation against cached JWKS, introspection, permission checks, FastAPI dependencies"""

from iam_client.client import IamClient, RemoteJwks
from iam_client.fastapi import (
    ProblemError,
    authenticated,
    bearer_token,
    install,
    require,
    security_context,
)
from iam_client.http import forward_context, forwarding_client
from iam_client.model import (
    AuthenticationError,
    IamUnavailableError,
    PermissionDeniedError,
    User,
)

__all__ = [
    "AuthenticationError",
    "IamClient",
    "IamUnavailableError",
    "PermissionDeniedError",
    "ProblemError",
    "RemoteJwks",
    "User",
    "authenticated",
    "bearer_token",
    "forward_context",
    "forwarding_client",
    "install",
    "require",
    "security_context",
]
