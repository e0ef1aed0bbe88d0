"""The spec format (version 2): a strict pydantic model of one service or library spec.

Version 1 specs (no ``version`` key) are upgraded on load by `generator.migrate`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

FORMAT_VERSION = 2
NAME_RULE = r"^[a-z][a-z0-9-]*[a-z0-9]$"
PASCAL = r"^[A-Z][A-Za-z0-9]*$"
CAMEL = r"^[a-z][A-Za-z0-9]*$"
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
PERMISSION = r"^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$"
FLAG_KEY = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"
RULE_KEYS = ("not_blank", "contains", "pattern", "min", "max", "min_length", "max_length", "scale")
CONSUMED_EVENT = r"^[a-z][a-z0-9-]*[a-z0-9]\.[A-Z][A-Za-z0-9]*$"
MAX_NAME = 64
JSON_INT = 2**53 - 1
"""The largest integer JSON carries exactly (I-JSON, RFC 7493): an int and its bounds stay
within ±JSON_INT."""
MAX_TEXT = 2000

Text = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
Expression = Annotated[StrictStr, Field(max_length=500)]
Value = StrictStr | StrictInt | StrictFloat | StrictBool
Bound = StrictInt | StrictFloat | StrictStr


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _shorthand_field(value: Any) -> Any:
    return {"type": value} if isinstance(value, str) else value


class ItemsSpec(_Strict):
    """The rules of each item of a list (each value of a map) whose items are scalars."""

    not_blank: StrictBool | None = Field(default=None, description="str: not only spaces")
    contains: Text | None = Field(default=None, description="str: must contain this text")
    pattern: Text | None = Field(default=None, description="str: must match (whole value)")
    min: Bound | None = Field(default=None, description="number or decimal: at least")
    max: Bound | None = Field(default=None, description="number or decimal: at most")
    min_length: StrictInt | None = Field(
        default=None, ge=0, le=1_000_000, description="str: characters"
    )
    max_length: StrictInt | None = Field(
        default=None, ge=0, le=1_000_000, description="str: characters"
    )
    scale: StrictInt | None = Field(
        default=None, ge=0, le=18, description="decimal: digits after the point"
    )
    messages: dict[StrictStr, Text] = Field(
        default={},
        description="rule key -> the message a violation reports ({value}: the item, as JSON)",
    )

    @property
    def rules(self) -> list[tuple[str, Any]]:
        """The items' rules as (key, value), in the order of RULE_KEYS."""
        return [(key, getattr(self, key)) for key in RULE_KEYS if getattr(self, key) is not None]


class FieldSpec(_Strict):
    """A typed field of an aggregate, value object, event, read model or command input."""

    type: Text | None = Field(
        default=None,
        description="str int float bool decimal uuid datetime date, an enum or value object "
        "of this spec, list[<type>] or map[<type>] (string keys)",
    )
    like: Annotated[StrictStr, Field(pattern=r"^[A-Z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$")] | None = (
        Field(
            default=None,
            description="<Aggregate or Value>.<field>: this field takes that one's type, rules,"
            " items, keys, messages, normalize, example, default and optional; what it says"
            " itself overrides them",
        )
    )
    description: Text | None = None
    default: Any = Field(default=None, description="the value when none is given")
    example: Any = Field(default=None, description="a valid value, used in docs and tests")
    optional: StrictBool = Field(default=False, description="may be null (default null)")
    not_blank: StrictBool | None = Field(default=None, description="str: not only spaces")
    contains: Text | None = Field(default=None, description="str: must contain this text")
    pattern: Text | None = Field(default=None, description="str: must match (whole value)")
    min: Bound | None = Field(default=None, description="number or decimal: at least")
    max: Bound | None = Field(default=None, description="number or decimal: at most")
    min_length: StrictInt | None = Field(
        default=None, ge=0, le=1_000_000, description="str: characters; list/map: items"
    )
    max_length: StrictInt | None = Field(
        default=None, ge=0, le=1_000_000, description="str: characters; list/map: items"
    )
    scale: StrictInt | None = Field(
        default=None, ge=0, le=18, description="decimal: digits after the point"
    )
    unique: StrictBool = Field(
        default=False, description="no two aggregates of a tenant share the value"
    )
    references: StrictStr | None = Field(
        default=None,
        description="an aggregate of this spec whose id the field holds (Member), or whose"
        " one-field key (Role.name: the value of its key field name)",
    )
    hidden: StrictBool = Field(
        default=False,
        description="an aggregate's field its views never show (a password hash): requests"
        " may still set it",
    )
    secret: Literal[True, "generated", "sealed"] | None = Field(
        default=None,
        description="an aggregate's str field kept only as its argon2id hash: true, the request"
        " gives it in plain (its rules checked on that); generated, the service makes it and"
        " the answer of the command that set it shows it once; sealed, the request gives it in"
        " plain and it is kept encrypted (AES-256-GCM) for the service's own code to open",
    )
    made_when: Text | None = Field(
        default=None,
        description="an optional generated secret: the condition, over the other values a"
        " command that sets it is given, on which the service makes it (else it is null)",
    )
    items: ItemsSpec | None = Field(
        default=None,
        description="list[T] or map[T] of a scalar T: the rules of each item (each value of a"
        " map), as a field of type T takes them, with their own messages",
    )
    normalize: Annotated[list[Literal["trim", "lower", "upper"]], Field(max_length=3)] = Field(
        default=[],
        description="str: what a request's text becomes before its rules are checked and it"
        " is kept (trim: no surrounding white space; lower or upper: one case), in order",
    )
    keys: ItemsSpec | None = Field(
        default=None,
        description="map[T]: the rules of each key, as a str field takes them (not_blank"
        " contains pattern min_length max_length), with their own messages",
    )
    messages: dict[StrictStr, Text] = Field(
        default={},
        description="rule key (or references) -> the message a violation reports ({value}:"
        " the value, as JSON)",
    )

    @model_validator(mode="after")
    def _typed(self) -> FieldSpec:
        if (self.type is None) == (self.like is None):
            raise ValueError(
                "a field names its `type`, or `like: <Aggregate or Value>.<field>` (another"
                " field whose type and rules it takes), not both"
                if self.type is not None
                else "a field names its `type` (or `like: <Aggregate or Value>.<field>`,"
                " another field whose type and rules it takes)"
            )
        return self

    @property
    def has_default(self) -> bool:
        return "default" in self.model_fields_set

    @property
    def has_example(self) -> bool:
        return "example" in self.model_fields_set

    @property
    def rules(self) -> list[tuple[str, Any]]:
        """The field's rules as (key, value), in the order of RULE_KEYS."""
        return [(key, getattr(self, key)) for key in RULE_KEYS if getattr(self, key) is not None]


Fields = Annotated[
    dict[StrictStr, Annotated[FieldSpec, BeforeValidator(_shorthand_field)]],
    Field(max_length=200),
]


class ComputedSpec(_Strict):
    """A value computed from the state when it is read (never stored)."""

    type: Text
    value: Expression = Field(description="an expression over the fields, now and today")
    optional: StrictBool = Field(
        default=False, description="null when it has no value (a division by 0...)"
    )
    description: Text | None = None


class InvariantSpec(_Strict):
    """A rule over several fields, checked after every change."""

    check: Expression = Field(description="an expression that must be true")
    message: Text
    field: StrictStr | None = Field(default=None, description="the field the problem names")


class AlsoSpec(_Strict):
    """A command of another aggregate run in the same transaction (all or nothing)."""

    command: StrictStr = Field(description="<Aggregate>.<command>")
    id: Expression = Field(description="the other aggregate's id (a reference field)")
    with_: dict[StrictStr, Expression | StrictInt | StrictFloat | StrictBool | None] = Field(
        default={}, alias="with", description="the other command's parameters"
    )


class CommandSpec(_Strict):
    """A command of an aggregate: what it takes, checks, changes and emits."""

    description: Text | None = None
    params: Annotated[list[StrictStr], Field(max_length=200)] = Field(
        default=[], description="fields of the aggregate the request sets"
    )
    inputs: Fields = Field(default={}, description="request values that are not fields")
    set: dict[StrictStr, Expression | StrictInt | StrictFloat | StrictBool | None] = Field(
        default={},
        description="field -> the value the command sets (an expression; null "
        "clears an optional field)",
    )
    when: Expression | None = Field(default=None, description="the command's guard")
    error: StrictStr | None = Field(default=None, description="the error when `when` is false")
    emits: StrictStr
    creates: StrictBool = False
    deletes: StrictBool = Field(default=False, description="archives the aggregate")
    also: Annotated[list[AlsoSpec], Field(max_length=20)] = []


def _shorthand_key(value: Any) -> Any:
    if isinstance(value, str):
        return {"fields": [value]}
    return {"fields": value} if isinstance(value, list) else value


class KeySpec(_Strict):
    """A natural key: the fields an aggregate's id is derived from, in its tenant."""

    fields: Annotated[list[StrictStr], Field(min_length=1, max_length=5)] = Field(
        description="the fields (set when it is created, never changed) the id is derived from"
    )
    namespace: StrictStr | None = Field(
        default=None,
        description="the UUID namespace of the ids (default: one derived from the service's"
        " name); give it to keep the ids when the service is renamed",
    )
    label: StrictStr | None = Field(
        default=None,
        description="the word between the tenant and the values in the id's name (default:"
        " the aggregate's name in kebab-case): <tenant>/<label>/<value>; an empty label"
        " leaves it out: <tenant>/<value>",
    )
    ignore_case: StrictBool = Field(
        default=False,
        description="the values are compared without case (case-folded before the id is"
        " derived: Alice and alice are one key); every field of the key is a str",
    )
    shared_with: Annotated[list[StrictStr], Field(max_length=10)] = Field(
        default=[],
        description="other aggregates whose keys take the same values: a value is taken once"
        " among them in the tenant (a client id held by a service account or a registered"
        " client), refused with 409 as a taken key is; said on either side, it holds both"
        " ways; the keys' fields pair in order, of one type with the same rules",
    )


class AggregateSpec(_Strict):
    """An aggregate: identity, fields with rules, invariants, commands."""

    description: Text | None = None
    fields: Fields = {}
    computed: Annotated[dict[StrictStr, ComputedSpec], Field(max_length=100)] = {}
    invariants: Annotated[list[InvariantSpec], Field(max_length=100)] = []
    commands: Annotated[dict[StrictStr, CommandSpec], Field(max_length=100)] = {}
    unique: Annotated[
        list[Annotated[list[StrictStr], Field(min_length=2, max_length=5)]], Field(max_length=20)
    ] = Field(
        default=[],
        description="combinations of fields no two aggregates of a tenant share: [[venueId, name]]",
    )
    key: Annotated[KeySpec | None, BeforeValidator(_shorthand_key)] = Field(
        default=None,
        description="a natural key: the id is derived from these fields in the tenant"
        " (a name-based UUID), so a second aggregate with the same values is refused (409)",
    )
    not_found: Text | None = Field(default=None, description="message when no aggregate has the id")
    event_id: StrictStr | None = Field(
        default=None,
        description="name of the identity field in this aggregate's events (default <aggregate>Id)",
    )
    gone_when: Expression | None = Field(
        default=None,
        description="a state in which the aggregate counts as deleted, over one of its fields"
        " (status == 'deleted'): get answers 404, lists leave it out, commands find none;"
        " a command that sets that state may be served by DELETE",
    )
    view_tenant: StrictStr | None = Field(
        default=None,
        description="a name under which the aggregate's views show the tenant the request"
        " runs in (tenantId), for APIs that administer many tenants",
    )
    view_id: StrictStr | None = Field(
        default=None,
        description="the name of the id in the aggregate's views and paths (default id):"
        ' roleId answers {"roleId": ...} and paths name {roleId}',
    )
    service: Annotated[StrictStr, Field(max_length=200)] | None = Field(
        default=None,
        description="a hand-written subclass of the generated <Aggregate>Service, as"
        " module:Class of this service's package, that bootstrap() builds instead (with the"
        " same arguments) for every endpoint, policy and component",
    )


class ValueSpec(_Strict):
    """A value object: a named, reusable group of fields with its own rules."""

    description: Text | None = None
    fields: Fields
    invariants: Annotated[list[InvariantSpec], Field(max_length=100)] = []


class ErrorSpec(_Strict):
    """A domain error: the HTTP problem a guard answers with."""

    status: StrictInt = Field(default=409, ge=400, le=499)
    title: Text
    detail: Text | None = None
    type: Text | None = Field(default=None, description="the problem type URI")


class UpcastSpec(_Strict):
    """How a stored event of one schema version becomes the next version."""

    rename: dict[StrictStr, StrictStr] = Field(default={}, description="old name -> new name")
    add: dict[StrictStr, Any] = Field(default={}, description="new field -> value for old events")
    remove: list[StrictStr] = Field(default=[], description="fields the new version dropped")
    decode: list[StrictStr] = Field(
        default=[],
        description="fields stored as JSON text, read as the value the text holds (value "
        "objects' fields by their spec names)",
    )
    compute: dict[StrictStr, Expression] = Field(
        default={},
        description="new field -> an expression over the event's other fields (last step only)",
    )


class EventSpec(_Strict):
    """A domain event with its schema version and the upcasts from older versions."""

    description: Text | None = None
    version: StrictInt = Field(default=1, ge=1, le=1000)
    fields: Fields = {}
    upcasts: dict[StrictInt, UpcastSpec] = Field(
        default={}, description="from-version -> the change to the next version"
    )


class OnSpec(_Strict):
    """What one event does to a read model's rows."""

    upsert: dict[StrictStr, Expression | StrictInt | StrictFloat | StrictBool] | None = Field(
        default=None, description="insert or replace the row; column -> value"
    )
    set: dict[StrictStr, Expression | StrictInt | StrictFloat | StrictBool | None] | None = Field(
        default=None, description="change the existing row; column -> value"
    )
    delete: StrictBool = False
    key: dict[StrictStr, Expression] | None = Field(
        default=None, description="key column -> its value from the event (default: same name)"
    )
    create: StrictBool = Field(
        default=False,
        description="with set: a missing row starts from its key and its columns' defaults,"
        " then set changes it (a count per key)",
    )
    each: dict[StrictStr, Expression] | None = Field(
        default=None,
        description="{name: event.<list>}: the change made once for each item of the event's"
        " list, the item read by that name (a sale counted per line of an order)",
    )


def _shorthand_on(value: Any) -> Any:
    if value == "upsert":
        return {"upsert": {}}
    if value == "delete":
        return {"delete": True}
    return value


class ReadModelSpec(_Strict):
    """A projection: rows kept up to date from events (one per aggregate with ``of``)."""

    description: Text | None = None
    of: StrictStr | None = Field(default=None, description="an aggregate: a row per aggregate")
    key: StrictStr | list[StrictStr] | None = Field(default=None, description="key column(s)")
    fields: Fields = {}
    computed: Annotated[dict[StrictStr, ComputedSpec], Field(max_length=100)] = {}
    on: dict[
        StrictStr,
        Annotated[OnSpec, BeforeValidator(_shorthand_on)]
        | Annotated[
            list[Annotated[OnSpec, BeforeValidator(_shorthand_on)]],
            Field(min_length=1, max_length=20),
        ],
    ] = Field(
        default={},
        description="event -> upsert, delete, or {set: {column: value}}; or a list of these,"
        " each changing a row of its own (a match played: its home team's, its away team's)",
    )

    @property
    def keys(self) -> list[str]:
        if self.key is None:
            return []
        return [self.key] if isinstance(self.key, str) else list(self.key)


class RunSpec(_Strict):
    """The command a policy runs: on which aggregate, with what."""

    command: StrictStr = Field(description="<Aggregate>.<command>")
    id: Expression | None = Field(
        default=None, description="the aggregate's id, from the event (event.<field>)"
    )
    with_: dict[StrictStr, Expression | StrictInt | StrictFloat | StrictBool | None] = Field(
        default={}, alias="with", description="the command's parameters, from the event"
    )


class PolicySpec(_Strict):
    """When an event of this service is stored, run a command (once per event)."""

    description: Text | None = None
    on: StrictStr = Field(description="an event of this service")
    run: RunSpec


class ConsumeSpec(_Strict):
    """An event of another service this service reacts to, through a durable consumer."""

    description: Text | None = None
    handler: StrictStr | None = Field(
        default=None, description="the reaction method (camelCase; default on<EventType>)"
    )
    durable: StrictStr | None = Field(
        default=None, description="the consumer group (default <service>-<producer>-<event-type>)"
    )
    max_deliver: StrictInt = Field(
        default=5, ge=1, le=1000, description="attempts before the dead letter queue"
    )
    fields: Fields = Field(default={}, description="the payload fields this service reads")


class SettingSpec(_Strict):
    """A setting of the service's own (``security.keys_file``): its type, its default (under
    ``config/application.yaml``, overridden by the environment variable named after it) and
    what it is for. Components take settings by key (``components.<name>.settings``)."""

    type: Literal["str", "int", "float", "bool", "seconds", "path"] = Field(
        description="what it holds: seconds is a duration (a timedelta, the number not"
        " negative), path a file or directory (relative: in the service's directory)"
    )
    default: Value | None = Field(
        default=None,
        description="the value when neither the file nor the environment gives one; without"
        " one the setting is required",
    )
    description: Text | None = None


class ComponentSpec(_Strict):
    """A hand-written service the composition root builds, after the generated ones, by
    calling its factory (or, without one, its type) with the parts it needs (by keyword):
    ``bootstrap()`` returns it as a field of ``Services``, takes an override of it, and
    the application keeps it on ``app.state``."""

    type: Annotated[StrictStr, Field(max_length=200)] = Field(
        description="what the composition root builds, as module:Class"
        " (iam.application.signin:SignIn), or module:Class[Any] for a generic class"
    )
    factory: Annotated[StrictStr | None, Field(max_length=200)] = Field(
        default=None,
        description="a function of this service's package that builds it, as module:function;"
        " without one, the type itself (or its constructor) is called with the arguments",
    )
    constructor: Annotated[StrictStr | None, Field(max_length=60)] = Field(
        default=None,
        description="a class method of the type that builds it (KeyRing.load_or_create:"
        " load_or_create), instead of the type itself",
    )
    needs: Annotated[
        list[StrictStr]
        | dict[StrictStr, StrictStr | Annotated[list[StrictStr], Field(max_length=20)]],
        Field(max_length=50),
    ] = Field(
        default=[],
        description="the keyword arguments of the factory (or type): a list of parts, each"
        " passed under its own name (a dotted part under its last name), or a map of"
        " keyword to part (or to a list of parts, passed as a list). A part is settings,"
        " store, transactions, clock, read_models, queries, relay, password_hasher,"
        " sealed_secrets, a served aggregate's use cases (its snake name), an aggregate's"
        " repository (<snake>_repository), a read model's queries (<snake>_queries), a"
        " component listed before this one, or an"
        " attribute of one of these (identity.signin)",
    )
    settings: Annotated[dict[StrictStr, StrictStr], Field(max_length=50)] = Field(
        default={},
        description="keyword arguments read from the service's settings: keyword -> the key"
        " of a setting the spec declares (settings), passed with its type",
    )
    values: Annotated[dict[StrictStr, Value | None], Field(max_length=50)] = Field(
        default={},
        description="keyword arguments given as they are: keyword -> a string, number,"
        " boolean or null",
    )
    worker: StrictBool = Field(
        default=False,
        description="it has start() and stop(): started after the generated workers, stopped"
        " before them",
    )
    on_start: Annotated[StrictStr, Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")] | None = Field(
        default=None,
        description="an async method the application awaits once its workers run, before it"
        " serves a request (seed data, an administrator made from the settings)",
    )
    description: Text | None = None

    def arguments(self) -> list[tuple[str, str | list[str]]]:
        """The keyword and the part (or the list of parts) of each need, in order."""
        if isinstance(self.needs, dict):
            return list(self.needs.items())
        return [(need.rsplit(".", 1)[-1], need) for need in self.needs]

    def keywords(self) -> list[str]:
        """Every keyword argument: the needs', the settings', the values'."""
        return [k for k, _ in self.arguments()] + [*self.settings] + [*self.values]

    @property
    def class_path(self) -> str:
        """The type as module:Class, without its type arguments."""
        return self.type.partition("[")[0]

    def parts(self) -> list[str]:
        """Every part the component needs."""
        return [
            part
            for _, need in self.arguments()
            for part in (need if isinstance(need, list) else [need])
        ]


class EndpointSpec(_Strict):
    """An HTTP endpoint bound to a command or a query."""

    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
    path: Annotated[StrictStr, Field(max_length=300)]
    command: StrictStr | None = Field(default=None, description="<Aggregate>.<command>")
    query: StrictStr | None = Field(
        default=None,
        description="<Aggregate>.get (by id or a unique field), <Aggregate>.list, "
        "<ReadModel>.list or <ReadModel>.get",
    )
    call: StrictStr | None = Field(
        default=None,
        description="<component>.<method>: an operation a hand-written component serves; the"
        " route, its body (`inputs`), its answer (`response`) and its guards are rendered",
    )
    inputs: Fields = Field(
        default={},
        description="call: the values the operation takes (the body's fields, and the path's"
        " parameters), with their rules",
    )
    response: StrictStr | None = Field(
        default=None,
        description="call: what the method returns, answered as JSON: an aggregate (its view),"
        " a value object, or list[...] of one; none: 204",
    )
    create: StrictStr | None = Field(
        default=None,
        description="PUT create-or-replace: <Aggregate>.<command>, the creating command run when"
        " no aggregate has the path's key (or the one that had it is gone); `command` changes"
        " the one that has it",
    )
    use_case: StrictStr | None = Field(default=None, description="the use-case method's name")
    request: StrictStr | None = Field(default=None, description="the request body's name")
    status: StrictInt | None = Field(default=None, ge=200, le=299)
    summary: Text | None = None
    permission: StrictStr | None = Field(
        default=None,
        pattern=PERMISSION,
        description="<resource>:<action> the caller's token must grant (e.g. orders:write); "
        "a service with permissions takes its tenant from bearer tokens only",
    )
    filter: Annotated[list[StrictStr], Field(max_length=50)] = Field(
        default=[], description="list: columns callers may filter on (?col=, ?col.gte=...)"
    )
    sort: Annotated[list[StrictStr], Field(max_length=50)] = Field(
        default=[], description="list: columns callers may sort by (?sort=col or -col)"
    )
    order: Annotated[list[StrictStr], Field(max_length=10)] = Field(
        default=[],
        description="list: the rows' order when the request asks for none ([name], [-createdAt];"
        " default: by id)",
    )
    page: StrictBool = Field(default=False, description="list: limit/offset pages with a total")
    consistent: StrictBool = Field(
        default=False,
        description="read-model queries: answer once the read model holds every change the"
        " caller's tenant had stored (read your writes; 503 with Retry-After past 5 s)",
    )
    flag: StrictStr | None = Field(
        default=None,
        pattern=FLAG_KEY,
        description="a feature flag gating the endpoint: while it is off for the caller "
        "(OpenFeature, the feature-flag service at flags.url) the endpoint answers 404",
    )
    tenant: Literal["token", "path"] = Field(
        default="token",
        description="where the request's tenant comes from: the bearer token, or the path's "
        "{tenantId} (a tenant's token may name only its own tenant, a platform operator's any)",
    )
    platform_only: StrictBool = Field(
        default=False,
        description="only a platform operator's token may call it (403 for a tenant's, whatever"
        " its permissions: a tenant administrator can grant their own roles any permission);"
        " needs tenant: path, but on a call (an operation of the platform itself)",
    )

    @field_validator("path")
    @classmethod
    def _absolute(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError("a path starts with '/'")
        return value


class CliCommandSpec(_Strict):
    """An operator command of the service's CLI, served by a hand-written component."""

    call: StrictStr = Field(description="<component>.<method>: the async method it awaits")
    summary: Text = ""
    description: Text = ""
    inputs: Fields = Field(
        default={},
        description="its options (--kebab-case), scalars, with their rules; checked before the"
        " database is opened",
    )
    prompt: Annotated[list[StrictStr], Field(max_length=10)] = Field(
        default=[],
        description="inputs read from the terminal (asked twice) or stdin's first line, never"
        " from the command line (a password)",
    )
    tenant: StrictBool = Field(
        default=False,
        description="the command acts in the tenant its required --tenant option names (else"
        " in none: an operator's platform context, the method entering the tenant it acts in)",
    )


class CliSpec(_Strict):
    """The service's operator CLI (a console script)."""

    name: Annotated[StrictStr, Field(pattern=NAME_RULE, max_length=MAX_NAME)] | None = Field(
        default=None, description="the script's name (default <service>-admin)"
    )
    description: Text = ""
    commands: Annotated[dict[StrictStr, CliCommandSpec], Field(min_length=1, max_length=50)]


class Spec(_Strict):
    """One service (kind app) or shared library (kind lib)."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={"title": "Service spec"},
    )

    version: Literal[2] = Field(default=2, description="the spec format version")
    name: Annotated[StrictStr, Field(pattern=NAME_RULE, max_length=MAX_NAME)]
    kind: Literal["app", "lib"] = "app"
    description: Text = ""
    port: StrictInt = Field(default=8080, ge=1, le=65535)
    base_path: Annotated[StrictStr, Field(max_length=200)] | None = Field(
        default=None, description="path prefix of the health endpoint (default /api/v1/<name>s)"
    )
    enums: Annotated[
        dict[StrictStr, Annotated[list[StrictStr], Field(min_length=1, max_length=200)]],
        Field(max_length=100),
    ] = Field(default={}, description="name -> its values")
    values: Annotated[dict[StrictStr, ValueSpec], Field(max_length=100)] = Field(
        default={}, description="value objects"
    )
    errors: Annotated[dict[StrictStr, ErrorSpec], Field(max_length=100)] = Field(
        default={}, description="domain errors that guards answer with"
    )
    aggregates: Annotated[dict[StrictStr, AggregateSpec], Field(max_length=100)] = {}
    events: Annotated[dict[StrictStr, EventSpec], Field(max_length=500)] = {}
    read_models: Annotated[dict[StrictStr, ReadModelSpec], Field(max_length=100)] = {}
    endpoints: Annotated[list[EndpointSpec], Field(max_length=500)] = []
    policies: Annotated[dict[StrictStr, PolicySpec], Field(max_length=100)] = Field(
        default={}, description="commands run when events are stored (once per event)"
    )
    consumes: Annotated[dict[StrictStr, ConsumeSpec], Field(max_length=100)] = Field(
        default={},
        description="events of other services by <service>.<EventType> (iam.TenantCreatedEvent)",
    )
    dependencies: Annotated[list[StrictStr], Field(max_length=100)] = Field(
        default=[], description="extra runtime requirements (PEP 508), e.g. 'httpx>=0.27'"
    )
    cli: CliSpec | None = Field(
        default=None,
        description="operator commands (a console script), each awaiting a component's method",
    )
    scripts: Annotated[dict[StrictStr, StrictStr], Field(max_length=50)] = Field(
        default={}, description="console scripts: name -> 'module:function'"
    )
    adapter_imports: Annotated[list[StrictStr], Field(max_length=50)] = Field(
        default=[],
        description="third-party packages the infrastructure layer may import besides the"
        " web framework and eaf (its import-linter allow list), e.g. 'saml2'",
    )
    system_packages: Annotated[list[StrictStr], Field(max_length=50)] = Field(
        default=[],
        description="Debian packages the service's image installs, e.g. 'xmlsec1'",
    )
    settings: Annotated[dict[StrictStr, SettingSpec], Field(max_length=100)] = Field(
        default={},
        description="apps only: the service's own settings by dotted key (security.keys_file),"
        " which its components take",
    )
    components: Annotated[dict[StrictStr, ComponentSpec], Field(max_length=50)] = Field(
        default={},
        description="apps only: hand-written services the composition root wires, in order",
    )
    token_validator: Annotated[StrictStr, Field(max_length=40)] | None = Field(
        default=None,
        description="apps only: the component that authenticates the endpoints' bearer tokens"
        " (an iam_client.TokenValidator) instead of IAM's published keys: the IAM itself",
    )
    layers: Annotated[list[StrictStr], Field(max_length=50)] = Field(
        default=[],
        description="libraries only: subpackages from highest to lowest, as a layers contract",
    )


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the spec format, for editors."""
    schema = Spec.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
