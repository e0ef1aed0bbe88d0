"""Malformed client API documents are refused with the path of the bad part."""

from __future__ import annotations

import pytest

from flag_engine import Context, DocumentError, Engine, parse_document


def _document(**feature: object) -> dict[str, object]:
    return {
        "version": 2,
        "features": [{"name": "checkout", "enabled": True, **feature}],
    }


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({}, "features: missing (a list is required)"),
        ({"features": {}}, "features: expected a list, got an object"),
        ({"features": ["checkout"]}, "features[0]: expected an object, got a string"),
        (
            {"features": [{"enabled": True}]},
            "features[0].name: missing (a string is required)",
        ),
        (
            {"features": [{"name": "checkout"}]},
            "features[0].enabled: missing (a boolean is required)",
        ),
        (
            _document(enabled="yes"),
            "features[0].enabled: expected a boolean, got a string",
        ),
        (
            _document(strategies=[{}]),
            "features[0].strategies[0].name: missing (a string is required)",
        ),
        (
            _document(
                strategies=[{"name": "default", "parameters": {"rollout": ["50"]}}]
            ),
            "features[0].strategies[0].parameters.rollout: expected a string, got a list",
        ),
        (
            _document(
                strategies=[
                    {"name": "default", "constraints": [{"contextName": "userId"}]}
                ]
            ),
            "features[0].strategies[0].constraints[0].operator: missing (a string is required)",
        ),
        (
            _document(
                strategies=[
                    {
                        "name": "default",
                        "constraints": [
                            {"contextName": "userId", "operator": "IN", "values": [1]}
                        ],
                    }
                ]
            ),
            "features[0].strategies[0].constraints[0].values[0]: expected a string, got a number",
        ),
        (
            _document(strategies=[{"name": "default", "segments": ["one"]}]),
            "features[0].strategies[0].segments[0]: expected an integer, got a string",
        ),
        (
            _document(variants=[{"name": "blue", "weight": "half"}]),
            "features[0].variants[0].weight: expected an integer, got a string",
        ),
        (
            _document(
                variants=[{"name": "blue", "weight": 1, "payload": {"type": "string"}}]
            ),
            "features[0].variants[0].payload.value: missing (a string is required)",
        ),
        (
            _document(
                variants=[
                    {
                        "name": "blue",
                        "weight": 1,
                        "overrides": [{"contextName": "userId", "values": "1"}],
                    }
                ]
            ),
            "features[0].variants[0].overrides[0].values: expected a list, got a string",
        ),
        (
            _document(dependencies=[{"feature": "parent", "enabled": "no"}]),
            "features[0].dependencies[0].enabled: expected a boolean, got a string",
        ),
        (
            {"features": [], "segments": [{"constraints": []}]},
            "segments[0].id: missing (an integer is required)",
        ),
        (
            {"events": [{"type": "feature-updated", "feature": None}]},
            "events[0].feature: expected an object, got null",
        ),
        (
            {"events": [{"type": "renamed"}]},
            "events[0].type: unknown event type 'renamed'",
        ),
        ("{not json", "not JSON"),
    ],
)
def test_malformed_documents_name_the_bad_part(document: object, message: str) -> None:
    with pytest.raises(DocumentError) as raised:
        Engine(document)  # type: ignore[arg-type]
    assert str(raised.value).startswith(message)


def test_the_error_carries_its_path() -> None:
    with pytest.raises(DocumentError) as raised:
        parse_document(_document(strategies=[{"name": 7}]))
    assert raised.value.path == "features[0].strategies[0].name"
    assert raised.value.message == "expected a string, got a number"


def test_absent_and_null_optional_parts_read_as_empty() -> None:
    document = parse_document(
        {
            "features": [
                {
                    "name": "checkout",
                    "enabled": True,
                    "strategies": None,
                    "variants": None,
                    "extra": 1,
                }
            ]
        }
    )
    feature = document.features["checkout"]
    assert (feature.strategies, feature.variants, feature.dependencies) == ((), (), ())
    assert Engine(document).is_enabled("checkout", Context())


def test_an_unknown_operator_keeps_only_its_feature_off() -> None:
    engine = Engine(
        {
            "features": [
                {
                    "name": "future",
                    "enabled": True,
                    "strategies": [
                        {
                            "name": "default",
                            "constraints": [
                                {
                                    "contextName": "userId",
                                    "operator": "NEW_OP",
                                    "values": [],
                                }
                            ],
                        }
                    ],
                },
                {
                    "name": "present",
                    "enabled": True,
                    "strategies": [{"name": "default"}],
                },
            ]
        }
    )
    assert not engine.is_enabled("future", Context(user_id="1"))
    assert engine.is_enabled("present", Context(user_id="1"))


def test_context_from_mapping_reads_the_specification_keys() -> None:
    context = Context.from_mapping(
        {
            "userId": "7",
            "sessionId": "s",
            "remoteAddress": "10.0.0.1",
            "environment": "production",
            "appName": "web",
            "currentTime": "2022-01-29T13:00:00.000Z",
            "properties": {"tenant": "acme", "age": 42, "gone": None},
            "region": "eu",
        }
    )
    assert (context.user_id, context.session_id, context.app_name) == ("7", "s", "web")
    assert context.current_time is not None and context.current_time.year == 2022
    assert context.properties == {"tenant": "acme", "age": "42", "region": "eu"}


def test_context_refuses_a_bad_time() -> None:
    with pytest.raises(ValueError, match="context.currentTime"):
        Context.from_mapping({"currentTime": "yesterday"})
