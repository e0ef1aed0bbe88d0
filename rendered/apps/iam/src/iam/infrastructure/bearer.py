"""The bearer tokens of the IAM's generated endpoints: the tokens it issued itself,
checked as its own routers check them (signature, revocation, an active tenant and an
active subject), with no call to its own published keys."""

from collections.abc import Mapping
from typing import Any

from eaf.security import has_permission
from iam_client import AuthenticationError, User

from iam.application.directory import Directory
from iam.application.oauth import InactiveTokenError
from iam.application.tokens import TokenService
from iam.domain.errors import NotFoundError


class OwnBearerTokens:
    """An :class:`iam_client.TokenValidator` on the IAM's token service and directory."""

    def __init__(self, tokens: TokenService, directory: Directory) -> None:
        self._tokens = tokens
        self._directory = directory

    async def validate(self, token: str, *, check_revocation: bool = False) -> User:
        """The user of an active token the IAM issued (always checked against what it
        revoked or disabled: it knows at once)."""
        try:
            claims = await self._tokens.authenticate(token)
        except InactiveTokenError as error:
            raise AuthenticationError(error.reason) from None
        return User.from_claims(claims, token)

    def has_permission(
        self, user: User, permission: str, resource: Mapping[str, Any] | None = None
    ) -> bool:
        """Whether the token grants ``permission`` (attribute policies are decided by
        ``AccessControl.check``, not here)."""
        if resource is not None:
            raise ValueError("attribute-based decisions are AccessControl.check's")
        return has_permission(user.permissions, permission)

    async def knows_tenant(self, tenant_id: str) -> bool:
        """Whether the tenant exists (a platform administrator's path may name it)."""
        try:
            await self._directory.tenant(tenant_id)
        except NotFoundError:
            return False
        return True
