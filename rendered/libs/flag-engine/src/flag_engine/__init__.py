"""Feature-flag evaluation engine: the Unleash client API document parsed into typed values, is_enabled and variant exactly as the Unleash client specification says (strategies, constraints, segments, variants, dependencies); pure Python, no I/O"""

from flag_engine.context import Context
from flag_engine.engine import Engine
from flag_engine.hashing import normalized_hash
from flag_engine.model import (
    Constraint,
    Dependency,
    Document,
    Feature,
    Override,
    Payload,
    Segment,
    Strategy,
    Variant,
    VariantDefinition,
)
from flag_engine.parsing import DocumentError, apply_delta, parse_document

__all__ = [
    "Constraint",
    "Context",
    "Dependency",
    "Document",
    "DocumentError",
    "Engine",
    "Feature",
    "Override",
    "Payload",
    "Segment",
    "Strategy",
    "Variant",
    "VariantDefinition",
    "apply_delta",
    "normalized_hash",
    "parse_document",
]
