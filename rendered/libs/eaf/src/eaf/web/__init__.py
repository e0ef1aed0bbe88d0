"""The HTTP boundary of a service: bounded request bodies, errors as RFC 9457 problems (the
domain's failures included), and resource conventions (``eaf.web.resources``: ETags,
idempotency keys, next-page links)."""

from eaf.web._answers import AnsweringRoute, ResponseError, problem_error
from eaf.web._bodies import Body, FieldError, Problem, View
from eaf.web._components import component
from eaf.web._domain import (
    DomainErrors,
    FieldProblem,
    RuleCheck,
    ValueCheck,
    install_domain_problems,
    known_query,
    problem,
)
from eaf.web._errors import UnhandledErrorMiddleware, allowed_methods
from eaf.web._exact import ExactJsonRequest, ExactJsonRoute
from eaf.web._install import install_http_guards
from eaf.web._json import JsonBodyError, check_json, nesting_depth
from eaf.web._limits import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_JSON_DEPTH,
    BodyLimitMiddleware,
    RequestBodyTooLarge,
    RequestLimits,
)
from eaf.web._openapi import (
    add_body_problems,
    auth_problem_responses,
    decimal_schema,
    problem_responses,
)
from eaf.web._problems import PROBLEM_TYPE, problem_response
from eaf.web._types import (
    DecimalForm,
    IntegerForm,
    JsonBool,
    JsonData,
    JsonDate,
    JsonDateTime,
    JsonDecimal,
    JsonFloat,
    JsonInt,
    Normalized,
    NumberForm,
    PathId,
    PlainDecimal,
    QueryBool,
    QueryFloat,
    QueryInt,
    TextRule,
    patch_field,
)

__all__ = [
    "AnsweringRoute",
    "ResponseError",
    "problem_error",
    "Body",
    "FieldError",
    "Problem",
    "View",
    "component",
    "ExactJsonRequest",
    "ExactJsonRoute",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_JSON_DEPTH",
    "PROBLEM_TYPE",
    "BodyLimitMiddleware",
    "DomainErrors",
    "FieldProblem",
    "DecimalForm",
    "IntegerForm",
    "NumberForm",
    "JsonBool",
    "JsonData",
    "JsonDate",
    "JsonDateTime",
    "JsonDecimal",
    "JsonFloat",
    "JsonInt",
    "PathId",
    "PlainDecimal",
    "QueryBool",
    "QueryFloat",
    "QueryInt",
    "Normalized",
    "TextRule",
    "patch_field",
    "JsonBodyError",
    "RequestBodyTooLarge",
    "RequestLimits",
    "RuleCheck",
    "ValueCheck",
    "UnhandledErrorMiddleware",
    "add_body_problems",
    "auth_problem_responses",
    "allowed_methods",
    "check_json",
    "decimal_schema",
    "install_domain_problems",
    "known_query",
    "install_http_guards",
    "nesting_depth",
    "problem",
    "problem_response",
    "problem_responses",
]
