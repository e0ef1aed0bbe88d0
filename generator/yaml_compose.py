"""Compose a YAML stream into plain data (dicts, lists, scalars) by the YAML 1.2 core schema,
strictly (no duplicate or merge keys, no other tags) and bounded in depth, size and work,
keeping the line and column of every key and value."""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NoReturn, Protocol

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from generator.problems import Loc, Problem, SpecError, shorten

MAX_DEPTH = 64
MAX_NODES = 50_000
MAX_ALIASES = 100
MAX_SCALAR_CHARS = 64 * 1024
MAX_PROBLEMS = 50
INT_LIMIT = 2**63

# The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_DECIMAL = re.compile(r"[-+]?[0-9]+")
_OCTAL = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
CORE_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
CORE_INFINITY = re.compile(r"[-+]?\.(?:inf|Inf|INF)")
CORE_NAN = re.compile(r"\.(?:nan|NaN|NAN)")
_MAX_INT_CHARS = 64
# The first characters of the plain scalars that are not strings (a fast path for names).
_RESOLVABLE_START = frozenset("~nNtTfF-+.0123456789")

CORE_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = ("str", "null", "bool", "int", "float")
_ALLOWED_TAGS = "!!str, !!int, !!float, !!bool, !!null, !!seq, !!map"


@dataclass
class Marks:
    """Where each value (and each mapping key) of a parsed spec starts: (line, column)."""

    values: dict[Loc, tuple[int, int]]
    keys: dict[Loc, tuple[int, int]]

    def find(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """The position of the deepest known part of ``loc`` (of its key when ``key``)."""
        loc = self._written(loc)
        for end in range(len(loc), -1, -1):
            prefix = loc[:end]
            if key and end == len(loc) and prefix in self.keys:
                return self.keys[prefix]
            if prefix in self.values:
                return self.values[prefix]
        return (1, 1)

    def _written(self, loc: Loc) -> Loc:
        """``loc`` as the file writes it: without a key a shorthand leaves out before a list
        (``key: [sku, name]`` is ``key: {fields: [sku, name]}``, its item 1 is at ``key.1``)."""
        for index in range(1, len(loc) - 1):
            shorthand = loc[:index] + loc[index + 1 :]
            if (
                isinstance(loc[index + 1], int)
                and loc[: index + 1] not in self.values
                and shorthand[: index + 1] in self.values
            ):
                return shorthand
        return loc


def compose(text: str, file: str) -> tuple[Any, Marks]:
    """The one document of ``text`` as plain data, and where each part of it starts (call
    `generator.yamlio.parse_yaml`, which first refuses characters YAML does not allow)."""
    return _Composer(text, file).compose()


class _Events(Protocol):
    def get_event(self) -> Event | None: ...

    def dispose(self) -> None: ...


class _PurePythonParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own parser, for an install without libyaml (slower, bounded the same way)."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


def _event_parser(text: str) -> _Events:
    if yaml.__with_libyaml__:
        from yaml._yaml import CParser

        return CParser(text)
    return _PurePythonParser(text)


def _position(event: Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


class _Composer:
    """Builds plain data (dicts, lists, scalars) from the parser's events, one at a time, so
    that the limits stop a hostile input before it costs much."""

    def __init__(self, text: str, file: str) -> None:
        self._parser = _event_parser(text)
        self._next = self._parser.get_event
        self._file = file
        self._text = text
        self.marks = Marks(values={}, keys={})
        self._problems: list[Problem] = []
        self._anchors: dict[str, tuple[Any, int]] = {}
        self._open_anchors: set[str] = set()
        self._nodes = 0
        self._aliases = 0

    def compose(self) -> tuple[Any, Marks]:
        try:
            value = self._document()
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            reason = error.problem or error.context or "invalid YAML"
            if mark is not None and _tab_at(self._text, mark.index):
                reason += " (a tab: YAML indents with spaces only)"
            self._stop(Problem(self._file, line, column, (), f"YAML syntax error: {reason}"))
        except yaml.YAMLError as error:
            self._stop(Problem(self._file, 1, 1, (), f"YAML syntax error: {error}"))
        finally:
            self._parser.dispose()
        if self._problems:
            raise SpecError(self._problems)
        return value, self.marks

    def _document(self) -> Any:
        self._next()  # the stream start
        if type(self._next()) is StreamEndEvent:
            return {}
        value, _ = self._node(self._event(), (), 1)
        self._next()  # the document end
        second = self._event()
        if type(second) is not StreamEndEvent:
            self._fail(second, (), "a spec is one YAML document; a second one starts here")
        return value

    def _event(self) -> Event:
        event = self._next()
        assert event is not None  # nothing is read past the stream end
        return event

    def _stop(self, problem: Problem) -> NoReturn:
        raise SpecError([*self._problems, problem]) from None

    def _fail(self, event: Event, loc: Loc, message: str) -> NoReturn:
        self._stop(Problem(self._file, *_position(event), loc, message))

    def _note(self, event: Event, loc: Loc, message: str) -> None:
        """A problem after which reading can go on (so that all of them are listed)."""
        self._problems.append(Problem(self._file, *_position(event), loc, message))
        if len(self._problems) >= MAX_PROBLEMS:
            self._fail(event, loc, f"{MAX_PROBLEMS} problems; stopping here")

    def _count(self, event: Event, loc: Loc, nodes: int) -> None:
        self._nodes += nodes
        if self._nodes > MAX_NODES:
            self._fail(
                event,
                loc,
                f"more than {MAX_NODES} YAML values (aliases counted expanded); "
                "a spec is far smaller",
            )

    def _node(self, event: Event, loc: Loc, depth: int, *, record: bool = True) -> tuple[Any, int]:
        """The value that starts with ``event`` and the number of nodes it holds."""
        if record:
            self.marks.values[loc] = _position(event)
        kind = type(event)
        if kind is ScalarEvent:
            assert isinstance(event, ScalarEvent)
            self._count(event, loc, 1)
            value, size = self._scalar(event, loc), 1
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            assert isinstance(event, CollectionStartEvent)
            self._count(event, loc, 1)
            if depth > MAX_DEPTH:
                self._fail(event, loc, f"nested deeper than {MAX_DEPTH} levels")
            if event.anchor is not None:
                self._open_anchors.add(event.anchor)
            if kind is SequenceStartEvent:
                self._check_collection_tag(event, loc, "seq")
                value, size = self._sequence(loc, depth)
            else:
                self._check_collection_tag(event, loc, "map")
                value, size = self._mapping(loc, depth)
            if event.anchor is not None:
                self._open_anchors.discard(event.anchor)
        elif kind is AliasEvent:
            assert isinstance(event, AliasEvent)
            return self._alias(event, loc)
        else:
            self._fail(event, loc, "YAML syntax error: a value was expected here")
        if event.anchor is not None:
            self._anchors[event.anchor] = (value, size)
        return value, size

    def _alias(self, event: AliasEvent, loc: Loc) -> tuple[Any, int]:
        self._aliases += 1
        if self._aliases > MAX_ALIASES:
            self._fail(event, loc, f"more than {MAX_ALIASES} aliases (*name); write values out")
        name = event.anchor or ""
        if name in self._open_anchors:
            self._fail(event, loc, f"the alias *{_clip(name)} is inside its own anchor")
        if name not in self._anchors:
            self._note(event, loc, f"the alias *{_clip(name)} has no anchor before it")
            return None, 1
        value, size = self._anchors[name]
        self._count(event, loc, size)
        # A copy, so that the result is a tree: editing one place never changes another.
        return copy.deepcopy(value), size

    def _sequence(self, loc: Loc, depth: int) -> tuple[list[Any], int]:
        items: list[Any] = []
        size = 1
        while type(event := self._event()) is not SequenceEndEvent:
            item, item_size = self._node(event, (*loc, len(items)), depth + 1)
            items.append(item)
            size += item_size
        return items, size

    def _mapping(self, loc: Loc, depth: int) -> tuple[dict[Any, Any], int]:
        result: dict[Any, Any] = {}
        size = 1
        while type(key_event := self._event()) is not MappingEndEvent:
            key, key_size, usable = self._key(key_event, loc, depth)
            child = (*loc, key) if usable else (*loc, "<key>")
            if usable and key in result:
                first_line = self.marks.keys[child][0]
                self._note(
                    key_event, child, f"duplicate key {shorten(key)} (first at line {first_line})"
                )
                usable = False
            elif usable:
                self.marks.keys[child] = _position(key_event)
            value, value_size = self._node(self._event(), child, depth + 1)
            if usable:
                result[key] = value
            size += key_size + value_size
        return result, size

    def _key(self, event: Event, loc: Loc, depth: int) -> tuple[Any, int, bool]:
        """The key that starts with ``event``, its size, and whether it can be used."""
        if isinstance(event, CollectionStartEvent):
            kind = "mapping" if isinstance(event, MappingStartEvent) else "sequence"
            self._note(event, loc, f"a key must be a scalar such as a name, not a {kind}")
            _, size = self._node(event, loc, depth + 1, record=False)
            return None, size, False
        if _is_merge_key(event):
            self._note(event, loc, "merge keys (<<) are not supported; write the keys out")
            self._count(event, loc, 1)
            return None, 1, False
        key, size = self._node(event, loc, depth + 1, record=False)
        if isinstance(key, (dict, list)):
            self._note(event, loc, "a key must be a scalar such as a name, not an alias of one")
            return None, size, False
        return key, size, True

    def _check_collection_tag(self, event: CollectionStartEvent, loc: Loc, kind: str) -> None:
        if event.tag not in (None, "!", CORE_TAG + kind):
            self._refuse_tag(event, loc, event.tag)

    def _scalar(self, event: ScalarEvent, loc: Loc) -> Any:
        text = event.value
        if len(text) > MAX_SCALAR_CHARS:
            self._fail(event, loc, f"a value longer than {MAX_SCALAR_CHARS} characters")
        tag = event.tag
        if tag is None:
            if not event.implicit[0] or (text and text[0] not in _RESOLVABLE_START):
                return text  # quoted, or plain and a string by its first character
            return self._resolve(event, loc, text)
        if tag == "!" or tag == CORE_TAG + "str":
            return text
        name = tag.removeprefix(CORE_TAG)
        if tag.startswith(CORE_TAG) and name in _SCALAR_TAGS:
            value = self._resolve(event, loc, text)
            if name == "float" and type(value) is int:
                return float(value)
            expected = {"null": type(None), "bool": bool, "int": int, "float": float}[name]
            if type(value) is not expected:
                self._note(event, loc, f"{shorten(text)} is not a valid !!{name}")
            return value
        self._refuse_tag(event, loc, tag)
        return text

    def _refuse_tag(self, event: Event, loc: Loc, tag: str | None) -> None:
        self._note(event, loc, f"the tag {_show_tag(tag)} is not allowed (only {_ALLOWED_TAGS})")

    def _resolve(self, event: ScalarEvent, loc: Loc, text: str) -> Any:
        """A plain scalar's value by the YAML 1.2 core schema."""
        if text in _NULLS:
            return None
        if text in _BOOLS:
            return _BOOLS[text]
        if _DECIMAL.fullmatch(text):
            return self._integer(event, loc, text, 10)
        if _OCTAL.fullmatch(text):
            return self._integer(event, loc, text[2:], 8)
        if _HEX.fullmatch(text):
            return self._integer(event, loc, text[2:], 16)
        if CORE_FLOAT.fullmatch(text):
            number = float(text)
            if math.isfinite(number) and Decimal(text) != Decimal(repr(number)):
                self._note(
                    event,
                    loc,
                    f"{shorten(text)} has more digits than a float holds (it would read as"
                    f" {number!r}): write it in quotes to keep it as written",
                )
            return number
        if CORE_INFINITY.fullmatch(text):
            return -math.inf if text.startswith("-") else math.inf
        if CORE_NAN.fullmatch(text):
            return math.nan
        return text

    def _integer(self, event: ScalarEvent, loc: Loc, digits: str, base: int) -> int | None:
        value = int(digits, base) if len(digits) <= _MAX_INT_CHARS else INT_LIMIT
        if abs(value) >= INT_LIMIT:
            self._note(event, loc, f"the integer {shorten(event.value)} is too large")
            return None
        return value


def _is_merge_key(event: Event) -> bool:
    # A plain, untagged ``<<`` is a merge key to a YAML 1.1 reader: refused, so that no
    # reader of the file sees keys this one does not.
    return (
        isinstance(event, ScalarEvent)
        and event.value == "<<"
        and event.tag is None
        and event.implicit[0]
    )


def _show_tag(tag: str | None) -> str:
    return _clip(
        f"!!{tag.removeprefix(CORE_TAG)}" if tag and tag.startswith(CORE_TAG) else str(tag)
    )


def _clip(name: str, limit: int = 40) -> str:
    """An anchor or tag name (printable by YAML's rules) cut to ``limit`` characters."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _tab_at(text: str, index: int) -> bool:
    """Whether the character at ``index`` of ``text``, or the indentation before it, is a tab."""
    start = text.rfind("\n", 0, index) + 1
    return "\t" in text[start : index + 1]
