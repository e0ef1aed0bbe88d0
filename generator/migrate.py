"""Version 1 specs upgraded to version 2: field ``rules`` lists become inline rule keys
(``min_length: 3`` with ``messages``), and ``models`` (request bodies, which version 2
derives from the command's parameters) become the endpoints' ``request`` names.

The same function upgrades spec data on load (so version 1 specs keep working) and, on
a comment-keeping YAML tree, rewrites a file (`generate migrate`)."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from generator.spec import FORMAT_VERSION, RULE_KEYS

Loc = tuple[str | int, ...]
_STRICTER = {"min": max, "min_length": max, "max": min, "max_length": min}


class Migration:
    """What upgrading one spec did: ``moved`` maps each new location to the old one (for
    error positions), ``problems`` lists what could not be upgraded."""

    def __init__(self) -> None:
        self.moved: dict[Loc, Loc] = {}
        self.problems: list[tuple[Loc, str]] = []

    def old(self, loc: Loc) -> Loc:
        """The location in the version 1 file of ``loc`` (of its nearest moved parent)."""
        for end in range(len(loc), 0, -1):
            if loc[:end] in self.moved:
                return self.moved[loc[:end]] + loc[end:]
        return loc


def format_version(data: Any) -> Any:
    """The spec format version ``data`` declares (1 when it declares none)."""
    if isinstance(data, MutableMapping):
        return data.get("version", 1)
    return FORMAT_VERSION


def upgrade(data: MutableMapping[str, Any]) -> Migration:
    """Upgrade version 1 spec ``data`` in place to version 2."""
    migration = Migration()
    if format_version(data) != 1:
        return migration
    if "version" in data:
        data["version"] = FORMAT_VERSION
    models = data.pop("models", None)
    for section in ("aggregates", "events", "consumes"):
        items = data.get(section)
        if not isinstance(items, MutableMapping):
            continue
        for name, item in items.items():
            if isinstance(item, MutableMapping) and isinstance(item.get("fields"), MutableMapping):
                for field_name, field in item["fields"].items():
                    loc = (section, name, "fields", field_name)
                    if isinstance(field, MutableMapping):
                        _inline_rules(field, loc, migration)
    _request_names(data, models, migration)
    return migration


def _inline_rules(field: MutableMapping[str, Any], loc: Loc, migration: Migration) -> None:
    rules = field.get("rules")
    if rules is None:
        return
    if not isinstance(rules, list):
        migration.problems.append(((*loc, "rules"), "`rules` is a list of rules"))
        return
    position = list(field).index("rules")
    del field["rules"]
    messages: dict[str, Any] = {}
    for index, rule in enumerate(rules):
        old = (*loc, "rules", index)
        keys = [key for key in rule if key in RULE_KEYS] if isinstance(rule, dict) else []
        if not isinstance(rule, dict) or len(keys) != 1 or set(rule) - {*keys, "message"}:
            migration.problems.append(
                (old, f"a rule is one of {', '.join(RULE_KEYS)}, with an optional message")
            )
            continue
        (key,) = keys
        value = rule[key]
        if key in field:
            stricter = _STRICTER.get(key)
            if stricter is None or not _comparable(field[key], value):
                migration.problems.append(
                    (old, f"a second {key!r} rule; version 2 has one per field: merge them")
                )
                continue
            value = stricter(field[key], value)
            field[key] = value
        else:
            _put(field, position, key, value)
            position += 1
        migration.moved[(*loc, key)] = old
        if "message" in rule:
            messages[key] = rule["message"]
            migration.moved[(*loc, "messages", key)] = (*old, "message")
    if messages:
        _put(field, position, "messages", {**field.get("messages", {}), **messages})


def _put(mapping: MutableMapping[str, Any], position: int, key: str, value: Any) -> None:
    """Set ``key`` at ``position`` (a comment-keeping YAML mapping can insert in place)."""
    insert = getattr(mapping, "insert", None)
    if insert is not None and key not in mapping:
        insert(position, key, value)
    else:
        mapping[key] = value


def _comparable(a: Any, b: Any) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b))


def _request_names(data: MutableMapping[str, Any], models: Any, migration: Migration) -> None:
    endpoints = data.get("endpoints")
    if not isinstance(endpoints, list):
        return
    known = set(models) if isinstance(models, MutableMapping) else set()
    for index, endpoint in enumerate(endpoints):
        if not isinstance(endpoint, MutableMapping) or "request" not in endpoint:
            continue
        if endpoint["request"] not in known:
            migration.problems.append(
                (
                    ("endpoints", index, "request"),
                    f"unknown model {endpoint['request']!r} (expected one of: "
                    f"{', '.join(sorted(map(str, known))) or 'none declared'})",
                )
            )


def migrate_text(text: str) -> tuple[str, Migration]:
    """A version 1 spec's text as version 2, comments and key order kept (``ruamel.yaml``
    round-trips the file); the text unchanged when it is version 2 already."""
    import io

    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    data = yaml.load(text)
    if not isinstance(data, MutableMapping) or format_version(data) != 1:
        return text, Migration()
    migration = upgrade(data)
    if "version" not in data:
        _put(data, 0, "version", FORMAT_VERSION)
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue(), migration
