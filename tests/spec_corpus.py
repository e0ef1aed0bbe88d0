"""A spec that uses every construct, with a hole for each free-text field and for each
name, and the hostile strings the hardening tests put in them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SENTINEL = "INJECTED-SENTINEL"

PAYLOADS = [
    f'x"""; __import__("os").system("touch {SENTINEL}"); """',
    f"x'''; __import__('os').system('touch {SENTINEL}'); '''",
    f"'); __import__('os').system('touch {SENTINEL}'); ('",
    f'" + __import__("os").system("touch {SENTINEL}") + "',
    "ends with a backslash \\",
    '"',
    '""""',
    "{{ 7 * 7 }} {% raw %} {{ cycler.__init__.__globals__ }}",
    f"line one\nimport os; os.system('touch {SENTINEL}')\n# more",
    '\n[tool.evil]\nx = "1"',
    'x = "a:b"\n[tool.evil]\ny',
    "NUL \x00 and ESC \x1b[31m and DEL \x7f",
    "emoji 😀 and a line separator \u2028 end",
    "\\N{LATIN SMALL LETTER A} \\x41 \\u0041 \\",
    "$(touch x) `touch x` ${HOME} %s %(x)s",
    "<script>alert(1)</script> & <b>",
    "# a comment",
    "a" * 1500,
]

NAME_PAYLOADS = [
    f'x"; __import__("os").system("touch {SENTINEL}"); "',
    "class",
    "None",
    "self",
    "Any",
    "UUID",
    "Field",
    "Request",
    "Self",
    "NotFoundError",
    "DomainEvent",
    "__import__",
    "a b",
    "a\nb",
    "ÄÖ",
    "x" * 200,
    "",
]


def spec(text: str = "Plain text", name: str | None = None, where: str = "") -> dict[str, Any]:
    """The spec with ``text`` in every free-text field, and ``name`` (when given) as the
    name at ``where`` (one of NAME_PLACES)."""
    data: dict[str, Any] = {
        "version": 2,
        "name": "hostile",
        "description": text,
        "enums": {"Level": ["low", "high"]},
        "values": {
            "Line": {
                "description": text,
                "fields": {
                    "sku": {
                        "type": "str",
                        "description": text,
                        "not_blank": True,
                        "messages": {"not_blank": text},
                        "example": "SKU",
                    },
                    "count": {"type": "int", "min": 1},
                },
                "invariants": [{"check": "count < 100", "message": text, "field": "count"}],
            }
        },
        "errors": {"Closed": {"status": 409, "title": text, "detail": text}},
        "aggregates": {
            "Item": {
                "description": text,
                "not_found": text,
                "fields": {
                    "title": {
                        "type": "str",
                        "description": text,
                        "max_length": 2000,
                        "messages": {"max_length": text},
                        "default": "t",
                    },
                    "note": {"type": "str", "optional": True, "example": "n"},
                    "level": {"type": "Level", "default": "low"},
                    "lines": {"type": "list[Line]", "default": []},
                },
                "computed": {
                    "big": {"type": "bool", "value": "len(lines) > 3", "description": text}
                },
                "invariants": [{"check": "len(title) >= 0", "message": text}],
                "commands": {
                    "open": {
                        "creates": True,
                        "params": ["title", "note", "level", "lines"],
                        "emits": "ItemOpened",
                        "description": text,
                    },
                    "close": {
                        "when": "level == 'low'",
                        "error": "Closed",
                        "set": {"level": "high"},
                        "emits": "ItemClosed",
                        "description": text,
                    },
                },
            }
        },
        "events": {
            "ItemClosed": {
                "description": text,
                "fields": {"itemId": "uuid", "level": "Level", "occurredAt": "datetime"},
            }
        },
        "read_models": {"Items": {"of": "Item", "description": text}},
        "consumes": {"other.Happened": {"description": text, "fields": {"what": "str"}}},
        "endpoints": [
            {"method": "POST", "path": "/api/v1/items", "command": "Item.open", "summary": text},
            {
                "method": "POST",
                "path": "/api/v1/items/{id}/close",
                "command": "Item.close",
                "summary": text,
            },
            {"method": "GET", "path": "/api/v1/items/{id}", "query": "Item.get", "summary": text},
            {
                "method": "GET",
                "path": "/api/v1/items",
                "query": "Item.list",
                "page": True,
                "summary": text,
            },
        ],
    }
    if name is not None:
        NAME_PLACES[where](data, name)
    return data


def _rename_key(mapping: dict[str, Any], old: str, new: str) -> None:
    mapping[new] = mapping.pop(old)


def _field(data: dict[str, Any], name: str) -> None:
    _rename_key(data["aggregates"]["Item"]["fields"], "note", name)
    params = data["aggregates"]["Item"]["commands"]["open"]["params"]
    params[params.index("note")] = name


NAME_PLACES = {
    "service": lambda data, name: data.update(name=name),
    "aggregate": lambda data, name: _rename_key(data["aggregates"], "Item", name),
    "field": _field,
    "command": lambda data, name: _rename_key(
        data["aggregates"]["Item"]["commands"], "close", name
    ),
    "event": lambda data, name: data["aggregates"]["Item"]["commands"]["open"].update(emits=name),
    "enum": lambda data, name: _rename_key(data["enums"], "Level", name),
    "enum member": lambda data, name: data["enums"]["Level"].append(name),
    "value": lambda data, name: _rename_key(data["values"], "Line", name),
    "error": lambda data, name: _rename_key(data["errors"], "Closed", name),
    "read model": lambda data, name: _rename_key(data["read_models"], "Items", name),
    "computed": lambda data, name: _rename_key(data["aggregates"]["Item"]["computed"], "big", name),
    "use case": lambda data, name: data["endpoints"][0].update(use_case=name),
    "request": lambda data, name: data["endpoints"][0].update(request=name),
    "handler": lambda data, name: data["consumes"]["other.Happened"].update(handler=name),
    "permission": lambda data, name: data["endpoints"][0].update(permission=name),
    "path": lambda data, name: data["endpoints"][0].update(path=f"/api/{name}"),
    "script": lambda data, name: data.update(scripts={name: "hostile.main:run"}),
    "script target": lambda data, name: data.update(scripts={"run": name}),
    "dependency": lambda data, name: data.update(dependencies=[name]),
    "problem type": lambda data, name: data["errors"]["Closed"].update(type=name),
}


def as_yaml(data: dict[str, Any]) -> str:
    """The spec as YAML text (JSON is YAML; every string quoted and escaped)."""
    return json.dumps(data, ensure_ascii=True)


def lint_errors(root: Path) -> str:
    """Syntax errors and undefined names in the Python files under ``root``, if any."""
    lint = subprocess.run(
        [
            str(Path(sys.executable).parent / "ruff"),
            "check",
            "--isolated",
            "--select",
            "E9,F63,F7,F82",
            ".",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    return "" if lint.returncode == 0 else lint.stdout
