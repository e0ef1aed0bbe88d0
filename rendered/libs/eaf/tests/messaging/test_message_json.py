"""A message body no retry can read is a ValueError (a consumer's Poison), never a
RecursionError that would be retried."""

import pytest

from eaf.messaging.message import Message


def test_a_body_nested_too_deep_is_a_value_error() -> None:
    message = Message(subject="events.t.s.E", data=b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(ValueError, match="nests too deep"):
        message.json()


def test_a_body_that_is_no_json_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Message(subject="events.t.s.E", data=b"{not json").json()


def test_a_json_body_is_decoded() -> None:
    assert Message(subject="events.t.s.E", data=b'{"a": [1, 2]}').json() == {
        "a": [1, 2]
    }
