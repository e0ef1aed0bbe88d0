"""Output ports of the identity use cases beyond the generated repositories."""

from typing import Protocol

from iam.domain.model import Policy, Role


class AccessRules(Protocol):
    """Every role and policy of the current tenant, as of the last stored event
    (read-your-writes, unlike the eventually consistent read models)."""

    async def roles(self) -> dict[str, Role]:
        """The tenant's roles by name."""
        ...

    async def policies(self) -> list[Policy]:
        """The tenant's policies, whatever their status."""
        ...
