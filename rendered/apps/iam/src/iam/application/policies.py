"""The attribute policies' use cases: a condition is also one the policy engine can
evaluate (a list for ``in`` and ``not_in``, literal networks for ``cidr``), and each
permission is kept once, in the order given."""

from eaf.eventsourcing import Idempotency
from eaf.security import Condition

from iam.application.services import PolicyService
from iam.domain.errors import DomainValidationError, Violation
from iam.domain.model import Policy
from iam.domain.types import ConditionOperator, PolicyCondition, PolicyEffect


def engine_condition(condition: PolicyCondition) -> Condition:
    """``condition`` as the policy engine evaluates it (ValueError: it cannot)."""
    return Condition(
        attribute=condition.attribute,
        op=condition.op.value,
        value=condition.value_,
        value_of=condition.value_of,
    )


# What the engine refuses once the spec's rules hold, said as those rules say it (the
# OpenAPI document lists them).
_ENGINE_RULES = {
    ConditionOperator.IN: "in and not_in take a list value or valueOf, one of them",
    ConditionOperator.NOT_IN: "in and not_in take a list value or valueOf, one of them",
    ConditionOperator.CIDR: "a cidr condition needs a network or a list of them",
}


def _checked(conditions: list[PolicyCondition]) -> None:
    found = []
    for index, condition in enumerate(conditions):
        prefix = f"conditions.{index}."
        broken = condition.problems(prefix)
        if broken:
            found.extend(broken)
            continue
        try:
            engine_condition(condition)
        except ValueError as error:
            message = _ENGINE_RULES.get(condition.op, str(error))
            found.append(Violation(prefix + "value", message))
    DomainValidationError.raise_for(found)


class Policies(PolicyService):
    """The generated use cases, refusing a condition the engine cannot evaluate (422 at
    ``conditions.<i>.value``)."""

    async def create(
        self,
        *,
        name: str,
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        idempotency: Idempotency | None = None,
    ) -> Policy:
        _checked(conditions)
        return await super().create(
            name=name,
            effect=effect,
            permissions=list(dict.fromkeys(permissions)),
            conditions=conditions,
            idempotency=idempotency,
        )

    async def change(
        self,
        id: str,
        *,
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        _checked(conditions)
        return await super().change(
            id,
            effect=effect,
            permissions=list(dict.fromkeys(permissions)),
            conditions=conditions,
            expected_version=expected_version,
            idempotency=idempotency,
        )
