"""Read-model tables declared without SQLAlchemy in the caller."""

import pytest

from eaf.projectors import Projection, read_model_table


def test_the_table_is_keyed_by_tenant_and_key_with_typed_columns() -> None:
    table = read_model_table(
        "profiles", {"id": "str", "name": "str", "age": "int", "tags": "json"}
    )
    assert [c.name for c in table.primary_key.columns] == ["tenant_id", "id"]
    assert {c.name: c.nullable for c in table.columns if not c.primary_key} == {
        "name": True,
        "age": True,
        "tags": True,
    }
    Projection("profiles", table)


def test_an_unknown_column_type_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown column types \\['money'\\]"):
        read_model_table("orders", {"total": "money"})
