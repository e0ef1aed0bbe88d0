"""An AsyncAPI 3.0 document per service: the events it publishes (every stored event goes
out through the outbox relay) and the events it consumes (each through its durable consumer
group), on their NATS subjects, with payload and header schemas."""

from __future__ import annotations

from typing import Any

from generator.catalog import Catalog, EventEntry, FieldEntry, subject
from generator.resolved import Domain
from generator.typeref import TypeRef

ASYNCAPI_VERSION = "3.0.0"
NATS_BINDING_VERSION = "0.1.0"

_SCALARS: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "decimal": {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"},
    "uuid": {"type": "string", "format": "uuid"},
    "datetime": {"type": "string", "format": "date-time"},
    "date": {"type": "string", "format": "date"},
    "json": {"not": {"type": "null"}},
}

HEADERS: dict[str, tuple[str, bool]] = {
    "Nats-Msg-Id": ("the event id: JetStream drops a duplicate within its window", True),
    "Eaf-Event-Id": ("the event id (time-ordered UUID)", True),
    "Eaf-Event-Type": ("the event type, as the subject's last token", True),
    "Eaf-Schema-Version": ("the payload's schema version; older ones are upcast", True),
    "Eaf-Service": ("the publishing service", True),
    "Eaf-Stream-Type": ("the aggregate type whose stream holds the event", False),
    "Eaf-Stream-Id": ("the aggregate id", False),
    "Eaf-Stream-Version": ("the aggregate's version after the event", False),
    "X-Tenant-Id": ("the tenant (absent for platform events)", False),
    "X-User-Id": ("the user whose request caused the event", False),
    "X-Correlation-Id": ("the correlation id of the request or message chain", True),
    "X-Causation-Id": ("the id of the message that caused this one", False),
}


def document(catalog: Catalog, service: str) -> dict[str, Any]:
    """The AsyncAPI 3.0 document of ``service`` in ``catalog``."""
    entry = catalog.services[service]
    channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    messages: dict[str, Any] = {}
    schemas: dict[str, Any] = {"EventHeaders": _headers()}
    for name in entry.publishes:
        event = catalog.events[f"{service}.{name}"]
        channel = _channel_id(event, own=True)
        channels[channel] = _channel(event, channel)
        messages[channel] = _message(event, catalog.domains[service], schemas, None)
        operations[f"publish{name}"] = {
            "action": "send",
            "title": f"Publish {name}",
            "summary": f"Stored by {', '.join(event.emitted_by) or service}; relayed from "
            "the outbox after the transaction commits, at least once",
            "channel": {"$ref": f"#/channels/{channel}"},
            "messages": [{"$ref": f"#/channels/{channel}/messages/{channel}"}],
        }
    for consumed in entry.consumes:
        consumed_event = catalog.events.get(consumed.key)
        if consumed_event is None:
            continue
        reader = next(c for c in consumed_event.consumers if c.service == service)
        channel = _channel_id(consumed_event, own=False)
        channels[channel] = _channel(consumed_event, channel)
        producer = catalog.domains[consumed_event.service]
        messages[channel] = _message(consumed_event, producer, schemas, reader.fields)
        operations[f"receive{consumed_event.service.title().replace('-', '')}{consumed.event}"] = {
            "action": "receive",
            "title": f"Receive {consumed.key}",
            "summary": f"Durable consumer group {reader.durable}: {reader.handler} runs in the "
            f"event's tenant; after {reader.max_deliver} attempts the message goes to the "
            "dead letter queue",
            "channel": {"$ref": f"#/channels/{channel}"},
            "messages": [{"$ref": f"#/channels/{channel}/messages/{channel}"}],
            "bindings": {"nats": {"queue": reader.durable, "bindingVersion": NATS_BINDING_VERSION}},
        }
    doc: dict[str, Any] = {
        "asyncapi": ASYNCAPI_VERSION,
        "info": {
            "title": service,
            "version": "0.1.0",
            "description": entry.description or f"The events of {service}",
        },
        "defaultContentType": "application/json",
        "servers": {
            "nats": {
                "host": "localhost:4222",
                "protocol": "nats",
                "description": "NATS JetStream (stream EVENTS); `broker.url` sets the real one",
            }
        },
        "channels": channels,
        "operations": operations,
        "components": {
            "messages": {},
            "schemas": schemas,
        },
    }
    for channel, message in messages.items():
        doc["components"]["messages"][channel] = message
        doc["channels"][channel]["messages"] = {
            channel: {"$ref": f"#/components/messages/{channel}"}
        }
    return doc


def _channel_id(event: EventEntry, *, own: bool) -> str:
    return event.name if own else f"{event.service.replace('-', '_')}_{event.name}"


def _channel(event: EventEntry, channel: str) -> dict[str, Any]:
    return {
        "address": subject(event.service, event.name),
        "title": f"{event.service}.{event.name}",
        "description": event.description
        or f"{event.name} events of {event.service}, one subject token per tenant",
        "parameters": {
            "tenant": {
                "description": "the tenant the event belongs to (`_platform` for platform events)"
            }
        },
    }


def _message(
    event: EventEntry,
    domain: Domain,
    schemas: dict[str, Any],
    read: list[FieldEntry] | None,
) -> dict[str, Any]:
    """The message of ``event``; with ``read`` (a consumer's fields) the payload schema
    names what the consumer reads, as a tolerant reader: other fields are allowed."""
    fields = event.fields if read is None else read
    properties = {f.attr: _field_schema(f, domain, schemas) for f in fields}
    required = [f.attr for f in fields if f.required]
    payload: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        payload["required"] = required
    message: dict[str, Any] = {
        "name": event.name,
        "title": f"{event.name} v{event.version}",
        "contentType": "application/json",
        "headers": {"$ref": "#/components/schemas/EventHeaders"},
        "payload": payload,
        "x-schema-version": event.version,
    }
    if event.description:
        message["description"] = event.description
    return message


def _field_schema(item: FieldEntry, domain: Domain, schemas: dict[str, Any]) -> dict[str, Any]:
    schema = type_schema(item.type, domain, schemas)
    if item.description:
        schema = {**schema, "description": item.description}
    if item.optional:
        return {"oneOf": [schema, {"type": "null"}]}
    return schema


def type_schema(ref: TypeRef, domain: Domain, schemas: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a spec type as events carry it; value objects and enums go to
    ``schemas`` and are referenced."""
    if ref.kind == "optional":
        return {"oneOf": [type_schema(ref.element, domain, schemas), {"type": "null"}]}
    if ref.kind == "list":
        return {"type": "array", "items": type_schema(ref.element, domain, schemas)}
    if ref.kind == "map":
        return {
            "type": "object",
            "additionalProperties": type_schema(ref.element, domain, schemas),
        }
    if ref.kind == "enum":
        schemas.setdefault(ref.name, {"type": "string", "enum": list(domain.enums[ref.name])})
        return {"$ref": f"#/components/schemas/{ref.name}"}
    if ref.kind == "value":
        if ref.name not in schemas:
            schemas[ref.name] = {}  # a placeholder first: value objects may nest
            value = domain.values[ref.name]
            schemas[ref.name] = {
                "type": "object",
                "properties": {
                    f.attr: _field_schema(FieldEntry.of(f), domain, schemas) for f in value.fields
                },
                "required": [f.attr for f in value.fields if f.required],
            }
        return {"$ref": f"#/components/schemas/{ref.name}"}
    return dict(_SCALARS[ref.name])


def _headers() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            name: {"type": "string", "description": text} for name, (text, _) in HEADERS.items()
        },
        "required": [name for name, (_, required) in HEADERS.items() if required],
    }
