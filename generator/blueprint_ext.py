"""The Jinja extension every blueprint uses, under copier and under our own renderer:
it derives the render context from the spec and ruff-formats each rendered Python file."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, pass_environment
from jinja2.ext import Extension

from generator import naming

BATCH_FORMAT = "generator_batch_format"
PARTIALS = "blueprints/common/"


def spec_text(spec: Any) -> str:
    """The spec answer as text: the spec file as it is, comments and key order included.
    Answers files written before hold a mapping, written out here in its key order."""
    if isinstance(spec, str):
        return spec
    from generator.yamlio import dump_yaml

    return dump_yaml(spec)


def spec_data(spec: Any) -> Any:
    """The spec answer as data: its text read as a spec file is (YAML 1.2, core schema)."""
    if not isinstance(spec, str):
        return spec
    from generator.yamlio import parse_yaml

    data, _ = parse_yaml(spec, "the spec answer")
    return data


def derive_json(spec: Any) -> str:
    """The render context of a spec answer, as JSON (copier parses it back)."""
    from generator.context import derive
    from generator.migrate import upgrade
    from generator.spec import Spec

    data = copy.deepcopy(spec_data(spec))
    if isinstance(data, dict):
        upgrade(data)  # a version 1 spec, as `generate` reads it
    return json.dumps(derive(Spec.model_validate(data)))


OUTPUT_SOURCES = (
    "copier.yml",
    "blueprints",
    "generator/blueprint_ext.py",
    "generator/context.py",
    "generator/context_domain.py",
    "generator/context_fields.py",
    "generator/context_http.py",
    "generator/expr.py",
    "generator/expr_code.py",
    "generator/literals.py",
    "generator/migrate.py",
    "generator/naming.py",
    "generator/regex_sample.py",
    "generator/reserved.py",
    "generator/resolve.py",
    "generator/resolve_fields.py",
    "generator/resolve_http.py",
    "generator/resolved.py",
    "generator/spec.py",
    "generator/typeref.py",
    "generator/values.py",
    "generator/yaml_compose.py",
    "generator/yamlio.py",
)


def answers_yaml(answers: Any) -> str:
    """The answers as YAML, keys in their given order, the spec as its text in a literal
    block (what copier's prompt then offers as the default, unchanged)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        """Writes the spec's text as a literal block."""

    def literal(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
        # PyYAML quotes the text instead when a block cannot hold it exactly.
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|")

    Dumper.add_representer(_Literal, literal)
    remembered = dict(answers)
    if "spec" in remembered:
        remembered["spec"] = _Literal(spec_text(remembered["spec"]))
    return yaml.dump(
        remembered,
        Dumper=Dumper,
        indent=4,
        allow_unicode=True,
        default_flow_style=False,
        sort_keys=False,
    )


class _Literal(str):
    """Text to write as a literal block."""

    __slots__ = ()


def spec_hash(spec: Any) -> str:
    """A short content hash of a spec answer's text (comments and key order count: the
    answers keep the text, and key order orders fields)."""
    return hashlib.sha256(spec_text(spec).encode()).hexdigest()[:16]


@cache
def blueprint_hash(template_root: str) -> str:
    """A short content hash of everything that shapes rendered output: the blueprints,
    copier.yml and the generator modules that derive the render context."""
    root = Path(str(template_root))
    digest = hashlib.sha256()
    for source in OUTPUT_SOURCES:
        path = root / source
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(file.relative_to(root).as_posix().encode() + b"\0")
                digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@cache
def ruff_binary() -> str:
    """The ruff executable installed with the generator."""
    from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]

    return str(find_ruff_bin())


FIXES = "I,F401,UP032,UP034,E713,E714"
"""The fixes applied to every rendered file: imports sorted, unused ones dropped, and the
spellings ruff prefers where templates cannot know them (f-strings, ``not in``)."""


def ruff_options(package: str) -> list[str]:
    """The settings every rendered file is formatted with, wherever it is rendered."""
    return [
        "--isolated",
        "--no-cache",
        "--target-version",
        "py311",
        "--config",
        f"lint.isort.known-first-party=['{package}']",
    ]


def format_source(source: str, package: str, filename: str) -> str:
    """Sort imports, drop unused ones and format, exactly as the batch pass does."""
    options = ruff_options(package)
    fixed = subprocess.run(
        [
            ruff_binary(),
            "check",
            "--fix-only",
            "--select",
            FIXES,
            "--exit-zero",
            *options,
            "--stdin-filename",
            filename,
            "-",
        ],
        input=source,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return subprocess.run(
        [ruff_binary(), "format", *options, "--stdin-filename", filename, "-"],
        input=fixed,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def docstring(text: Any) -> str:
    """Spec text made safe inside a triple-quoted Python string: backslashes, quotes and
    every non-printable character escaped, so no text can end the string early; no line
    ends in a space (ruff's W291: ``C:\\Temp\\ `` at the end of a line)."""
    result = []
    for char in str(text):
        if char == "\\":
            result.append("\\\\")
        elif char == '"':
            result.append('\\"')
        elif char == "\n" or char.isprintable():
            result.append(char)
        else:
            code = ord(char)
            result.append(
                f"\\x{code:02x}"
                if code < 0x100
                else f"\\u{code:04x}"
                if code < 0x10000
                else f"\\U{code:08x}"
            )
    lines = "".join(result).strip().split("\n")
    return "\n".join(line.rstrip(" ") for line in lines) or "-"


def toml_value(value: Any) -> str:
    """``value`` as a TOML value (a string, list or inline table), through a TOML writer."""
    import tomli_w

    return tomli_w.dumps({"v": value}).removeprefix("v = ").rstrip("\n")


def toml_key(key: str) -> str:
    """``key`` as a TOML key (quoted unless bare)."""
    import tomli_w

    return tomli_w.dumps({key: 0}).rsplit(" = ", 1)[0]


@pass_environment
def _python_source(environment: Environment, source: str, package: str, name: str) -> str:
    if getattr(environment, BATCH_FORMAT, False):
        return source
    return format_source(source, package, name.removesuffix(".jinja"))


class BlueprintExtension(Extension):
    """Filters for spec-derived names, and formatting of every rendered ``.py`` file."""

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        environment.filters.update(
            derive_json=derive_json,
            py=repr,
            spec_hash=spec_hash,
            answers_yaml=answers_yaml,
            blueprint_hash=blueprint_hash,
            quoted=json.dumps,
            docstring=docstring,
            toml=toml_value,
            toml_key=toml_key,
            python_source=_python_source,
            snake=naming.snake,
            pascal=naming.pascal,
            camel=naming.camel,
            kebab=naming.kebab,
            article=naming.article,
        )

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        if not name or name.startswith(PARTIALS):
            return source
        plain = re.sub(r"{[{%].*?[}%]}", "", name.rsplit("/", 1)[-1])
        if not plain.endswith(".py.jinja"):
            return source
        return (
            f"{{% filter python_source(svc.package, {json.dumps(plain)}) %}}"
            f"{source}{{% endfilter %}}"
        )
