"""The HTTP boundary of a service: bounded request bodies and errors as RFC 9457 problems."""

from eaf.web._errors import UnhandledErrorMiddleware, allowed_methods
from eaf.web._install import install_http_guards
from eaf.web._json import JsonBodyError, check_json, nesting_depth
from eaf.web._limits import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_JSON_DEPTH,
    BodyLimitMiddleware,
    RequestBodyTooLarge,
    RequestLimits,
)
from eaf.web._openapi import add_body_problems
from eaf.web._problems import PROBLEM_TYPE, problem_response

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_JSON_DEPTH",
    "PROBLEM_TYPE",
    "BodyLimitMiddleware",
    "JsonBodyError",
    "RequestBodyTooLarge",
    "RequestLimits",
    "UnhandledErrorMiddleware",
    "add_body_problems",
    "allowed_methods",
    "check_json",
    "install_http_guards",
    "nesting_depth",
    "problem_response",
]
