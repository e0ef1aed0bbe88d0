"""The render context of fields: Python and pydantic types, defaults, the rule checks the
domain runs, read-model columns and sample values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from generator import naming
from generator.literals import json_literal, python_literal, text_pattern
from generator.resolved import RField
from generator.spec import JSON_INT
from generator.typeref import TypeRef
from generator.values import (
    SAMPLES,
    Catalog,
    Invalid,
    LongText,
    anchored,
    breaking,
    distinct_samples,
    normalized,
    rule_breaks,
    sample,
)

_DEFAULT_MESSAGES = {
    "not_blank": "{title} must not be blank",
    "contains": "{title} must contain {value!r}",
    "pattern": "{title} must match {value}",
    "min": "{title} must be at least {value}",
    "max": "{title} must be at most {value}",
    "min_length": "{title} needs at least {value} {unit}",
    "max_length": "{title} allows at most {value} {unit}",
    "scale": "{title} allows at most {value} {digits} after the point",
}
PYDANTIC_TYPES = {
    "str": "str",
    "int": "int",
    "float": "float",
    "bool": "bool",
    "decimal": "Decimal",
    "uuid": "UUID",
    "date": "date",
    "datetime": "AwareDatetime",
    "json": "JsonValue",
}

# Request fields of these scalars read only their JSON form (a date as ISO 8601 text, not a
# number of seconds; a boolean as true/false, not 1 or "yes"; a number as a JSON number, not
# "12"; a decimal's text in plain notation, not "1e2"), as the OpenAPI document states
# (eaf.web); a decimal is answered in plain notation too.
ANSWER_TYPES = {
    "bool": "JsonBool",
    "date": "JsonDate",
    "datetime": "JsonDateTime",
    "decimal": "PlainDecimal",
}
"""The types of a view's fields: a decimal written in plain notation, whatever text a row
kept it as."""
JSON_TYPES = {
    **ANSWER_TYPES,
    "int": "JsonInt",
    "float": "JsonFloat",
    "decimal": "JsonDecimal",
    "json": "JsonData",
}
NUMBER_FORMS = {
    "int": ("int", "IntegerForm"),
    "float": ("float", "NumberForm"),
    "decimal": ("PlainDecimal", "DecimalForm"),
}
"""A number's type and the check of its JSON form, which comes last in an ``Annotated``
with rules or ``None`` (nested deeper, it would hide the rules from the document)."""
QUERY_TYPES = {
    "date": "JsonDate",
    "datetime": "JsonDateTime",
    "bool": "QueryBool",
    "float": "QueryFloat",
    "int": "QueryInt",
}
"""The filters read from a query string that take only their JSON form: ISO 8601 text (not
seconds), true or false (not 1 or "yes"), a finite number, an int JSON carries exactly."""


@dataclass
class Check:
    """A rule of a field or of its items: ``kind`` and ``value`` (rendered by the
    blueprint's check macro), the message a violation reports, and a JSON value of the
    field that breaks it: the violation then names ``path`` with the ``expected``
    message (``message`` with its ``{value}`` token replaced, if it ``shows_value``);
    ``test`` names the generated tests of it."""

    kind: str
    value: Any
    value_py: str
    message: str
    invalid_json: str | None
    invalid_py: str | None
    exact: bool
    path: str = ""
    test: str = ""
    shows_value: bool = False
    expected: str = ""


@dataclass
class FieldCtx:
    name: str
    attr: str
    title: str
    py: str
    type: str
    kind: str
    element_kind: str
    element: str
    optional: bool
    required: bool
    default_py: str | None
    default_factory: str | None
    default_json: Any
    description: str
    checks: list[Check]
    item_checks: list[Check]
    """The rules of each item of a list (each value of a map)."""
    key_checks: list[Check]
    """The rules of each key of a map."""
    item_py: str | None
    """The Python type of an item of a list or map."""
    param_py: str
    """The type of a path or query parameter taking its values (normalized as requests'
    values are)."""
    ruled_param_py: str
    """``param_py`` with the field's text rules (a path parameter that is checked by them)."""
    param_rules: str
    """The keywords of ``Path(...)`` stating the field's other rules (``, max_length=5``)."""
    denormalized_json: str | None
    """A request's value the field keeps as its sample, once normalized (`` Ada `` for
    ``ada``), or None."""
    item_check_input: str
    nested: str | None
    api: str
    api_request: str
    """The annotation in request models: ``api`` with the rules of the items."""
    api_field: str
    patch_field: str
    """The ``Field(...)`` of the field in a merge patch: left out, it keeps its value."""
    column: str
    sample_json: str
    sample_py: str
    sample: Any
    unique: bool
    references: str | None
    references_snake: str | None
    references_key: str | None
    to_domain: str
    check_input: str
    distinct_py: list[str]
    distinct_json: list[str]
    unused_py: str
    unused_json: str
    """A valid value of a varied field that the tests make no aggregate with ("": none)."""
    alternative_json: str | None
    hidden: bool = False
    """An aggregate's field no view shows."""
    secret: str | None = None
    """``given`` or ``generated``: the field holds the hash of a credential."""
    like: str | None = None
    """The field it takes its type and rules from (``User.username``), if it says so."""
    delegate: str | None = None
    """The check of the field it is ``like`` (``User.check_username``), when its own rules
    are that field's: its check function calls that one rather than repeat it."""
    delegate_guard: bool = False
    """It may be null where the field it is like may not: null breaks none of its rules."""


def title(name: str) -> str:
    return " ".join(naming.words(name)).capitalize()


def field_ctx(field_: RField, catalog: Catalog) -> FieldCtx:
    values = catalog.values
    type_ = field_.type
    default_py = default_factory = None
    if field_.has_default:
        literal = python_literal(field_.default, field_.full_type, values)
        mutable = isinstance(field_.default, list | dict)  # a json field's too
        if (type_.is_collection or mutable) and field_.default is not None:
            default_factory = (
                "list" if literal == "[]" else "dict" if literal == "{}" else (f"lambda: {literal}")
            )
        else:
            default_py = literal
    try:
        sample_value = sample(field_, catalog)
    except Invalid:
        sample_value = field_.default if field_.has_default else None
    element = _element(type_)
    unused: list[Any] = []
    try:
        varied = field_.unique or field_.varied
        # one more than the tests use: a valid value they never make one with (a reference
        # by the key names nothing with it)
        # the aggregates a key shares its values with each take values of their own
        skip = field_.sample_offset * (SAMPLES + 1)
        distinct = (
            distinct_samples(field_, catalog, count=skip + SAMPLES + 1)[skip:] if varied else []
        ) or [sample_value]
        sample_value = distinct[0]
        unused = [distinct.pop()] if len(distinct) > SAMPLES else []
    except Invalid:
        distinct = [sample_value]
    return FieldCtx(
        name=field_.name,
        attr=field_.attr,
        title=title(field_.name),
        py=field_.full_type.py,
        type=str(type_),
        kind=type_.kind,
        element_kind=element.kind,
        element=element.name,
        optional=field_.optional,
        required=field_.required,
        default_py=default_py,
        default_factory=default_factory,
        default_json=field_.default,
        description=field_.description,
        checks=_checks(field_, sample_value, catalog),
        item_checks=_item_checks(field_, sample_value, catalog),
        key_checks=_key_checks(field_, sample_value, catalog),
        item_py=type_.element.py if type_.is_collection else None,
        param_py=param_type(field_) if field_.normalize else field_.full_type.py,
        ruled_param_py=_ruled_param(field_),
        param_rules="".join(f", {arg}" for arg in _rule_args(dict(field_.rules), field_.type)),
        # a reference's sample names nothing the tests made (its own test: the key's)
        denormalized_json=None if field_.references else _denormalized(field_, sample_value),
        item_check_input="Decimal(str(VALUE))" if element.is_scalar("decimal") else "VALUE",
        nested=_nested(type_),
        api=api_type(field_.full_type, ANSWER_TYPES),
        api_request=request_type(field_),
        api_field=api_field(field_),
        patch_field=api_field(field_, patch=True),
        column=type_.column,
        sample_json=json_literal(sample_value),
        sample_py=python_literal(sample_value, field_.full_type, values),
        sample=sample_value,
        unique=field_.unique,
        references=field_.references,
        references_snake=naming.snake(field_.references) if field_.references else None,
        references_key=field_.references_key,
        to_domain=to_domain(field_.full_type, "VALUE"),
        check_input=_check_input(type_),
        distinct_py=[python_literal(v, field_.full_type, values) for v in distinct],
        distinct_json=[json_literal(v) for v in distinct],
        unused_py=python_literal(unused[0], field_.full_type, values) if unused else "",
        unused_json=json_literal(unused[0]) if unused else "",
        alternative_json=_alternative(field_, sample_value, catalog),
        hidden=field_.hidden,
        secret=field_.secret,
        like=field_.like,
    )


def _alternative(field_: RField, value: Any, catalog: Catalog) -> str | None:
    """Another valid value of a scalar field (a request that differs from the sample)."""
    if field_.type.is_scalar("bool") and not field_.optional:
        return json_literal(not value)
    if field_.type.kind not in ("scalar", "enum") or field_.type.is_scalar("bool"):
        return None
    try:
        found = distinct_samples(field_, catalog, count=2)
    except Invalid:
        return None
    return json_literal(found[1]) if len(found) > 1 and found[1] != value else None


def to_domain(type_: TypeRef, expr: str, depth: int = 0) -> str:
    """Python that turns ``expr`` (the HTTP model's value) into the domain's value: value
    objects become the domain's dataclasses."""
    item = f"item{depth}"
    if type_.kind == "optional":
        inner = to_domain(type_.element, expr, depth)
        return expr if inner == expr else f"(None if {expr} is None else {inner})"
    if type_.kind == "value":
        return f"{naming.snake(type_.name)}_of({expr})"
    if type_.kind in ("list", "map"):
        inner = to_domain(type_.element, item, depth + 1)
        if inner == item:
            return expr
        if type_.kind == "list":
            return f"[{inner} for {item} in {expr}]"
        return f"{{key{depth}: {inner} for key{depth}, {item} in {expr}.items()}}"
    return expr


def _element(type_: TypeRef) -> TypeRef:
    while type_.kind in ("list", "map", "optional"):
        type_ = type_.element
    return type_


def _nested(type_: TypeRef) -> str | None:
    """How value objects inside a field are reached: ``value``, ``list``, ``map`` (one
    level), or None when the field holds none."""
    if type_.kind == "value":
        return "value"
    if type_.kind in ("list", "map") and type_.element.kind == "value":
        return type_.kind
    return None


def _checks(field_: RField, valid: Any, catalog: Catalog) -> list[Check]:
    checks = []
    for kind, value in field_.rules:
        invalid = None if valid is None else breaking(kind, value, valid, field_.type)
        checks.append(
            _check(
                kind,
                value,
                field_.type,
                field_.rules,
                field_.messages.get(kind),
                title(field_.name),
                invalid,
            )
        )
        check = checks[-1]
        check.path, check.test = field_.name, kind
        if check.invalid_json is not None:
            check.invalid_py = python_literal(invalid, field_.type, catalog.values)
        if check.shows_value and _innermost(field_.type).kind == "value":
            check.exact = False  # the message shows the domain's value objects, not JSON
    return checks


def _item_checks(field_: RField, valid: Any, catalog: Catalog) -> list[Check]:
    """The checks of each item of a list or map field; a value that breaks one has its
    first item broken (``tags.0``, ``labels.<first key>``)."""
    if not field_.item_rules:
        return []
    type_ = field_.type
    words = title(field_.name).lower()
    what = f"Each of {words}" if type_.kind == "list" else f"Each value of {words}"
    first: Any = None
    path = field_.name
    if isinstance(valid, list) and valid:
        first, path = 0, f"{field_.name}.0"
    elif isinstance(valid, dict) and valid:
        first = next(iter(valid))
        path = f"{field_.name}.{first}"
    checks = []
    for kind, value in field_.item_rules:
        invalid_item = None
        if first is not None:
            invalid_item = breaking(kind, value, valid[first], type_.element)
        check = _check(
            kind,
            value,
            type_.element,
            field_.item_rules,
            field_.item_messages.get(kind),
            what,
            invalid_item,
        )
        check.test = f"item_{kind}"
        if check.invalid_json is not None:
            invalid: Any
            if isinstance(valid, list):
                invalid = [invalid_item, *valid[1:]]
            else:
                invalid = {**valid, first: invalid_item}
            check.path = path
            check.invalid_json = json_literal(invalid)
            check.invalid_py = python_literal(invalid, type_, catalog.values)
            broken_field = any(rule_breaks(k, b, invalid, type_) for k, b in field_.rules)
            check.exact = check.exact and not broken_field
        checks.append(check)
    return checks


_PATH_MARKS = frozenset('.[]"')
LONGEST_KEY_TESTED = 200
"""The generated tests break a keys' ``max_length`` up to this length (a longer key: no
test)."""


def member_path(path: str, key: str | int) -> str:
    """The path of the item ``key`` of the value at ``path``, as the rendered domain's
    ``eaf.domain.member_path`` writes it (``labels.red``, ``labels["a.b"]``)."""
    if isinstance(key, int) or (key and _PATH_MARKS.isdisjoint(key)):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _key_checks(field_: RField, valid: Any, catalog: Catalog) -> list[Check]:
    """The checks of each key of a map field; a value that breaks one has its first key
    replaced by one that breaks it (the violation names that key's path)."""
    if not field_.key_rules:
        return []
    text = TypeRef.scalar("str")
    what = f"Each key of {title(field_.name).lower()}"
    first = next(iter(valid)) if isinstance(valid, dict) and valid else None
    checks = []
    for kind, value in field_.key_rules:
        bad: Any = None if first is None else breaking(kind, value, first, text)
        if isinstance(bad, LongText):
            bad = "x" * int(bad) if int(bad) <= LONGEST_KEY_TESTED else None
        check = _check(
            kind, value, text, field_.key_rules, field_.key_messages.get(kind), what, bad
        )
        check.test = f"key_{kind}"
        if check.invalid_json is not None and isinstance(valid, dict) and bad not in valid:
            invalid = {bad if key == first else key: item for key, item in valid.items()}
            check.path = member_path(field_.name, bad)
            check.invalid_json = json_literal(invalid)
            check.invalid_py = python_literal(invalid, field_.type, catalog.values)
            check.exact = not any(
                rule_breaks(k, b, bad, text) for k, b in field_.key_rules if k != kind
            ) and not any(rule_breaks(k, b, invalid, field_.type) for k, b in field_.rules)
        else:
            check.invalid_json = check.invalid_py = None
        checks.append(check)
    return checks


def _check(
    kind: str,
    value: Any,
    type_: TypeRef,
    rules: list[tuple[str, Any]],
    given: str | None,
    subject: str,
    invalid: Any,
) -> Check:
    """The check of rule ``kind: value`` of a value of ``type_`` (among ``rules``), with
    the ``given`` message or the default one about ``subject``, and ``invalid`` (JSON, or
    None) that breaks it."""
    unit = "character" if type_.is_scalar("str") else "item"
    shown = value
    if kind in ("min", "max") and type_.is_scalar("decimal"):
        shown = format(Decimal(str(value)), "f")  # 1e3 in plain notation: 1000
    message = given or _DEFAULT_MESSAGES[kind].format(
        title=subject,
        value=shown,
        unit=unit if value == 1 else f"{unit}s",
        digits="digit" if value == 1 else "digits",
    )
    shows_value = given is not None and VALUE_TOKEN in given
    exact = (
        invalid is not None
        and not isinstance(invalid, LongText)
        and all(
            other == kind or not rule_breaks(other, bound, invalid, type_) for other, bound in rules
        )
    )
    if isinstance(invalid, LongText):
        exact = len(rules) == 1
    expected = message
    if shows_value and invalid is not None:
        shown = "x" * int(invalid) if isinstance(invalid, LongText) else invalid
        expected = with_value(message, shown)
    return Check(
        kind=kind,
        value=value,
        value_py=_rule_value(kind, value, type_),
        message=message,
        invalid_json=None if invalid is None else json_literal(invalid),
        invalid_py=None,
        exact=exact,
        shows_value=shows_value,
        expected=expected,
    )


VALUE_TOKEN = "{value}"
"""The token a spec's message shows the offending value by (the rendered domain's
``with_value`` replaces it, as `with_value` here does for the generated tests)."""
SHOWN_VALUE = 64


def with_value(message: str, value: Any) -> str:
    """``message`` with each ``{value}`` token replaced by ``value`` (JSON data) written as
    JSON, cut to 64 characters with an ellipsis: what the rendered ``with_value`` of
    ``eaf.domain`` answers for the domain's value of it. Nothing else is read."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > SHOWN_VALUE:
        text = text[: SHOWN_VALUE - 1] + "\u2026"
    return message.replace(VALUE_TOKEN, text)


def _rule_value(kind: str, value: Any, type_: TypeRef) -> str:
    if kind == "pattern":
        return repr(anchored(value))
    if kind in ("min", "max") and type_.is_scalar("decimal"):
        return f"Decimal({str(value)!r})"
    if kind in ("min", "max") and type_.is_scalar("float"):
        return repr(float(value))
    return repr(value)


def api_type(type_: TypeRef, scalars: Mapping[str, str] = JSON_TYPES) -> str:
    """The pydantic annotation of a type in the HTTP request models, or with the
    ``ANSWER_TYPES`` ``scalars`` in the views (value objects as their ``...Body`` models in
    requests and ``...View`` models in views, enums as the domain's enums)."""
    if (
        type_.kind == "optional"
        and scalars is JSON_TYPES
        and type_.element.is_scalar(*NUMBER_FORMS)
    ):
        base, form = NUMBER_FORMS[type_.element.name]
        return f"Annotated[{base} | None, {form}]"
    if type_.kind == "optional":
        return f"{api_type(type_.element, scalars)} | None"
    if type_.kind in ("list", "map"):
        element = api_type(type_.element, scalars)
        if scalars is JSON_TYPES and type_.element.is_scalar("int"):
            # an item has no Field of its own: the integers JSON carries exactly (I-JSON)
            element = f"Annotated[int, Field(ge={-JSON_INT}, le={JSON_INT}), IntegerForm]"
        return f"list[{element}]" if type_.kind == "list" else f"dict[str, {element}]"
    if type_.kind == "value":
        # a view shows what is stored, as it is: its value objects' models check no rule
        # (a rule narrowed since would fail the answer, not the request)
        return f"{type_.name}View" if scalars is ANSWER_TYPES else f"{type_.name}Body"
    if type_.kind == "enum":
        return type_.name
    return scalars.get(type_.name) or PYDANTIC_TYPES[type_.name]


def api_field(field_: RField, *, patch: bool = False) -> str:
    """The ``Field(...)`` of a request model field: its JSON name, default and the rules
    JSON Schema can state (so the OpenAPI document states them). In a merge ``patch``
    every field may be left out (``eaf.web.patch_field``)."""
    args = [f"alias={field_.name!r}"]
    rules = dict(field_.rules)
    if patch:
        pass  # eaf.web.patch_field: left out, the current value is kept
    elif field_.has_default:
        literal = python_literal(field_.default, field_.full_type, {})
        if field_.default is None:
            args.append("default=None")
        elif field_.type.is_collection and _innermost(field_.type).kind in ("value", "enum"):
            # value objects or enum members inside: made from the JSON default as the body's
            # own models and the domain's enums
            args.append(
                f"default_factory=lambda: TypeAdapter({api_type(field_.type)})"
                f".validate_python({json_literal(field_.default)})"
            )
        elif field_.type.is_collection:
            args.append(f"default_factory=lambda: {json_literal(field_.default)}")
        elif isinstance(field_.default, list | dict):  # a json value: typed by the adapter
            args.append(
                f"default_factory=lambda: TypeAdapter({api_type(field_.type)})"
                f".validate_python({json_literal(field_.default)})"
            )
        elif field_.type.kind == "value":
            args.append(f"default_factory=lambda: {field_.type.name}Body.model_validate("
                        f"{json_literal(field_.default)})")  # fmt: skip
        else:
            args.append(f"default={literal}")
    args.extend(_rule_args(rules, field_.type))
    if _holds(field_.type, "decimal"):
        scale = dict(field_.item_rules).get("scale", rules.get("scale"))
        args.append(f"json_schema_extra=decimal_schema({scale})")
    elif field_.secret:
        # never in a view, masked by the documents' readers, never in a log of the body
        args.append('json_schema_extra={"writeOnly": True, "format": "password"}')
        args.append("repr=False")
    elif field_.hidden:
        args.append('json_schema_extra={"writeOnly": True}')  # never in a view
    if field_.description:
        args.append(f"description={field_.description!r}")
    return f"{'patch_field' if patch else 'Field'}({', '.join(args)})"


def _rule_args(rules: dict[str, Any], type_: TypeRef) -> list[str]:
    """The keyword arguments of ``Field(...)`` that state ``rules`` of a ``type_`` value."""
    args = []
    for kind, keyword in (("min_length", "min_length"), ("max_length", "max_length")):
        if kind in rules:
            args.append(f"{keyword}={rules[kind]}")
    for kind, keyword in (("min", "ge"), ("max", "le")):
        if kind in rules:
            args.append(f"{keyword}={_rule_value(kind, rules[kind], type_)}")
        elif type_.is_scalar("int"):
            # the integers JSON carries exactly (I-JSON, RFC 7493), which the stores hold
            # too: a larger one is refused (422), as the document states
            args.append(f"{keyword}={-JSON_INT if kind == 'min' else JSON_INT}")
    if "scale" in rules:
        args.append(f"decimal_places={rules['scale']}")
    return args


def _text_rule(rules: dict[str, Any], type_: TypeRef) -> str | None:
    """The ``eaf.web.TextRule(...)`` of a text with ``rules`` (pattern, not_blank,
    contains), or None: checked in linear time, stated as one JSON Schema pattern."""
    schema = text_pattern(rules) if type_.is_scalar("str") else None
    if schema is None:
        return None
    args = [repr(schema)]
    if "pattern" in rules:
        args.append(f"pattern={anchored(rules['pattern'])!r}")
    if rules.get("not_blank"):
        args.append("not_blank=True")
    if "contains" in rules:
        args.append(f"contains={rules['contains']!r}")
    return f"TextRule({', '.join(args)})"


def request_type(field_: RField) -> str:
    """The annotation of a field in a request model: its ``api_type``, its text rules on
    the text (``Annotated[str, TextRule(...)]``), the rules of its items on the item type
    (``list[Annotated[str, Field(max_length=...), TextRule(...)]]``)."""
    text = _text_rule(dict(field_.rules), field_.type)
    steps = [normalizer(field_)] if field_.normalize else []
    if text is not None or steps:
        annotation = (
            f"Annotated[{', '.join([api_type(field_.type), *steps, *filter(None, [text])])}]"
        )
        return f"{annotation} | None" if field_.optional else annotation
    if not field_.type.is_collection:
        return api_type(field_.full_type)
    element = field_.type.element
    item = _ruled(dict(field_.item_rules), element) if field_.item_rules else None
    key = _ruled(dict(field_.key_rules), TypeRef.scalar("str")) if field_.key_rules else None
    if item is None and key is None:
        return api_type(field_.full_type)
    item = item or api_type(element)
    annotation = f"list[{item}]" if field_.type.kind == "list" else f"dict[{key or 'str'}, {item}]"
    return f"{annotation} | None" if field_.optional else annotation


def normalizer(field_: RField) -> str:
    """The ``eaf.web.Normalized(...)`` of a field's normalizing steps."""
    return f"Normalized({tuple(field_.normalize)!r})"


def _denormalized(field_: RField, sample_value: Any) -> str | None:
    """A value a request may give that ``field_`` keeps as ``sample_value`` (its
    normalizing steps undone where they can be), as JSON code; None if there is none."""
    if not field_.normalize or not isinstance(sample_value, str):
        return None
    given = sample_value
    for step in field_.normalize:
        if step == "trim":
            given = f"  {given} "
        else:
            given = given.upper() if step == "lower" else given.lower()
    if given == sample_value or normalized(given, field_.normalize) != sample_value:
        return None
    return json_literal(given)


def param_type(field_: RField) -> str:
    """The type of a path or query parameter taking ``field_``'s values: normalized as
    its requests' values are (``?email=Ada@Example.org`` finds ``ada@example.org``)."""
    if field_.normalize:
        return f"Annotated[{field_.type.py}, {normalizer(field_)}]"
    return field_.type.py


def _ruled_param(field_: RField) -> str:
    """The type of a path parameter taking ``field_``'s values, checked by its rules: its
    normalizing first, then its text rules (``Annotated[str, TextRule(...)]``)."""
    steps = [normalizer(field_)] if field_.normalize else []
    text = _text_rule(dict(field_.rules), field_.type)
    if text is not None:
        steps.append(text)
    return f"Annotated[{', '.join([field_.type.py, *steps])}]" if steps else field_.type.py


def _ruled(rules: dict[str, Any], type_: TypeRef) -> str | None:
    """The annotation of an item (or a key) of ``type_`` with ``rules`` in a request model
    (``Annotated[str, Field(max_length=20), TextRule(...)]``), or None without rules."""
    args = _rule_args(rules, type_)
    metadata = [f"Field({', '.join(args)})"] if args else []
    text = _text_rule(rules, type_)
    if text is not None:
        metadata.append(text)
    if not metadata:
        return None
    item_type = api_type(type_)
    if type_.is_scalar(*NUMBER_FORMS):
        item_type, form = NUMBER_FORMS[type_.name]
        metadata.append(form)
    return f"Annotated[{item_type}, {', '.join(metadata)}]"


def _innermost(type_: TypeRef) -> TypeRef:
    """What an optional, list or map (nested ones too) holds; ``type_`` itself else."""
    while type_.kind in ("optional", "list", "map"):
        type_ = type_.element
    return type_


def _holds(type_: TypeRef, *names: str) -> bool:
    """Whether ``type_`` is one of the scalars ``names``, or an optional, list or map of them."""
    return _innermost(type_).is_scalar(*names)


__all__ = ["Check", "FieldCtx", "field_ctx", "title"]


def _check_signature(field_: FieldCtx) -> tuple[Any, ...]:
    """What a field's check function checks: its rules (with their messages), its items',
    its keys', and what nests in it."""

    def rules(checks: list[Check]) -> list[tuple[str, str, str]]:
        return [(c.kind, c.value_py, c.message) for c in checks]

    return (
        rules(field_.checks),
        rules(field_.item_checks),
        rules(field_.key_checks),
        field_.nested,
        field_.item_py,
        field_.py.removesuffix(" | None"),
    )


def delegate_checks(owners: dict[str, list[FieldCtx]], inputs: list[FieldCtx]) -> None:
    """Make each of ``inputs`` that is ``like`` a field of ``owners`` (an aggregate's or a
    value object's, by owner name) with the same rules call that field's check."""
    for input_ in inputs:
        owner, _, name = (input_.like or "").partition(".")
        target = next((f for f in owners.get(owner, []) if f.name == name), None)
        if target is None or not (
            target.checks or target.nested or target.item_checks or target.key_checks
        ):
            continue
        if _check_signature(input_) == _check_signature(target):
            input_.delegate = f"{owner}.check_{target.attr}"
            input_.delegate_guard = input_.optional and not target.optional


def _check_input(type_: TypeRef) -> str:
    """How a request's raw value (``VALUE``, as the JSON body held it) becomes the value
    the domain's check takes: a decimal, or each decimal of a list or map, read from its
    text (a JSON number read exactly is a ``Decimal``, an integer an ``int``)."""
    if type_.is_scalar("decimal"):
        return "Decimal(str(VALUE))"
    bare = type_.required()
    if bare.kind not in ("list", "map") or not bare.element.is_scalar("decimal"):
        return "VALUE"
    read = (
        "[Decimal(str(item)) for item in VALUE]"
        if bare.kind == "list"
        else "{key: Decimal(str(item)) for key, item in VALUE.items()}"
    )
    return read if bare is type_ else f"None if VALUE is None else {read}"
