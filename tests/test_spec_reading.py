"""Reading spec files: only regular UTF-8 files of bounded size, parsed as strict, bounded
YAML 1.2; everything else is one `file:line:col: key: message` line per problem."""

from __future__ import annotations

import math
import os
import re
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import GENERATE, REPO, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.problems import Problem, SpecError, shorten
from generator.yaml_compose import MAX_DEPTH, MAX_NODES
from generator.yamlio import MAX_SPEC_BYTES, decode_spec, dump_yaml, parse_yaml, read_spec_bytes

OUTPUT_LIMIT = 20_000


def validate(*files: str, cwd: Path) -> Result:
    """`generate validate FILE...`, killed (and the test failed) should it ever hang."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    env.pop("GENERATE_DEBUG", None)
    completed = subprocess.run(
        [str(GENERATE), "validate", *files],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    return Result(completed.returncode, completed.stdout, completed.stderr)


def refused_lines(result: Result, file: str) -> list[str]:
    """The problem lines of a refused spec, checked for the format every refusal keeps."""
    assert result.code == 1, result
    assert "Traceback" not in result.err
    assert "unexpected" not in result.err
    assert len(result.err) < OUTPUT_LIMIT
    lines = result.err.splitlines()
    assert lines
    for line in lines:
        assert re.match(rf"{re.escape(file)}:(\d+:\d+: |\s)", line), line
    return lines


def billion_laughs() -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for index in range(1, 9):
        name, previous = chr(ord("a") + index), chr(ord("a") + index - 1)
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]")
    return "\n".join(lines) + "\n"


def many_keys() -> str:
    lines, size, index = ["name: x\n"], 8, 0
    while size < MAX_SPEC_BYTES - 64:
        line = f"key{index}: {index}\n"
        lines.append(line)
        size += len(line)
        index += 1
    return "".join(lines)


REFUSED: dict[str, tuple[bytes, str]] = {
    "utf-16": (
        "name: x\n".encode("utf-16"),
        "1:1: <spec>: not UTF-8 text (a UTF-16 byte order mark)",
    ),
    "utf-32": (
        "name: x\n".encode("utf-32"),
        "1:1: <spec>: not UTF-8 text (a UTF-32 byte order mark)",
    ),
    "latin-1": (
        "name: x\ndescription: café\n".encode("latin-1"),
        "2:17: <spec>: not UTF-8 text: byte 0xe9 is not valid UTF-8",
    ),
    "nul": (b"name: x\nport: 80\x00\n", "2:9: <spec>: not UTF-8 text: a NUL byte"),
    "control-character": (
        b"name: x\ndescription: \x1b[31mred\n",
        "2:14: <spec>: the control character U+001B is not allowed",
    ),
    "line-separator": (
        "name: x\ndescription: a\u2028b\n".encode(),
        "2:15: <spec>: the line separator U+2028 is not allowed (YAML readers disagree on it)",
    ),
    "too-large": (b"#" * (MAX_SPEC_BYTES + 1), "1:1: <spec>: spec is larger than 1048576 bytes"),
    "billion-laughs": (billion_laughs().encode(), f"more than {MAX_NODES} YAML values"),
    "many-aliases": (
        ("a: &a x\nb: [" + ", ".join(["*a"] * 101) + "]\n").encode(),
        "2:" + str(5 + 4 * 100) + ": b.100: more than 100 aliases (*name); write values out",
    ),
    "deep-flow-nesting": (b"[" * 500_000, f"nested deeper than {MAX_DEPTH} levels"),
    "deep-block-nesting": (
        "".join(" " * depth + "a:\n" for depth in range(200)).encode(),
        f"nested deeper than {MAX_DEPTH} levels",
    ),
    "a-megabyte-of-keys": (many_keys().encode(), f"more than {MAX_NODES} YAML values"),
    "long-value": (
        b"name: x\ndescription: " + b"x" * 70_000 + b"\n",
        "2:14: description: a value longer than 65536 characters",
    ),
    "huge-integer": (b"name: x\nport: " + b"9" * 10_000 + b"\n", "2:7: port: the integer '9999"),
    "duplicate-key": (
        b"name: x\naggregates:\n  Order:\n    fields: {}\n  Order:\n    fields: {}\n",
        "5:3: aggregates.Order: duplicate key 'Order' (first at line 3)",
    ),
    "merge-key": (
        b"defaults: &defaults {kind: app}\n<<: *defaults\nname: x\n",
        "2:1: <spec>: merge keys (<<) are not supported; write the keys out",
    ),
    "complex-key": (
        b"name: x\n? [a, b]\n: c\n",
        "2:3: <spec>: a key must be a scalar such as a name, not a sequence",
    ),
    "python-tag": (
        b"name: !!python/object/apply:os.system [echo hi]\n",
        "1:7: name: the tag !!python/object/apply:os.system is not allowed "
        "(only !!str, !!int, !!float, !!bool, !!null, !!seq, !!map)",
    ),
    "two-documents": (
        b"name: x\n---\nname: y\n",
        "2:1: <spec>: a spec is one YAML document; a second one starts here",
    ),
    "syntax": (b"name: [x\n", "2:1: <spec>: YAML syntax error: did not find expected ',' or ']'"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_hostile_or_broken_spec_is_refused_in_one_line(case: str, tmp_path: Path) -> None:
    content, expected = REFUSED[case]
    (tmp_path / "x.yaml").write_bytes(content)
    lines = refused_lines(validate("x.yaml", cwd=tmp_path), "x.yaml")
    assert len(lines) == 1, lines
    assert expected in lines[0], lines[0]
    if expected[0].isdigit():
        assert lines[0].startswith(f"x.yaml:{expected}")


def test_every_duplicate_key_is_listed(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("name: x\nport: 1\nport: 2\nkind: app\nname: y\n")
    lines = refused_lines(validate("x.yaml", cwd=tmp_path), "x.yaml")
    assert lines == [
        "x.yaml:3:1: port: duplicate key 'port' (first at line 2)",
        "x.yaml:5:1: name: duplicate key 'name' (first at line 1)",
    ]


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.yaml")
    lines = refused_lines(validate("x.yaml", cwd=tmp_path), "x.yaml")
    assert lines == [
        "x.yaml:1:1: <spec>: cannot read spec: a FIFO (named pipe), not a regular file"
    ]


def test_a_fifo_among_the_workspace_specs_is_refused(workspace: Path) -> None:
    (workspace / "specs").mkdir()
    os.mkfifo(workspace / "specs/x.yaml")
    spec = str(workspace / "specs/x.yaml")
    assert refused_lines(validate(cwd=workspace), spec) == [
        f"{spec}:1:1: <spec>: cannot read spec: a FIFO (named pipe), not a regular file"
    ]


def test_generate_service_does_not_hang_on_a_fifo_spec(workspace: Path) -> None:
    (workspace / "specs").mkdir()
    os.mkfifo(workspace / "specs/acme-orders.yaml")
    completed = subprocess.run(
        [str(GENERATE), "service", "acme-orders"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 1
    assert "a FIFO (named pipe), not a regular file" in completed.stderr
    assert not (workspace / "apps").exists()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused(tmp_path: Path) -> None:
    lines = refused_lines(validate("/dev/zero", cwd=tmp_path), "/dev/zero")
    assert lines == [
        "/dev/zero:1:1: <spec>: cannot read spec: a character device, not a regular file"
    ]


def test_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").mkdir()
    lines = refused_lines(validate("x.yaml", cwd=tmp_path), "x.yaml")
    assert lines == ["x.yaml:1:1: <spec>: cannot read spec: a directory, not a regular file"]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    lines = refused_lines(validate("x.yaml", cwd=tmp_path), "x.yaml")
    assert lines == ["x.yaml:1:1: <spec>: cannot read spec: No such file or directory"]


def test_many_problems_are_listed_up_to_a_bound(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("name: acme\n" + "".join(f"k{i}: 1\n" for i in range(5000)))
    lines = refused_lines(validate("x.yaml", cwd=tmp_path), "x.yaml")
    assert lines[0].startswith("x.yaml:2:1: k0: unknown key 'k0'")
    assert lines[-1] == "x.yaml: 4951 more problem(s) not listed"  # and no aggregate
    assert len(lines) == 51


def test_a_huge_key_is_echoed_shortened(tmp_path: Path) -> None:
    # An explicit key (?): YAML limits an implicit one to 1024 characters.
    (tmp_path / "x.yaml").write_text("name: acme\n? " + "k" * 5000 + "\n: 1\n")
    line, no_aggregate = refused_lines(validate("x.yaml", cwd=tmp_path), "x.yaml")
    assert "an app needs at least one aggregate" in no_aggregate
    assert line.startswith("x.yaml:2:3: 'kkkk")
    assert "unknown key 'kkkk" in line
    assert len(line) < 500  # the key shortened; the keys a spec has listed


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    spec = (REPO / "specs/user-profile.yaml").read_bytes()
    (tmp_path / "x.yaml").write_bytes(b"\xef\xbb\xbf" + spec)
    result = validate("x.yaml", cwd=tmp_path)
    assert result.code == 0, result.err


# YAML 1.2 core schema, as opposed to PyYAML's YAML 1.1.
RESOLVED: list[tuple[str, Any]] = [
    ("yes", "yes"),
    ("no", "no"),
    ("on", "on"),
    ("off", "off"),
    ("y", "y"),
    ("010", 10),
    ("0o10", 8),
    ("0x1F", 31),
    ("-12", -12),
    ("+12", 12),
    ("1_000", "1_000"),
    ("1:30", "1:30"),
    ("0b101", "0b101"),
    ("-0x10", "-0x10"),
    ("2024-01-31", "2024-01-31"),
    ("true", True),
    ("True", True),
    ("FALSE", False),
    ("null", None),
    ("~", None),
    ("", None),
    ("1e15", 1e15),
    ("1.5", 1.5),
    (".5", 0.5),
    ("-.5", -0.5),
    ("1.", 1.0),
    ("1E-3", 0.001),
    (".inf", math.inf),
    ("-.Inf", -math.inf),
    ("9223372036854775807", 2**63 - 1),
    ("-9223372036854775807", -(2**63 - 1)),
    ("'010'", "010"),
    ('"true"', "true"),
    ("! 10", "10"),
    ("!!str 10", "10"),
    ("!!float 1", 1.0),
    ("!!int '0x1F'", 31),
    ("!!bool 'true'", True),
    ("!!null ''", None),
]


@pytest.mark.parametrize(("text", "expected"), RESOLVED)
def test_scalars_resolve_by_the_yaml_1_2_core_schema(text: str, expected: Any) -> None:
    data, _ = parse_yaml(f"key: {text}\n", "x.yaml")
    assert data == {"key": expected}
    assert type(data["key"]) is type(expected)


def test_nan_is_a_float() -> None:
    data, _ = parse_yaml("a: .nan\nb: .NaN\n", "x.yaml")
    assert math.isnan(data["a"]) and math.isnan(data["b"])


def test_keys_resolve_by_the_core_schema_too() -> None:
    data, _ = parse_yaml("on: push\nyes: 1\n010: a\n", "x.yaml")
    assert data == {"on": "push", "yes": 1, 10: "a"}


def problems_of(text: str) -> list[str]:
    with pytest.raises(SpecError) as caught:
        parse_yaml(text, "x.yaml")
    return [str(problem) for problem in caught.value.problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "port: 9223372036854775808\n",
            "x.yaml:1:7: port: the integer '9223372036854775808' is too large",
        ),
        (
            "port: 0x8000000000000000\n",
            "x.yaml:1:7: port: the integer '0x8000000000000000' is too large",
        ),
        ("a: !!int 1.5\n", "x.yaml:1:4: a: '1.5' is not a valid !!int"),
        ("a: !!bool yes\n", "x.yaml:1:4: a: 'yes' is not a valid !!bool"),
        ("a: !!set {x: null}\n", "x.yaml:1:4: a: the tag !!set is not allowed (only"),
        ("a: !!binary aGk=\n", "x.yaml:1:4: a: the tag !!binary is not allowed (only"),
        ("a: !!timestamp 2024-01-01\n", "x.yaml:1:4: a: the tag !!timestamp is not allowed"),
        ("a: !local x\n", "x.yaml:1:4: a: the tag !local is not allowed"),
        ("a: !!python/name:os.system x\n", "x.yaml:1:4: a: the tag !!python/name:os.system is"),
        ("a: &x [*x]\n", "x.yaml:1:8: a.0: the alias *x is inside its own anchor"),
        ("a: *nowhere\n", "x.yaml:1:4: a: the alias *nowhere has no anchor before it"),
        ("{a: 1}: x\n", "x.yaml:1:1: <spec>: a key must be a scalar such as a name, not a mapping"),
        (
            "a: &k [1]\n*k : x\n",
            "x.yaml:2:1: <spec>: a key must be a scalar such as a name, not an",
        ),
        ("a: 1\n\ufeffb: 2\n", "x.yaml:2:1: <spec>: a byte order mark (U+FEFF) is only allowed"),
        ("a: \x85\n", "x.yaml:1:4: <spec>: the line separator U+0085 is not allowed"),
        ("a: \x7f\n", "x.yaml:1:4: <spec>: the control character U+007F is not allowed"),
        ("a: \ud800\n", "x.yaml:1:4: <spec>: the unpaired surrogate U+D800 is not allowed"),
        ("%TAG !a! tag:x,2000:\n" * 21 + "---\na: 1\n", "x.yaml:21:1: <spec>: more than 20 lines"),
        ("a: 1\n" * 60, "x.yaml:51:1: a: 50 problems; stopping here"),
    ],
)
def test_what_a_spec_cannot_be_is_refused_with_its_place(text: str, expected: str) -> None:
    assert any(line.startswith(expected) for line in problems_of(text)), problems_of(text)


def test_an_anchored_value_is_copied_where_it_is_used() -> None:
    data, marks = parse_yaml("a: &x {k: [1, 2]}\nb: *x\n", "x.yaml")
    assert data == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}}
    data["b"]["k"].append(3)
    assert data["a"] == {"k": [1, 2]}
    assert marks.find(("b", "k", 0)) == (2, 4)


def test_positions_of_keys_and_values_are_kept() -> None:
    data, marks = parse_yaml("name: x\nfields:\n  - a\n  - {b: 1}\n", "x.yaml")
    assert data == {"name": "x", "fields": ["a", {"b": 1}]}
    assert marks.find(("fields",), key=True) == (2, 1)
    assert marks.find(("fields",)) == (3, 3)
    assert marks.find(("fields", 1, "b")) == (4, 9)
    assert marks.find(("fields", 1, "b"), key=True) == (4, 6)
    assert marks.find(("nowhere", 3)) == (1, 1)


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\ufeff"])
def test_an_empty_spec_is_an_empty_mapping(text: str) -> None:
    assert parse_yaml(text, "x.yaml")[0] == {}


def test_invalid_utf8_is_placed_at_its_first_bad_byte() -> None:
    with pytest.raises(SpecError) as caught:
        decode_spec("a: é\nb: ".encode() + b"\xc3(", "x.yaml")
    assert [str(problem) for problem in caught.value.problems] == [
        "x.yaml:2:4: <spec>: not UTF-8 text: byte 0xc3 is not valid UTF-8"
    ]


def test_a_utf8_bom_is_dropped(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_spec_bytes(tmp_path / "x.yaml", "x.yaml") == "a: 1\n"


def test_shorten_bounds_and_escapes_what_it_echoes() -> None:
    assert shorten("name") == "'name'"
    assert shorten("a\nb") == "'a\\nb'"
    long = shorten("x" * 1000)
    assert len(long) == 60 and long.endswith("…")


def test_a_problem_is_one_bounded_line() -> None:
    problem = Problem("x.yaml", 1, 2, ("a\nb", 0, "k" * 100), "bad\nvalue " + "v" * 5000)
    text = str(problem)
    assert "\n" not in text
    assert text.startswith("x.yaml:1:2: 'a\\nb'.0.'kkkk")
    assert len(text) < 1200


LIBYAML_FREE_CASES = [
    (REPO / "specs/iam.yaml").read_text(),
    "a: &x {k: [1, 2]}\nb: *x\n",
    "on: yes\nport: 010\nmode: 0o17\n",
    "a: 1\na: 2\n",
    "<<: {a: 1}\n",
    "a: !!python/object x\n",
    "[" * 100,
]


@pytest.mark.parametrize("text", LIBYAML_FREE_CASES)
def test_without_libyaml_the_same_text_reads_the_same(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def read(text: str) -> Any:
        try:
            data, marks = parse_yaml(text, "x.yaml")
        except SpecError as error:
            return [str(problem) for problem in error.problems]
        return data, marks.values, marks.keys

    with_libyaml = read(text)
    monkeypatch.setattr(yaml, "__with_libyaml__", False)
    assert read(text) == with_libyaml


TOKENS = [
    *("[", "]", "{", "}", ": ", ":", ", ", "- ", "? ", "\n", "  ", "\t", " "),
    *("&a ", "&b ", "*a", "*b", "!!str ", "!!python/object ", "! ", "!x ", "!!int "),
    *("<<", "|", "|-\n", ">", "'", '"', "\\", "#", "---\n", "...\n", "%YAML 1.2\n", "%"),
    *("name", "a", "1", "010", "0o7", "0x", "1e9", "on", "~", "null", ".inf", "é", "\u2028"),
    *("9" * 30, "x" * 200),
]
# No example database: it would be a .hypothesis directory in the repository.
SETTINGS = settings(max_examples=300, deadline=timedelta(seconds=5), database=None)


def assert_read_or_refused(text: str) -> None:
    try:
        parse_yaml(text, "x.yaml")
    except SpecError as error:
        assert error.problems
        for problem in error.problems:
            line = str(problem)
            assert "\n" not in line and len(line) < 2000


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=80).map("".join))
def test_yaml_like_text_is_read_or_refused(text: str) -> None:
    assert_read_or_refused(text)


@SETTINGS
@given(st.text(max_size=500))
def test_any_text_is_read_or_refused(text: str) -> None:
    assert_read_or_refused(text)


@SETTINGS
@given(st.binary(max_size=500))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    try:
        text = decode_spec(data, "x.yaml")
    except SpecError as error:
        assert len(error.problems) == 1
        return
    assert_read_or_refused(text)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=40),
)
DATA = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=20), children, max_size=5),
    ),
    max_leaves=40,
)


@SETTINGS
@given(DATA)
def test_dumped_data_reads_back_the_same(data: Any) -> None:
    assert parse_yaml(dump_yaml(data), "x.yaml")[0] == data
