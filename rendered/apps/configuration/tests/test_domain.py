# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Unit tests of the domain: rules, guards, invariants, and the events commands emit."""

from datetime import UTC, datetime, timedelta

import pytest

from configuration.domain.errors import (
    DomainValidationError,
    Violation,
)
from configuration.domain.events import (
    PropertiesChanged,
    PropertiesCreated,
    PropertiesRemoved,
    SchemaDefined,
    SchemaRemoved,
    SchemaRevised,
)
from configuration.domain.model import ConfigSchema, PropertySet

# Now: the spec's examples are checked against the current date (a due date in 2099).
NOW = datetime.now(UTC).replace(microsecond=0)
LATER = NOW + timedelta(minutes=5)


def new_config_schema() -> ConfigSchema:
    return ConfigSchema.define(
        application="billing", document='{"type": "object"}', now=NOW
    ).committed()


def test_define_config_schema_sets_fields_and_records_schema_defined() -> None:
    schema_ = ConfigSchema.define(
        application="billing", document='{"type": "object"}', now=NOW
    )
    assert schema_.application == "billing"
    assert schema_.document == '{"type": "object"}'
    assert schema_.created_at == schema_.updated_at == NOW
    assert [type(event) for event in schema_.changes] == [SchemaDefined]
    assert schema_.committed().version == 1


def test_replaying_the_events_of_a_config_schema_rebuilds_it() -> None:
    schema_ = ConfigSchema.define(
        application="billing", document='{"type": "object"}', now=NOW
    )
    schema_ = schema_.revise(
        document='{"type": "object"}', now=LATER + timedelta(seconds=1)
    )
    assert ConfigSchema.from_history(schema_.changes) == schema_.committed()


def test_define_config_schema_rejects_document_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        ConfigSchema.define(application="billing", document="   ", now=NOW)
    assert Violation("document", "Document must not be blank") in error.value.violations


def test_define_config_schema_rejects_document_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        ConfigSchema.define(application="billing", document="x" * 65537, now=NOW)
    assert "document" in {violation.field for violation in error.value.violations}


def test_revise_config_schema_rejects_document_breaking_not_blank() -> None:
    original = new_config_schema()
    with pytest.raises(DomainValidationError) as error:
        original.revise(document="   ", now=NOW)
    assert Violation("document", "Document must not be blank") in error.value.violations


def test_revise_config_schema_rejects_document_breaking_max_length() -> None:
    original = new_config_schema()
    with pytest.raises(DomainValidationError) as error:
        original.revise(document="x" * 65537, now=NOW)
    assert "document" in {violation.field for violation in error.value.violations}


def test_revise_config_schema_returns_a_changed_copy_with_its_event() -> None:
    original = new_config_schema()
    changed = original.revise(document='{"type": "object"}', now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SchemaRevised]


def test_remove_config_schema_returns_a_changed_copy_with_its_event() -> None:
    original = new_config_schema()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SchemaRemoved]
    assert changed.archived


def new_property_set() -> PropertySet:
    return PropertySet.create(
        key_="billing:production:main",
        application="billing",
        profile="production",
        label="main",
        properties={},
        now=NOW,
    ).committed()


def test_create_property_set_sets_fields_and_records_properties_created() -> None:
    set_ = PropertySet.create(
        key_="billing:production:main",
        application="billing",
        profile="production",
        label="main",
        properties={},
        now=NOW,
    )
    assert set_.key_ == "billing:production:main"
    assert set_.application == "billing"
    assert set_.profile == "production"
    assert set_.label == "main"
    assert set_.properties == {}
    assert set_.created_at == set_.updated_at == NOW
    assert [type(event) for event in set_.changes] == [PropertiesCreated]
    assert set_.committed().version == 1


def test_replaying_the_events_of_a_property_set_rebuilds_it() -> None:
    set_ = PropertySet.create(
        key_="billing:production:main",
        application="billing",
        profile="production",
        label="main",
        properties={},
        now=NOW,
    )
    set_ = set_.change(
        properties={}, rolled_back_to=1, now=LATER + timedelta(seconds=1)
    )
    assert PropertySet.from_history(set_.changes) == set_.committed()


def test_change_property_set_returns_a_changed_copy_with_its_event() -> None:
    original = new_property_set()
    changed = original.change(properties={}, rolled_back_to=1, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [PropertiesChanged]


def test_remove_property_set_returns_a_changed_copy_with_its_event() -> None:
    original = new_property_set()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [PropertiesRemoved]
    assert changed.archived
