"""Spec changes to a service with stored data: what `generate diff` and `render` refuse
(located where the user edits the spec), what they let through, and what
`--allow-breaking` still renders."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import GENERATE, Generate, make_workspace, tree_digest

from generator.evolution import breaking_changes, likely_renames, narrowed_rules
from generator.loading import load_spec_text
from generator.resolve import resolve

VETCARE = """\
version: 2
name: vetcare
kind: app
description: Pets of a clinic
port: 8080

enums:
  Species: [dog, cat, rabbit, bird, other]

values:
  PartLine:
    fields:
      part: {type: str, max_length: 60, example: collar}
      quantity: {type: int, min: 1}

aggregates:
  Pet:
    not_found: Pet not found
    event_id: petId
    fields:
      name: {type: str, max_length: 60}
      species: {type: Species}
      weightKg: {type: decimal, min: 0, scale: 2, example: "4.20"}
      parts: {type: "list[PartLine]", default: []}
    commands:
      enroll: {params: [name, species, weightKg, parts], emits: PetEnrolled, creates: true}
      cancelVisit: {emits: VisitCancelled}

events:
  VisitCancelled:
    fields: {petId: uuid, occurredAt: datetime}

read_models:
  PetList:
    of: Pet

endpoints:
  - {method: POST, path: /api/v1/pets, command: Pet.enroll}
  - {method: GET, path: /api/v1/pets, query: Pet.list, page: true}
  - {method: GET, path: "/api/v1/pets/{id}", query: Pet.get}
"""

REFUSED = (
    "error: vetcare: the spec cannot read (or keep its rules over) the data stored before; "
    "`generate render` would refuse this change (--allow-breaking renders anyway, for a "
    "service without data)"
)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace whose project was rendered from VETCARE (and may hold data)."""
    root = make_workspace(tmp_path_factory.mktemp("rendered") / "ws")
    (root / "specs").mkdir()
    (root / "specs/vetcare.yaml").write_text(VETCARE)
    made = subprocess.run(
        [str(GENERATE), "service", "vetcare"], cwd=root, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    return root


@pytest.fixture
def workspace(rendered: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "ws"
    shutil.copytree(rendered, copy)
    return copy


def _edited(workspace: Path, old: str, new: str) -> None:
    spec = workspace / "specs/vetcare.yaml"
    text = spec.read_text()
    assert old in text, old
    spec.write_text(text.replace(old, new))


def _refused(workspace: Path, generate: Generate) -> list[str]:
    """What `diff` says render would refuse; render refuses it (writing nothing) and
    renders it with --allow-breaking."""
    diffed = generate("diff", "vetcare", cwd=workspace)
    assert diffed.code == 1, diffed.err
    lines = diffed.err.splitlines()
    assert lines[-1] == REFUSED
    before = tree_digest(workspace / "apps")
    refused = generate("render", "vetcare", "--allow-dirty", cwd=workspace)
    assert refused.code == 1
    assert refused.err.splitlines()[:-1] == lines[:-1]
    assert tree_digest(workspace / "apps") == before
    allowed = generate("render", "vetcare", "--allow-dirty", "--allow-breaking", cwd=workspace)
    assert allowed.code == 0, allowed.err
    return lines[:-1]


def _accepted(workspace: Path, generate: Generate) -> None:
    diffed = generate("diff", "vetcare", cwd=workspace)
    assert diffed.code == 0, diffed.err
    assert diffed.err == ""


def test_removing_an_enum_member_stored_events_hold_is_refused_at_the_enum(
    workspace: Path, generate: Generate
) -> None:
    _edited(workspace, "[dog, cat, rabbit, bird, other]", "[dog, cat, rabbit, other]")
    assert _refused(workspace, generate) == [
        "specs/vetcare.yaml:8:12: enums.Species: Species no longer has 'bird', but stored"
        " events hold Species (Pet.species in PetEnrolled) and could not be read back: keep"
        " every member, even one nothing sets any more (renaming one removes it; an upcast"
        " cannot map a stored value to another), or render with --allow-breaking for a"
        " service without data"
    ]


def test_adding_an_enum_member_is_accepted(workspace: Path, generate: Generate) -> None:
    _edited(workspace, "bird, other]", "bird, other, fish]")
    _accepted(workspace, generate)


def test_a_new_required_value_object_field_is_refused_where_it_is_declared(
    workspace: Path, generate: Generate
) -> None:
    _edited(
        workspace,
        "      quantity: {type: int, min: 1}\n",
        "      quantity: {type: int, min: 1}\n      unit: {type: str, example: pcs}\n",
    )
    assert _refused(workspace, generate) == [
        "specs/vetcare.yaml:15:13: values.PartLine.fields.unit: PartLine gained the required"
        " 'unit', but stored events hold PartLine (Pet.parts in PetEnrolled) and could not"
        " be read back: give it a default or make it optional, or render with"
        " --allow-breaking for a service without data"
    ]


def test_a_value_object_field_with_a_default_or_removed_is_accepted(
    workspace: Path, generate: Generate
) -> None:
    _edited(
        workspace,
        "      quantity: {type: int, min: 1}\n",
        "      unit: {type: str, default: pcs}\n",
    )
    _accepted(workspace, generate)


def test_a_stored_value_object_keeps_reading_with_a_field_removed() -> None:
    """Stored payloads are read tolerantly: a key the class no longer has is ignored."""
    from dataclasses import dataclass

    from eaf.eventsourcing.serialization import from_dict

    @dataclass(frozen=True)
    class PartLine:
        part: str

    assert from_dict(PartLine, {"part": "collar", "quantity": 2}) == PartLine("collar")


def test_a_renamed_aggregate_field_is_located_at_the_field_not_at_a_declared_event(
    workspace: Path, generate: Generate
) -> None:
    text = (workspace / "specs/vetcare.yaml").read_text().replace("weightKg", "weight")
    (workspace / "specs/vetcare.yaml").write_text(text)
    assert _refused(workspace, generate) == [
        "specs/vetcare.yaml:23:15: aggregates.Pet.fields.weight: stored PetEnrolled events"
        " (v1) have no 'weight': give it a default, make it optional, or bump PetEnrolled to"
        " version 2 with an upcast from 1 (declare PetEnrolled under `events`) that renames"
        " 'weightKg' to it (or adds it)"
    ]


def test_a_changed_aggregate_field_type_and_a_renamed_implicit_event_are_located_where_made(
    workspace: Path, generate: Generate
) -> None:
    _edited(workspace, 'scale: 2, example: "4.20"}', "example: 4}")
    _edited(workspace, "weightKg: {type: decimal", "weightKg: {type: int")
    assert _refused(workspace, generate) == [
        "specs/vetcare.yaml:23:24: aggregates.Pet.fields.weightKg.type: PetEnrolled.weightKg"
        " was decimal, now int: stored events hold the old type; bump PetEnrolled to version 2"
        " with an upcast from 1 (declare PetEnrolled under `events`)"
    ]
    # Rendered with --allow-breaking: judged from that spec on.
    # a stored event the aggregate applies is known by its name: declaring it under
    # `events` would leave the pets that hold one unreadable (it applies to no Pet)
    _edited(workspace, "emits: PetEnrolled", "emits: PetJoined")
    assert _refused(workspace, generate) == [
        "specs/vetcare.yaml:26:65: aggregates.Pet.commands.enroll.emits: PetEnrolled is"
        " emitted by no command of Pet any more, but the stored Pets that hold one apply it"
        " when they are read: keep 'enroll' emitting PetEnrolled (the stored events are"
        " known by that name: it is never renamed)"
    ]


def test_a_narrowed_rule_is_rendered_with_a_warning(workspace: Path, generate: Generate) -> None:
    """Stored values that break it stay readable: not refused, but said."""
    _edited(workspace, "name: {type: str, max_length: 60}", "name: {type: str, max_length: 5}")
    _edited(workspace, "part: {type: str, max_length: 60", "part: {type: str, max_length: 80")
    warning = (
        "specs/vetcare.yaml:21:37: aggregates.Pet.fields.name.max_length: warning: Pet.name's"
        " max_length was 60, now 5: stored values that break it stay readable, but an"
        " aggregate holding one fails (422) each command that does not set a valid one; check"
        " the stored data first"
    )
    diffed = generate("diff", "vetcare", cwd=workspace)
    assert (diffed.code, diffed.err.splitlines()) == (0, [warning])
    rendered = generate("render", "vetcare", "--allow-dirty", cwd=workspace)
    assert (rendered.code, rendered.err.splitlines()) == (0, [warning])


def test_a_field_renamed_without_an_upcast_is_refused_and_with_one_rendered(
    workspace: Path, generate: Generate
) -> None:
    """A new field with a default where one of its type is gone reads nothing of what the
    old one stored (its values would read as the default): render refuses it, naming the
    upcast that renames it; with that upcast declared it renders, said nothing of."""
    _edited(workspace, "      parts: {", "      lines: {")
    _edited(workspace, "[name, species, weightKg, parts]", "[name, species, weightKg, lines]")
    refused = generate("render", "vetcare", "--allow-dirty", cwd=workspace)
    assert refused.code == 1
    assert refused.err.splitlines() == [
        "specs/vetcare.yaml:24:14: aggregates.Pet.fields.lines: Pet.lines is new and"
        " Pet.parts is gone, both list[PartLine]: if this is a rename, what is stored as"
        " 'parts' is not read as 'lines' (it reads as its default); declare the events that"
        " carry it (PetEnrolled) with a new version and an upcast that renames it ({rename:"
        " {parts: lines}}), or one that removes it ({remove: [parts]}) if its values are to"
        " be dropped",
        REFUSED.replace(
            "`generate render` would refuse this change", "nothing was written"
        ).replace(
            "a service without data)",
            "a service without data or whose old field's values are to be dropped)",
        ),
    ]
    _edited(
        workspace,
        "events:\n",
        "events:\n  PetEnrolled:\n    version: 2\n    fields: {petId: uuid, name: str,"
        " species: Species, weightKg: decimal, lines: 'list[PartLine]', occurredAt: datetime}\n"
        "    upcasts: {1: {rename: {parts: lines}}}\n",
    )
    rendered = generate("render", "vetcare", "--allow-dirty", cwd=workspace)
    assert (rendered.code, rendered.err) == (0, ""), rendered.err


def _breaking(before: str, after: str) -> list[str]:
    """Each change, its message up to the advice, and the events it concerns."""
    edited = load_spec_text(after, "vetcare.yaml")
    assert resolve(edited).problems == []
    return [
        f"{'.'.join(map(str, loc))}: {message.split(':')[0]} ({', '.join(events)})"
        for loc, message, events in breaking_changes(load_spec_text(before, "vetcare.yaml"), edited)
    ]


# A declared event holding the enum in a map of value objects, which the aggregate's
# events do not carry.
COUNTED = (
    "  Counted:\n    fields: {petId: uuid, tallies: {type: 'map[Tally]'}, occurredAt: datetime}\n"
)
NESTED = (
    VETCARE.replace(
        "      quantity: {type: int, min: 1}\n",
        "      quantity: {type: int, min: 1}\n  Tally:\n    fields:\n"
        "      species: {type: Species}\n",
    )
    .replace("      species: {type: Species}\n      weightKg", "      weightKg")
    .replace("[name, species, weightKg", "[name, weightKg")
    .replace("events:\n", "events:\n" + COUNTED)
)


def test_an_enum_deep_in_a_declared_event_is_refused_unless_its_upcast_drops_the_field() -> None:
    gone = NESTED.replace(", bird, other]", ", other]")
    assert _breaking(NESTED, gone) == [
        "enums.Species: Species no longer has 'bird', but stored events hold Species"
        " (Counted.tallies) and could not be read back (Counted)"
    ]
    bumped = "  Counted:\n    version: 2\n    fields: {petId: uuid, occurredAt: datetime}\n"
    dropped = gone.replace(COUNTED, bumped + "    upcasts: {1: {remove: [tallies]}}\n")
    assert _breaking(NESTED, dropped) == []
    renamed = gone.replace(
        COUNTED,
        bumped.replace("petId: uuid,", "petId: uuid, counts: {type: 'map[Tally]'},")
        + "    upcasts: {1: {rename: {tallies: counts}}}\n",
    )
    assert _breaking(NESTED, renamed) == [
        "enums.Species: Species no longer has 'bird', but stored events hold Species"
        " (Counted.tallies) and could not be read back (Counted)"
    ]


def test_a_value_object_change_nested_in_another_is_refused_at_the_inner_one() -> None:
    after = NESTED.replace(
        "      species: {type: Species}\n", "      species: {type: Species}\n      n: int\n"
    )
    assert _breaking(NESTED, after) == [
        "values.Tally.fields.n: Tally gained the required 'n', but stored events hold Tally"
        " (Counted.tallies) and could not be read back (Counted)"
    ]
    typed = NESTED.replace("      species: {type: Species}\n", "      species: str\n")
    assert _breaking(NESTED, typed) == [
        "values.Tally.fields.species.type: Tally.species was Species, now str, but stored"
        " events hold Tally (Counted.tallies) and could not be read back (Counted)"
    ]


def test_an_upcast_that_leaves_a_required_field_out_of_the_stored_events_is_refused() -> None:
    """Version 1 of PetEnrolled never held ``nickname``: a version 2 that requires it
    needs an upcast that gives it (the stored pets would answer 500 otherwise)."""
    after = VETCARE.replace(
        '      parts: {type: "list[PartLine]", default: []}\n',
        '      parts: {type: "list[PartLine]", default: []}\n'
        "      nickname: {type: str, default: none}\n",
    ).replace("[name, species, weightKg, parts]", "[name, species, weightKg, parts, nickname]")
    enrolled = (
        "  PetEnrolled:\n    version: 2\n"
        "    fields: {petId: uuid, name: str, species: Species, weightKg: decimal,"
        " parts: 'list[PartLine]', nickname: str, occurredAt: datetime}\n"
        "    upcasts: {1: {remove: [%s]}}\n"
    )
    stored = VETCARE.replace("parts: {", "tag: {type: str, default: x}\n      parts: {")
    refused = after.replace("events:\n", "events:\n" + enrolled % "tag", 1).replace(
        "parts: {", "tag: {type: str, default: x}\n      parts: {"
    )
    assert _breaking(stored, refused) == [
        "events.PetEnrolled.upcasts.1: stored PetEnrolled events (v1) have no 'nickname' and"
        " no upcast gives it (PetEnrolled)"
    ]
    given = refused.replace("remove: [tag]}", "remove: [tag], add: {nickname: ''}}")
    assert _breaking(stored, given) == []


def _projection_version(workspace: Path) -> str:
    source = (workspace / "apps/vetcare/src/vetcare/infrastructure/projections.py").read_text()
    (line,) = [line for line in source.splitlines() if line.startswith("PET_LIST = ")]
    return line.split("version=")[1]


def test_a_read_model_is_rebuilt_when_the_upcasts_of_its_events_change(
    rendered: Path, tmp_path: Path, generate: Generate
) -> None:
    """Rows an old event could not be read into (or was read into otherwise) are written
    anew once its upcasts change: the read model's version follows them."""

    def version(*edits: tuple[str, str]) -> str:
        copy = tmp_path / f"ws{len(list(tmp_path.iterdir()))}"
        shutil.copytree(rendered, copy)
        for old, new in edits:
            _edited(copy, old, new)
        made = generate("render", "vetcare", "--allow-dirty", cwd=copy)
        assert made.code == 0, made.err
        return _projection_version(copy)

    nickname = ("      parts: {", "      nickname: {type: str, default: ''}\n      parts: {")
    bumped = ("  VisitCancelled:\n", VERSIONED % "')'" + "  VisitCancelled:\n")
    before = _projection_version(rendered)
    versioned = version(nickname, bumped)
    added_otherwise = version(nickname, (bumped[0], bumped[1].replace("')'", "'-'")))
    assert len({before, versioned, added_otherwise}) == 3
    # a change elsewhere keeps it
    described = ("description: Pets of a clinic", "description: The pets of a clinic")
    assert version(described) == before
    assert version(nickname, bumped, described) == versioned


VERSIONED = (
    "  PetEnrolled:\n    version: 2\n"
    "    fields: {petId: uuid, name: str, species: Species, weightKg: decimal,"
    " parts: 'list[PartLine]', nickname: str, occurredAt: datetime}\n"
    "    upcasts: {1: {add: {nickname: %s}}}\n"
)


FLEET = """\
version: 2
name: fleet
aggregates:
  Van:
    fields:
      plate: {type: str, max_length: 20}
    commands:
      add: {creates: true, params: [plate], emits: VanAdded}
"""


def _evolved(before: str, after: str) -> tuple[list[str], list[str]]:
    """The likely renames and the narrowed rules of a change, each as its message."""
    old, new = (resolve(load_spec_text(text, "fleet.yaml")) for text in (before, after))
    return (
        [message for _, message in likely_renames(old, new)],
        [message for _, message in narrowed_rules(old, new)],
    )


def test_a_required_field_renamed_into_an_optional_one_is_a_likely_rename() -> None:
    """Its values would read as null: it was let through, being of another type (str, now
    str | null)."""
    renamed = FLEET.replace("plate: {type: str,", "registration: {type: str, optional: true,")
    renames, _ = _evolved(FLEET, renamed.replace("params: [plate]", "params: [registration]"))
    assert renames == [
        "Van.registration is new and Van.plate is gone, both str: if this is a rename, what is"
        " stored as 'plate' is not read as 'registration' (it reads as its default); declare"
        " the events that carry it (VanAdded) with a new version and an upcast that renames"
        " it ({rename: {plate: registration}}), or one that removes it ({remove: [plate]}) if"
        " its values are to be dropped"
    ]


def test_a_rename_one_event_follows_is_still_refused_for_the_others() -> None:
    """An upcast renames a field in the events it is declared on only: the values the
    other events stored read as the new field's default (a draft invoice's total read 0,
    and issuing it charged 0)."""
    before = FLEET.replace(
        "      add: {creates: true, params: [plate], emits: VanAdded}\n",
        "      add: {creates: true, params: [plate], emits: VanAdded}\n"
        "      retire: {set: {plate: \"'-'\"}, emits: VanRetired}\n",
    )
    after = (
        before.replace("plate: {type: str, max_length: 20}", "tag: {type: str, default: x}")
        .replace("params: [plate]", "params: [tag]")
        .replace("{plate: ", "{tag: ")
        + "events:\n  VanRetired:\n    version: 2\n"
        "    fields: {vanId: uuid, tag: str, occurredAt: datetime}\n"
        "    upcasts: {1: {rename: {plate: tag}}}\n"
    )
    renames, _ = _evolved(before, after)
    assert renames == [
        "Van.plate is renamed 'tag' by an upcast, but VanAdded is stored with 'plate' too,"
        " and without that upcast read as the default of 'tag': declare VanAdded under"
        " `events` with a new version and the same upcast ({rename: {plate: tag}})"
    ]
    both = after.replace(
        "events:\n",
        "events:\n  VanAdded:\n    version: 2\n"
        "    fields: {vanId: uuid, tag: str, occurredAt: datetime}\n"
        "    upcasts: {1: {rename: {plate: tag}}}\n",
    )
    assert _evolved(before, both)[0] == []


def test_a_rule_narrowed_on_a_field_an_upcast_renames_is_warned_of() -> None:
    """The renamed field holds what the old one stored: a narrower rule on it was said
    nothing of (the field was looked up by its new name only)."""
    after = (
        FLEET.replace(
            "plate: {type: str, max_length: 20}", "registration: {type: str, max_length: 5}"
        ).replace("params: [plate]", "params: [registration]")
        + "events:\n  VanAdded:\n    version: 2\n"
        "    fields: {vanId: uuid, registration: str, occurredAt: datetime}\n"
        "    upcasts: {1: {rename: {plate: registration}}}\n"
    )
    assert _evolved(FLEET, after) == (
        [],
        [
            "Van.registration's max_length was 20, now 5: stored values that break it stay"
            " readable, but an aggregate holding one fails (422) each command that does not"
            " set a valid one; check the stored data first"
        ],
    )


def test_an_invariant_new_on_stored_aggregates_is_warned_of() -> None:
    """A new invariant holds stored aggregates to it as a narrower rule does: it was said
    nothing of (only the rules of fields were compared)."""
    checked = FLEET.replace(
        "    commands:\n",
        "    invariants:\n      - {check: len(plate) >= 2, message: A plate has 2 characters}\n"
        "    commands:\n",
    )
    assert _evolved(FLEET, checked) == (
        [],
        [
            "Van's invariant 'len(plate) >= 2' is new: stored aggregates that break it stay"
            " readable, but each fails (422) every command until a command sets what it"
            " checks; check the stored data first"
        ],
    )
    # the same invariant, kept: nothing to say
    assert _evolved(checked, checked) == ([], [])


def test_a_key_newly_shared_between_stored_aggregates_is_warned_of() -> None:
    """A value both held before the keys were shared stays with both: said once for the
    pair (at the first of them), and not for an aggregate new with the sharing (it has
    nothing stored)."""
    keyed = FLEET.replace("  Van:\n", "  Van:\n    key: plate\n") + (
        "  Truck:\n    key: plate\n    fields:\n      plate: {like: Van.plate}\n"
        "    commands:\n      add: {creates: true, params: [plate], emits: TruckAdded}\n"
    )
    shared = keyed.replace("    key: plate\n", "    key: {fields: [plate], shared_with: [Van]}\n")
    shared = shared.replace(
        "  Van:\n    key: {fields: [plate], shared_with: [Van]}\n", "  Van:\n    key: plate\n"
    )
    assert _evolved(keyed, shared) == (
        [],
        [
            "Van's key is shared with Truck's now: a value both hold already stays with"
            " both (only new ones are refused); check the stored data first"
        ],
    )
    assert _evolved(shared, shared) == ([], [])
    only_van = keyed[: keyed.index("  Truck:")]
    assert _evolved(only_van, shared) == ([], [])


BOX = """\
version: 2
name: box
aggregates:
  Ticket:
    fields:
      holder: {type: str, max_length: 100}
      price: {type: decimal, min: 0}
      currency: {type: str, default: EUR}
      status: {type: str, default: HELD}
    invariants:
      - {check: price >= 0, message: No negative price}
    commands:
      buy: {creates: true, params: [holder, price, currency], emits: TicketHeld}
      cancel: {set: {status: "'VOIDED'"}, emits: TicketVoided}
"""
HELD_V2 = (
    "events:\n  TicketHeld:\n    version: 2\n"
    "    fields: {ticketId: uuid, holder: %s, price: decimal, currency: %s,"
    " occurredAt: datetime}\n    upcasts: {1: {%s}}\n"
)


def test_what_stored_events_would_no_longer_read_is_refused_or_warned_of() -> None:
    """Found by a new user's spec changes over stored tickets: each was rendered, and the
    tickets stored before answered 500."""
    # a command gone whose event changed the tickets' state: declaring the event under
    # `events` (the advice given before) leaves it applying to no ticket
    declared = "  TicketVoided:\n    fields: {ticketId: uuid, status: str, occurredAt: datetime}\n"
    voided = BOX.replace("      cancel: {set: {status: \"'VOIDED'\"}, emits: TicketVoided}\n", "")
    assert _breaking(BOX, voided + "events:\n" + declared) == [
        "aggregates.Ticket.commands: TicketVoided is emitted by no command of Ticket any"
        " more, but the stored Tickets that hold one apply it when they are read (TicketVoided)"
    ]
    # a new type the stored values are not, with an upcast that converts nothing
    retyped = BOX.replace("holder: {type: str, max_length: 100}", "holder: {type: int}")
    assert _breaking(BOX, retyped + HELD_V2 % ("int", "str", "")) == [
        "events.TicketHeld.fields.holder.type: stored TicketHeld events (v1) hold 'holder' as"
        " str, which version 2 reads as int and no upcast turns into it (TicketHeld)"
    ]
    # a default gone from an event field: the events stored before it was added lack it
    required = BOX + HELD_V2 % ("str", "str", "")
    assert _breaking(BOX, required) == []
    assert _evolved(BOX, required)[1] == [
        "TicketHeld.currency had a default (or was optional) and is required now: if it came"
        " after TicketHeld events were stored (a field added with a default takes no new"
        " version), those lack it and would no longer be read (500); keep its default, or add"
        " it in an upcast"
    ]
    assert _evolved(BOX, BOX + HELD_V2 % ("str", "str", "add: {currency: EUR}"))[1] == []
    # a field's new type is no new invariant (its checked expression was the same text)
    assert (
        _evolved(BOX, BOX.replace("price: {type: decimal, min: 0}", "price: {type: float}"))[1]
        == []
    )


def test_a_value_object_field_renamed_is_a_likely_rename() -> None:
    """A line's ``unitPrice`` renamed ``price`` (with a default) read every stored line's
    price as that default: nothing said so, as it is said of an aggregate's field."""
    before = FLEET.replace(
        "aggregates:\n",
        "values:\n  Part:\n    fields: {sku: str, unitPrice: {type: int, default: 0}}\n"
        "aggregates:\n",
    ).replace(
        "      plate: {type: str, max_length: 20}\n",
        "      plate: str\n      parts: 'list[Part]'\n",
    )
    before = before.replace("params: [plate]", "params: [plate, parts]")
    after = before.replace("unitPrice: {type: int", "price: {type: int")
    assert _evolved(before, after)[0] == [
        "Part.price is new and Part.unitPrice is gone, both int: if this is a rename, what the"
        " stored events hold as 'unitPrice' is not read as 'price' (it reads as its default),"
        " and no upcast renames a value object's field: keep the name 'unitPrice', or render"
        " with --allow-breaking if its values are to be dropped"
    ]
