"""The conditions of attribute policies as request bodies: one shape per operator, each
stating its rules in the OpenAPI document (attribute paths, a list for ``in``, literal
networks for ``cidr``, ``value`` or ``valueOf`` but not both)."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from iam.infrastructure.http import JsonSchema

#: ``user.<name>``, ``resource.<name>`` or ``env.<name>``, dotted deeper at will.
ATTRIBUTE_PATTERN = r"^(?:user|resource|env)(?:\.[^.]+)+$"

_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}(?:/(?:3[0-2]|[12]?[0-9]))?"
_H = r"[0-9A-Fa-f]{1,4}"
_IPV6_ADDRESS = "|".join(
    [
        rf"(?:{_H}:){{7}}{_H}",
        rf"(?:{_H}:){{1,7}}:",
        rf"(?:{_H}:){{1,6}}:{_H}",
        rf"(?:{_H}:){{1,5}}(?::{_H}){{1,2}}",
        rf"(?:{_H}:){{1,4}}(?::{_H}){{1,3}}",
        rf"(?:{_H}:){{1,3}}(?::{_H}){{1,4}}",
        rf"(?:{_H}:){{1,2}}(?::{_H}){{1,5}}",
        rf"{_H}:(?::{_H}){{1,6}}",
        rf":(?:(?::{_H}){{1,7}}|:)",
    ]
)
_IPV6 = rf"(?:{_IPV6_ADDRESS})(?:/(?:12[0-8]|1[01][0-9]|[1-9]?[0-9]))?"
#: An IPv4 or IPv6 address or network (``10.0.0.0/8``, ``2001:db8::/32``).
NETWORK_PATTERN = rf"^(?:{_IPV4}|{_IPV6})$"

Attribute = Annotated[str, Field(pattern=ATTRIBUTE_PATTERN)]
Network = Annotated[str, Field(pattern=NETWORK_PATTERN)]
_NOT_NULL: JsonSchema = {"not": {"type": "null"}}


class _Condition(BaseModel):
    model_config = ConfigDict(extra="forbid", regex_engine="python-re")
    attribute: Attribute


class Comparison(_Condition):
    """``<attribute> eq|ne|gt|lt|gte|lte <value | valueOf>``."""

    model_config = ConfigDict(
        json_schema_extra={
            "not": {
                "required": ["value", "valueOf"],
                "properties": {"value": _NOT_NULL, "valueOf": {"type": "string"}},
            }
        }
    )
    op: Literal["eq", "ne", "gt", "lt", "gte", "lte"]
    value: Any = None
    valueOf: Attribute | None = None  # noqa: N815 - the API's name

    @model_validator(mode="after")
    def _one_operand(self) -> "Comparison":
        if self.value is not None and self.valueOf is not None:
            raise ValueError("a condition takes value or valueOf, not both")
        return self


class Membership(_Condition):
    """``<attribute> in|not_in <list | valueOf>``."""

    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {
                    "required": ["value"],
                    "properties": {
                        "value": {"type": "array"},
                        "valueOf": {"type": "null"},
                    },
                },
                {
                    "required": ["valueOf"],
                    "properties": {
                        "valueOf": {"type": "string"},
                        "value": {"type": "null"},
                    },
                },
            ]
        }
    )
    op: Literal["in", "not_in"]
    value: list[Any] | None = None
    valueOf: Attribute | None = None  # noqa: N815 - the API's name

    @model_validator(mode="after")
    def _one_operand(self) -> "Membership":
        if (self.value is None) == (self.valueOf is None):
            raise ValueError("in and not_in take a list value or valueOf, one of them")
        return self


class CidrCondition(_Condition):
    """``<attribute> cidr <network | [network, ...]>``: literal networks only."""

    op: Literal["cidr"]
    value: Network | Annotated[list[Network], Field(min_length=1)]
    valueOf: None = None  # noqa: N815 - the API's name


ConditionBody = Annotated[
    Comparison | Membership | CidrCondition, Field(discriminator="op")
]
"""``<attribute> <op> <value | valueOf>``, e.g. ``user.department eq "sales"``."""
