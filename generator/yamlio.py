"""Read spec files: regular UTF-8 files of bounded size, parsed as strict, bounded YAML 1.2
(see `generator.yaml_compose`); and write data back as YAML that reads the same."""

from __future__ import annotations

import itertools
import os
import re
import stat
from pathlib import Path
from typing import Any, NoReturn

import yaml

from generator.problems import Problem, SpecError
from generator.yaml_compose import (
    CORE_FLOAT,
    CORE_INFINITY,
    CORE_NAN,
    CORE_TAG,
    Marks,
    compose,
)

MAX_SPEC_BYTES = 1 << 20
MAX_DIRECTIVES = 20

_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}
_UTF8_BOM = b"\xef\xbb\xbf"

# What YAML allows in a stream (printable characters, tab and line breaks), less the NEL and
# Unicode line/paragraph separators (YAML 1.1 readers such as libyaml break lines at them,
# YAML 1.2 readers do not, so a file with them means different things to different tools)
# and a byte order mark past the start.
_FORBIDDEN_CHARACTER = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_DIRECTIVE_LINE = re.compile("^%", re.MULTILINE)


def read_spec_bytes(path: Path, display: str) -> str:
    """The text of the spec file at ``path``: a regular file of at most `MAX_SPEC_BYTES`, in
    UTF-8 (a BOM is dropped). Anything else is a `SpecError` naming ``display``."""

    def refuse(message: str) -> NoReturn:
        raise SpecError([Problem(display, 1, 1, (), message)])

    try:
        kind = _file_kind(os.stat(path).st_mode)
        if kind is not None:
            refuse(f"cannot read spec: {kind}, not a regular file")
        # O_NONBLOCK: should the path turn into a FIFO after the check, opening it cannot hang.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        with os.fdopen(os.open(path, flags), "rb") as file:
            kind = _file_kind(os.fstat(file.fileno()).st_mode)
            if kind is not None:
                refuse(f"cannot read spec: {kind}, not a regular file")
            data = file.read(MAX_SPEC_BYTES + 1)
    except OSError as error:
        refuse(f"cannot read spec: {error.strerror or error}")
    if len(data) > MAX_SPEC_BYTES:
        refuse(f"spec is larger than {MAX_SPEC_BYTES} bytes; a spec is far smaller")
    return decode_spec(data, display)


def _file_kind(mode: int) -> str | None:
    """What a non-regular file is, for the message (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    kinds = {
        stat.S_ISDIR: "a directory",
        stat.S_ISFIFO: "a FIFO (named pipe)",
        stat.S_ISCHR: "a character device",
        stat.S_ISBLK: "a block device",
        stat.S_ISSOCK: "a socket",
    }
    return next((name for test, name in kinds.items() if test(mode)), "a special file")


def decode_spec(data: bytes, display: str) -> str:
    """``data`` as UTF-8 text (a leading BOM dropped); a `SpecError` at the first byte that
    is not."""
    for bom, encoding in _BOMS.items():
        if data.startswith(bom):
            raise SpecError(
                [Problem(display, 1, 1, (), f"not UTF-8 text (a {encoding} byte order mark)")]
            )
    data = data.removeprefix(_UTF8_BOM)
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = error.start if nul < 0 else min(nul, error.start)
    else:
        if nul < 0:
            return text
        bad = nul
    line = data.count(b"\n", 0, bad) + 1
    start = data.rfind(b"\n", 0, bad) + 1
    column = len(data[start:bad].decode("utf-8")) + 1
    what = "a NUL byte" if bad == nul else f"byte 0x{data[bad]:02x} is not valid UTF-8"
    raise SpecError([Problem(display, line, column, (), f"not UTF-8 text: {what}")])


def parse_yaml(text: str, file: str) -> tuple[Any, Marks]:
    """Parse one YAML 1.2 document (core schema) keeping the position of every key and value;
    a `SpecError` for anything a spec cannot be, or that would exceed the limits."""
    text = text.removeprefix("\ufeff")
    forbidden = _FORBIDDEN_CHARACTER.search(text)
    if forbidden:
        index = forbidden.start()
        line = text.count("\n", 0, index) + 1
        column = index - text.rfind("\n", 0, index)
        message = _character_problem(forbidden.group())
        raise SpecError([Problem(file, line, column, (), message)])
    # libyaml's work grows with the square of the number of directives (%TAG ...); a spec
    # needs none, a few are allowed.
    directives = _DIRECTIVE_LINE.finditer(text)
    extra = next(itertools.islice(directives, MAX_DIRECTIVES, None), None)
    if extra:
        line = text.count("\n", 0, extra.start()) + 1
        message = f"more than {MAX_DIRECTIVES} lines start with % (YAML directives)"
        raise SpecError([Problem(file, line, 1, (), message)])
    return compose(text, file)


def _character_problem(character: str) -> str:
    code = f"U+{ord(character):04X}"
    if character == "\x00":
        return "a NUL character is not allowed"
    if character == "\ufeff":
        return "a byte order mark (U+FEFF) is only allowed at the start"
    if character in "\x85\u2028\u2029":
        return f"the line separator {code} is not allowed (YAML readers disagree on it)"
    if "\ud800" <= character <= "\udfff":
        return f"the unpaired surrogate {code} is not allowed"
    if ord(character) < 0xA0:
        return f"the control character {code} is not allowed"
    return f"the character {code} is not allowed"


class _UnambiguousDumper(yaml.SafeDumper):
    """Quotes every string that a YAML 1.1 or a YAML 1.2 reader would take for something else."""


def _add_core_resolvers() -> None:
    # SafeDumper already knows YAML 1.1's implicit types; these are the 1.2 core forms it lacks.
    for tag, pattern, first in (
        ("int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
        ("float", CORE_FLOAT.pattern, "-+.0123456789"),
        ("float", rf"{CORE_INFINITY.pattern}|{CORE_NAN.pattern}", "-+."),
    ):
        _UnambiguousDumper.add_implicit_resolver(
            CORE_TAG + tag, re.compile(rf"(?:{pattern})\Z"), list(first)
        )


_add_core_resolvers()


def dump_yaml(data: Any) -> str:
    """YAML text that `parse_yaml` (and a YAML 1.1 reader) reads back as ``data``."""
    return yaml.dump(data, Dumper=_UnambiguousDumper, sort_keys=False, allow_unicode=False)
