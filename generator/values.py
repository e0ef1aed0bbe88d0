"""Spec values (defaults, examples) checked against their type and rules, and the sample
values the generated tests use: valid ones that meet every rule of a field at once, and
for each rule a value that breaks that rule alone."""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from generator.patterns import fullmatch
from generator.regex_sample import sample_matching
from generator.resolved import RField
from generator.typeref import TypeRef


@dataclass(frozen=True)
class Catalog:
    """The named types of a spec: each value object's fields, each enum's members; and
    the optional references the generated tests cannot satisfy by making the aggregate
    they name first (a reference to its own aggregate, or along a cycle), by location:
    no fixed id names an existing aggregate, so their sample is null."""

    values: Mapping[str, list[RField]]
    enums: Mapping[str, list[str]]
    unmade_references: frozenset[tuple[str | int, ...]] = frozenset()


SAMPLE_UUID = "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f"
_SCALAR_SAMPLES: dict[str, Any] = {
    "str": "sample",
    "int": 1,
    "float": 1.5,
    "bool": True,
    "decimal": "10.50",
    "uuid": SAMPLE_UUID,
    "datetime": "2030-01-02T03:04:05Z",
    "date": "2030-01-02",
    "json": {"sample": [1, "two", True]},
}
LONG_TEXT = 10_000
"""Longer strings are written as an expression (``"x" * 1001``) in generated tests."""


class Invalid(ValueError):
    """A value that does not fit its type or rules."""


def conform(
    value: Any,
    type_: TypeRef,
    rules: list[tuple[str, Any]],
    types: Catalog,
    items: list[tuple[str, Any]] | None = None,
    *,
    keys: list[tuple[str, Any]] | None = None,
) -> Any:
    """``value`` as JSON data of ``type_`` meeting ``rules`` (and, for a list or map, each
    item meeting ``items``; for a map, each key meeting ``keys``); raises Invalid saying
    why."""
    if type_.kind == "optional":
        required = type_.required()
        return None if value is None else conform(value, required, rules, types, items, keys=keys)
    if value is None:
        raise Invalid("null is not allowed (the field is not optional)")
    normalized = _conform_type(value, type_, types, items or [])
    if type_.kind == "map":
        for key in normalized:
            for rule, bound in keys or []:
                broken = rule_breaks(rule, bound, key, TypeRef.scalar("str"))
                if broken:
                    raise Invalid(f"the key {key[:40]!r} {broken}")
    for key, bound in rules:
        broken = rule_breaks(key, bound, normalized, type_)
        if broken:
            raise Invalid(broken)
    return normalized


def _conform_type(value: Any, type_: TypeRef, types: Catalog, items: list[tuple[str, Any]]) -> Any:
    if type_.kind == "list":
        if not isinstance(value, list):
            raise Invalid(f"expected a list, got {_kind(value)}")
        return [_item(item, f"item {i}", type_, types, items) for i, item in enumerate(value)]
    if type_.kind == "map":
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise Invalid(f"expected a mapping of text keys, got {_kind(value)}")
        return {
            k: _item(item, f"the value of {str(k)[:40]!r}", type_, types, items)
            for k, item in value.items()
        }
    if type_.kind == "enum":
        members = types.enums.get(type_.name, [])
        if value not in members:
            raise Invalid(f"{str(value)[:40]!r} is not a {type_.name} ({', '.join(members)})")
        return value
    if type_.kind == "value":
        return _conform_value(value, type_.name, types)
    converter = _SCALARS[type_.name]
    return converter(value)


def _item(
    value: Any, what: str, type_: TypeRef, types: Catalog, items: list[tuple[str, Any]]
) -> Any:
    """An item of a list or map ``type_`` conformed to its type and the ``items`` rules."""
    if not items:
        return conform(value, type_.element, [], types)
    try:
        return conform(value, type_.element, items, types)
    except Invalid as error:
        raise Invalid(f"{what} {error}") from None


def _conform_value(value: Any, name: str, types: Catalog) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(f"expected a {name} (a mapping of its fields), got {_kind(value)}")
    fields = {f.name: f for f in types.values.get(name, [])}
    unknown = sorted(set(value) - set(fields))
    if unknown:
        raise Invalid(f"{name} has no field {unknown[0]!r} (fields: {', '.join(fields)})")
    result: dict[str, Any] = {}
    for field_name, field in fields.items():
        if field_name not in value:
            if field.required:
                raise Invalid(f"{name}.{field_name} is missing")
            continue
        try:
            result[field_name] = conform(
                value[field_name],
                field.full_type,
                field.rules,
                types,
                field.item_rules,
                keys=field.key_rules,
            )
        except Invalid as error:
            raise Invalid(f"{name}.{field_name}: {error}") from None
    return result


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise Invalid(f"expected text, got {_kind(value)}")
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"expected an integer, got {_kind(value)}")
    if abs(value) >= 2**63:
        raise Invalid("an integer is below 2**63")
    return value


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Invalid(f"expected a number, got {_kind(value)}")
    if not math.isfinite(value) or abs(value) > 1e300:
        raise Invalid("a number is finite")
    return float(value)


def _decimal(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise Invalid(f"expected a decimal number, got {_kind(value)}")
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        raise Invalid(f"{str(value)[:40]!r} is not a decimal number") from None
    if not number.is_finite() or abs(number.adjusted()) > 30:
        raise Invalid("a decimal is finite and below 10**30")
    return format(number, "f")  # plain notation, as the documents' patterns state


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid(f"expected true or false, got {_kind(value)}")
    return value


def _uuid(value: Any) -> str:
    try:
        return str(uuid.UUID(_str(value)))
    except ValueError:
        raise Invalid(f"{str(value)[:40]!r} is not a UUID") from None


def _date(value: Any) -> str:
    if isinstance(value, date) and not isinstance(value, datetime):
        return value.isoformat()
    try:
        return date.fromisoformat(_str(value)).isoformat()
    except ValueError:
        raise Invalid(f"{str(value)[:40]!r} is not a date (YYYY-MM-DD)") from None


def _datetime(value: Any) -> str:
    if isinstance(value, datetime):
        parsed = value
    else:
        try:
            parsed = datetime.fromisoformat(_str(value))
        except ValueError:
            raise Invalid(f"{str(value)[:40]!r} is not an ISO 8601 date and time") from None
    if parsed.tzinfo is None:
        raise Invalid("a date and time has a time zone (Z or +00:00)")
    try:  # the instant in UTC, as a service keeps and answers it
        instant = parsed.astimezone(UTC)
    except OverflowError:
        raise Invalid("a date and time is within years 1 to 9999 in UTC") from None
    return instant.isoformat().replace("+00:00", "Z")


def _json_value(value: Any) -> Any:
    """Any JSON value, its numbers finite (null inside a list or object too)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise Invalid("a number is finite")
        if isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            if not all(isinstance(k, str) for k in item):
                raise Invalid("an object's keys are text")
            pending.extend(item.values())
        elif item is not None and not isinstance(item, str | int | float | bool):
            raise Invalid(f"expected a JSON value, got {_kind(item)}")
    return value


_SCALARS: dict[str, Callable[[Any], Any]] = {
    "str": _str,
    "int": _int,
    "float": _float,
    "decimal": _decimal,
    "bool": _bool,
    "uuid": _uuid,
    "date": _date,
    "datetime": _datetime,
    "json": _json_value,
}


def anchored(pattern: str) -> str:
    """A spec pattern (the whole value must match) as a JSON Schema pattern; the rendered
    code and this module match the whole value with it (``re.fullmatch``: a search would
    let ``$`` take a trailing line break)."""
    inner = pattern[1:] if pattern.startswith("^") else pattern
    if inner.endswith("$") and not re.search(r"(?<!\\)(\\\\)*\\\$$", inner):
        inner = inner[:-1]
    return f"^(?:{inner})$"


def rule_breaks(key: str, bound: Any, value: Any, type_: TypeRef) -> str | None:
    """Why JSON ``value`` of ``type_`` breaks rule ``key: bound``, or None."""
    if key == "not_blank":
        return "must not be blank" if bound and is_blank(value) else None
    if key == "contains":
        return f"must contain {bound!r}" if bound not in value else None
    if key == "pattern":
        return None if fullmatch(anchored(bound), value) else f"must match {bound}"
    if key in ("min_length", "max_length"):
        size = len(value)
        unit = ("character" if isinstance(value, str) else "item") + ("" if bound == 1 else "s")
        if key == "min_length" and size < bound:
            return f"needs at least {bound} {unit}"
        if key == "max_length" and size > bound:
            return f"allows at most {bound} {unit}"
        return None
    if key in ("min", "max"):
        number = Decimal(str(value)) if type_.is_scalar("decimal") else value
        limit = Decimal(str(bound)) if type_.is_scalar("decimal") else bound
        if key == "min" and number < limit:
            return f"must be at least {bound}"
        if key == "max" and number > limit:
            return f"must be at most {bound}"
        return None
    if key == "scale":
        _, figures, exponent = Decimal(value).as_tuple()
        trailing = len(figures) - len("".join(map(str, figures)).rstrip("0"))
        places = (
            max(-exponent - trailing, 0)
            if isinstance(exponent, int) and exponent < 0 and any(figures)
            else 0
        )
        digits = "digit" if bound == 1 else "digits"
        return f"allows at most {bound} {digits} after the point" if places > bound else None
    return None


def normalized(value: Any, steps: tuple[str, ...]) -> Any:
    """``value`` as a request's text becomes with the normalizing ``steps`` (what
    ``eaf.web.Normalized`` does): anything but text as it is."""
    if not isinstance(value, str):
        return value
    for step in steps:
        value = (
            value.strip() if step == "trim" else value.lower() if step == "lower" else value.upper()
        )
    return value


def made_by_id(field: RField) -> bool:
    """Whether the tests make a new aggregate for ``field``, a reference by id, for each
    request (a reference by a key names the aggregate the examples make)."""
    return (
        field.references is not None
        and field.references_key is None
        and field.type.required().is_scalar("uuid")
    )


def sample(field: RField, types: Catalog) -> Any:
    """A JSON value of ``field`` meeting all its rules: its example, else one derived from
    the rules; raises Invalid when none can be derived (a pattern the sampler cannot
    satisfy together with the lengths): then the field needs an ``example``. An optional
    reference the tests cannot make first is null unless it has an example (Catalog)."""
    if field.has_example:
        return field.example
    if field.optional and field.loc in types.unmade_references:
        return None  # a reference, or a value object holding one, the tests cannot make
    if made_by_id(field):
        # each reference by id names an aggregate of its own (the tests make one for each):
        # two of them differ (a guest moved to a room is moved to another than its own)
        return str(uuid.uuid5(uuid.UUID(SAMPLE_UUID), field.name))
    made = sample_of(field.type, field.rules, types, field.name, field.item_rules, field.key_rules)
    if field.normalize:  # as a request's would be kept: the tests expect it back so
        made = normalized(made, field.normalize)
        broken = [key for key, bound in field.rules if rule_breaks(key, bound, made, field.type)]
        if broken:
            raise Invalid(f"needs an example (its sample breaks {broken[0]} once normalized)")
    return made


def sample_of(
    type_: TypeRef,
    rules: list[tuple[str, Any]],
    types: Catalog,
    name: str = "value",
    items: list[tuple[str, Any]] | None = None,
    keys: list[tuple[str, Any]] | None = None,
) -> Any:
    """A JSON value of ``type_`` that meets ``rules`` (a list or map: each item ``items``,
    each key of a map ``keys``; then it holds at least one item, so that the tests see
    the items' and keys' rules kept)."""
    rule = dict(rules)
    if type_.kind == "enum":
        return types.enums[type_.name][0]
    if type_.kind == "value":
        return {
            f.name: sample(f, types)
            for f in types.values.get(type_.name, [])
            if f.required or f.has_example
        }
    if type_.kind in ("list", "map"):
        count = int(rule.get("min_length") or 0)
        if (items or keys) and count == 0 and rule.get("max_length") != 0:
            count = 1
        if count > 100:
            raise Invalid("needs an example (more than 100 items)")
        made = [sample_of(type_.element, items or [], types) for _ in range(count)]
        if type_.kind == "list":
            return made
        return dict(zip(_sample_keys(count, keys or []), made, strict=True))
    if type_.name == "str":
        return _sample_text(rule, name)
    value = _SCALAR_SAMPLES[type_.name]
    if type_.name in ("int", "float", "decimal"):
        value = _sample_number(type_.name, rule)
    return value


def _sample_keys(count: int, keys: list[tuple[str, Any]]) -> list[str]:
    """``count`` different keys of a map meeting ``keys`` (``key0``, ``key1``... without
    rules)."""
    if not keys:
        return [f"key{i}" for i in range(count)]
    if count == 0:
        return []
    first = _sample_text(dict(keys), "key")
    found = [first]
    for candidate in _variants(first, TypeRef.scalar("str")):
        if len(found) == count:
            break
        fits = not any(rule_breaks(k, b, candidate, TypeRef.scalar("str")) for k, b in keys)
        if fits and candidate not in found:
            found.append(candidate)
    if len(found) < count:
        raise Invalid(f"needs an example (fewer than {count} keys meet the keys' rules)")
    return found


def _sample_text(rule: dict[str, Any], name: str) -> str:
    low = int(rule.get("min_length") or 0)
    high = rule.get("max_length")
    if "pattern" in rule:
        text = sample_matching(rule["pattern"], low, high)
        if text is None:
            raise Invalid(f"needs an example (no sample matches {rule['pattern']!r})")
    else:
        needed = rule.get("contains", "")
        text = f"{name}{needed}x" if needed else name
        if high is not None and len(text) > high:
            text = (needed + "x" * high)[: max(high, len(needed))]
        if len(text) < low:
            text = text + "x" * (low - len(text))
        if low > LONG_TEXT:
            raise Invalid(f"needs an example (at least {low} characters)")
    for key in ("not_blank", "contains", "pattern", "min_length", "max_length"):
        if key in rule and rule_breaks(key, rule[key], text, TypeRef.scalar("str")):
            raise Invalid(f"needs an example (no sample meets all its rules: {key})")
    return text


def _sample_number(kind: str, rule: dict[str, Any]) -> Any:
    low, high = rule.get("min"), rule.get("max")
    preferred: Decimal = Decimal(str(_SCALAR_SAMPLES[kind]))
    if low is not None and preferred < Decimal(str(low)):
        preferred = Decimal(str(low))
    if high is not None and preferred > Decimal(str(high)):
        preferred = Decimal(str(high))
    if kind == "int":
        whole = int(preferred.to_integral_value(rounding="ROUND_CEILING"))
        if high is not None and whole > high:
            raise Invalid("needs an example (no integer between min and max)")
        return whole
    if kind == "float":
        return float(preferred)
    scale = rule.get("scale")
    if scale is not None:
        quantum = Decimal(1).scaleb(-int(scale))
        preferred = preferred.quantize(quantum, rounding="ROUND_CEILING")
        if high is not None and preferred > Decimal(str(high)):
            raise Invalid("needs an example (no decimal between min and max at this scale)")
    return str(preferred)


# ECMAScript's white space (what \s matches in an OpenAPI pattern), written out so that
# Python's re, which counts more characters as white space, means the same.
NOT_BLANK = r"\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def is_blank(value: str) -> bool:
    """Whether ``value`` is blank as the rendered domain and the OpenAPI pattern see it."""
    return re.search(f"[^{NOT_BLANK}]", value) is None


def breaking(key: str, bound: Any, valid: Any, type_: TypeRef) -> Any:
    """A JSON value that breaks rule ``key`` (only it, where possible), or None when no
    such value can be derived (a pattern)."""
    if key == "not_blank":
        return "   " if bound else None
    if key == "contains":
        return "x" * len(valid) if bound not in "x" * max(len(valid), 1) else "y"
    if key == "min_length" and bound > 0:
        if isinstance(valid, dict):
            return dict(list(valid.items())[: bound - 1])
        return valid[: bound - 1]
    if key == "max_length":
        if isinstance(valid, str):
            return LongText(bound + 1)
        return None
    if key in ("min", "max"):
        sign = -1 if key == "min" else 1
        if type_.is_scalar("decimal"):
            return str(Decimal(str(bound)) + sign * Decimal("0.5"))
        if type_.is_scalar("int"):
            return bound + sign
        return _float_beyond(float(bound), sign)
    if key == "scale":
        return str(
            Decimal(str(valid)).quantize(Decimal(1).scaleb(-(bound + 1)))
            + Decimal(1).scaleb(-(bound + 1))
        )
    return None


def _float_beyond(bound: float, sign: int) -> float | None:
    """A float past ``bound`` (below it for ``sign`` -1): half a unit away, or the next
    float where that rounds back to the bound (``1e20 - 0.5 == 1e20``); None past the
    largest float (no float breaks ``max: 1.7976931348623157e308``)."""
    beyond = bound + sign * 0.5
    if beyond == bound:
        beyond = math.nextafter(bound, sign * math.inf)
    return beyond if math.isfinite(beyond) else None


class LongText(int):
    """A string of ``x`` this long, written as ``"x" * n`` in generated code."""


_VARIANTS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


SAMPLES = 12
"""How many distinct examples the generated tests take of a unique or key field."""


def distinct_samples(field: RField, types: Catalog, count: int = SAMPLES) -> list[Any]:
    """Up to ``count`` different valid values of a unique field (its sample first), so that
    tests can make several aggregates without breaking uniqueness."""
    first = sample(field, types)
    found = [first]
    if first is None:
        return found
    if field.type.is_scalar("uuid"):
        return [first, *(f"00000000-0000-4000-8000-{n:012d}" for n in range(1, count))]
    if field.type.kind == "enum":
        return list(types.enums[field.type.name])[:count]
    # a key that ignores case: values equal once case-folded are one
    same: Callable[[Any], Any] = (
        (lambda v: str(v).casefold())
        if field.folded
        else (lambda v: json.dumps(v, sort_keys=True))
        if field.type.is_scalar("json")
        else (lambda v: v)
    )
    seen = {same(first)}
    for candidate in _variants(first, field.type):
        if len(found) >= count:
            break
        candidate = normalized(candidate, field.normalize)
        try:
            value = conform(
                candidate, field.type, field.rules, types, field.item_rules, keys=field.key_rules
            )
        except Invalid:
            continue
        if same(value) not in seen:
            seen.add(same(value))
            found.append(value)
    return found


def _variants(first: Any, type_: TypeRef) -> list[Any]:
    if type_.is_scalar("json"):
        return [{"variant": step} for step in range(1, 40)]
    if type_.is_scalar("int"):
        return [first + step for step in (*range(1, 40), *range(-1, -40, -1))]
    if type_.is_scalar("decimal"):
        return [str(Decimal(first) + step) for step in range(1, 40)]
    if type_.is_scalar("date"):
        return [
            (date.fromisoformat(first) + timedelta(days=step)).isoformat() for step in range(1, 40)
        ]
    if type_.is_scalar("str"):
        text = str(first)
        variants = [
            text[:i] + ch + text[i + 1 :] for i in range(len(text) - 1, -1, -1) for ch in _VARIANTS
        ]
        variants += [text + ch for ch in _VARIANTS]
        return variants
    return []


def to_eval(value: Any, type_: TypeRef, catalog: Catalog) -> Any:
    """JSON sample data as the values expressions compute with."""
    if value is None:
        return None
    type_ = type_.required()
    if type_.kind == "list":
        return [to_eval(item, type_.element, catalog) for item in value]
    if type_.kind == "map":
        return {key: to_eval(item, type_.element, catalog) for key, item in value.items()}
    if type_.kind == "value":
        fields = {f.name: f for f in catalog.values.get(type_.name, [])}
        return {
            name: to_eval(value.get(name, f.default), f.full_type, catalog)
            for name, f in fields.items()
        }
    if type_.is_scalar("decimal"):
        return Decimal(str(value))
    if type_.is_scalar("date"):
        return date.fromisoformat(value)
    if type_.is_scalar("datetime"):
        return datetime.fromisoformat(value)
    return value
