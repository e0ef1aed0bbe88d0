"""The resolved form of a spec: names bound, types parsed, expressions checked. `resolve`
builds it (collecting every problem on the way); `context` renders from it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from generator.expr import Node
from generator.expr_code import EvalError, evaluate
from generator.typeref import TypeRef

Loc = tuple[str | int, ...]


@dataclass
class RField:
    """A field of an aggregate, value object, event, read model or command input."""

    name: str
    attr: str
    type: TypeRef
    loc: Loc
    optional: bool = False
    has_default: bool = False
    default: Any = None
    has_example: bool = False
    example: Any = None
    rules: list[tuple[str, Any]] = field(default_factory=list)
    messages: dict[str, str] = field(default_factory=dict)
    item_rules: list[tuple[str, Any]] = field(default_factory=list)
    """The rules of each item of a list (each value of a map)."""
    item_messages: dict[str, str] = field(default_factory=dict)
    normalize: tuple[str, ...] = ()
    """What a request's text becomes first (``trim``, ``lower``, ``upper``, in order)."""
    key_rules: list[tuple[str, Any]] = field(default_factory=list)
    """The rules of each key of a map."""
    key_messages: dict[str, str] = field(default_factory=dict)
    unique: bool = False
    references: str | None = None
    references_key: str | None = None
    """The field of ``references``' one-field key the value is (None: its id)."""
    description: str = ""
    varied: bool = False  # the generated tests give it distinct examples (a unique combination's)
    folded: bool = False  # a field of a key that ignores case: its examples differ once folded
    sample_offset: int = 0
    """Which slice of its distinct examples the tests take (a key whose values another
    aggregate's key shares takes its own, so the aggregates the tests make never meet)."""
    hidden: bool = False  # never in a view (requests may set it)
    secret: str | None = None
    """``given`` (the request gives it in plain) or ``generated`` (the service makes it):
    the field holds only its hash."""
    made_when: str | None = None
    """An optional generated secret's condition (spec text): the service makes it only when
    the values a command is given meet it."""
    like: str | None = None
    """The field it takes its type and rules from (``User.username``), if it says so."""

    @property
    def full_type(self) -> TypeRef:
        """The type with null when the field is optional."""
        return self.type.optional() if self.optional else self.type

    @property
    def required(self) -> bool:
        """Whether a request must give it (no default, not optional)."""
        return not self.has_default and not self.optional


@dataclass
class RComputed:
    name: str
    attr: str
    type: TypeRef
    value: Node
    description: str = ""


@dataclass
class RInvariant:
    check: Node
    message: str
    field: str
    loc: Loc = ()
    text: str = ""
    """The check as the spec writes it."""


@dataclass
class RAlso:
    """Another aggregate's command run in the same transaction."""

    aggregate: str
    command: str
    id: Node
    args: dict[str, Node]


@dataclass
class RCommand:
    name: str
    method: str
    loc: Loc
    creates: bool
    deletes: bool
    params: list[RField]
    inputs: list[RField]
    sets: list[tuple[RField, Node]]
    when: Node | None
    error: str | None
    event: str
    also: list[RAlso]
    description: str = ""
    made_when: dict[str, Node] = field(default_factory=dict)
    """By parameter name: the condition on which the service makes a generated secret."""

    @property
    def arguments(self) -> list[RField]:
        """What a caller passes: the parameters, then the inputs."""
        return [*self.params, *self.inputs]


@dataclass
class RAggregate:
    name: str
    loc: Loc
    fields: list[RField]
    computed: list[RComputed]
    invariants: list[RInvariant]
    commands: list[RCommand]
    event_id: str
    event_id_type: str
    not_found: str
    description: str
    unique_together: list[list[RField]] = field(default_factory=list)
    view_id: str = "id"
    """The name of the id in views and paths."""
    view_tenant: str | None = None
    """The name under which views show the request's tenant, if they do."""
    key: list[RField] = field(default_factory=list)
    """The natural key: the fields the id is derived from (none: a random id)."""
    key_namespace: str = ""
    key_label: str = ""
    key_ignore_case: bool = False
    key_shared: list[str] = field(default_factory=list)
    """The other aggregates whose keys take the same values (a value is taken once)."""
    gone: Node | None = None
    """The state in which the aggregate counts as deleted (over ``gone_field``)."""
    gone_field: str | None = None
    gone_text: str | None = None

    def makes_gone(self, command: RCommand) -> bool:
        """Whether ``command`` always leaves the aggregate gone: it deletes it, or its
        ``set`` gives the field ``gone`` names a constant in that state."""
        if command.deletes:
            return True
        if self.gone is None:
            return False
        given = next((node for f, node in command.sets if f.name == self.gone_field), None)
        if given is None or given.op not in ("literal", "member"):
            return False
        try:
            return evaluate(self.gone, {str(self.gone_field): given.value}) is True
        except EvalError:
            return False

    @property
    def path_ids(self) -> tuple[str, ...]:
        """The path parameters that name the aggregate's id."""
        return tuple(dict.fromkeys(("id", self.event_id, self.view_id)))

    def field(self, name: str) -> RField | None:
        return next((f for f in self.fields if f.name == name), None)

    def command(self, name: str) -> RCommand | None:
        return next((c for c in self.commands if c.name == name), None)

    @property
    def deletable(self) -> bool:
        return any(c.deletes for c in self.commands)

    @property
    def unique(self) -> list[RField]:
        return [f for f in self.fields if f.unique]


@dataclass
class RValue:
    name: str
    fields: list[RField]
    invariants: list[RInvariant]
    description: str


@dataclass
class REvent:
    name: str
    version: int
    fields: list[RField]
    upcasts: list[dict[str, Any]]
    declared: bool
    aggregate: str | None = None
    description: str = ""


@dataclass
class RHandler:
    """What one event does to a read model: ``upsert``, ``set`` or ``delete`` the row
    whose key columns take ``key``'s values; ``values`` are the columns written."""

    event: str
    action: str
    key: dict[str, Node]
    values: dict[str, Node]
    gone: Node | None = None
    """Over the event's fields: when it holds, the aggregate is gone and so is its row."""
    create: bool = False
    """A ``set`` that starts a missing row from its key and its columns' defaults."""
    each: tuple[str, Node] | None = None
    """The change is made once for each item of this list of the event, the item read by
    this name."""


@dataclass
class RReadModel:
    name: str
    of: str | None
    keys: list[str]
    columns: list[RField]
    computed: list[RComputed]
    handlers: list[RHandler]
    description: str

    def column(self, name: str) -> RField | None:
        return next((c for c in self.columns if c.name == name), None)


@dataclass
class REndpoint:
    """An endpoint bound to what it runs: ``kind`` is create, change, delete, get, list,
    upsert or call; ``target`` the aggregate, read model or component."""

    index: int
    method: str
    path: str
    kind: str
    target: str
    command: str | None
    use_case: str
    request: str | None
    status: int
    permission: str | None
    path_params: list[str]
    by: list[str]
    filters: list[str]
    sort: list[str]
    page: bool
    summary: str
    tenant_path: bool = False
    """The request's tenant is the path's ``{tenantId}`` (not among ``path_params``)."""
    platform_only: bool = False
    """Only platform operators' tokens call it (403 for a tenant's)."""
    flag: str | None = None
    """The feature flag gating the endpoint (404 while it is off for the caller)."""
    order: list[tuple[str, bool]] = field(default_factory=list)
    """A list's order when the request asks for none: (column, descending)."""
    consistent: bool = False
    """A read-model query answers once the rows hold the tenant's stored events."""
    id_is_tenant: bool = False
    """A get of the aggregate whose id is the path's tenant (a tenant's own record)."""
    by_key: str | None = None
    """A command endpoint's path parameter that names its aggregate by the one field of
    its key (the id is derived from it), not by its id."""
    create: str | None = None
    """A create-or-replace ``PUT`` (kind ``upsert``): the creating command run when no
    aggregate has the path's key; ``command`` changes the one that has it."""
    method_name: str | None = None
    """A call (kind ``call``, ``target`` the component): the component's method it awaits."""
    inputs: list[RField] = field(default_factory=list)
    """A call's values: its path parameters', then its body's."""
    response: str | None = None
    """A call's answer: an aggregate (its view) or a value object; None: 204."""
    response_many: bool = False
    """A call answers a list of ``response``."""


@dataclass
class RPolicy:
    """A command run when an event is stored."""

    name: str
    event: str
    aggregate: str
    command: str
    id: Node | None
    args: dict[str, Node]
    description: str = ""
    # the id names the target by the value of its one-field key (a natural reference)
    by_key: bool = False


@dataclass
class RCliCommand:
    """An operator command: it awaits ``component.method`` with its inputs (options, and
    the ``prompt``ed ones read from the terminal)."""

    name: str
    component: str
    method: str
    inputs: list[RField]
    prompt: list[str]
    tenant: bool = False
    summary: str = ""
    description: str = ""


@dataclass
class RCli:
    """The service's operator CLI: the console script ``name``."""

    name: str
    description: str
    commands: list[RCliCommand]


@dataclass
class Domain:
    """Everything a spec declares, resolved."""

    enums: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, RValue] = field(default_factory=dict)
    errors: dict[str, dict[str, Any]] = field(default_factory=dict)
    aggregates: dict[str, RAggregate] = field(default_factory=dict)
    events: dict[str, REvent] = field(default_factory=dict)
    read_models: dict[str, RReadModel] = field(default_factory=dict)
    endpoints: list[REndpoint] = field(default_factory=list)
    policies: list[RPolicy] = field(default_factory=list)
    cli: RCli | None = None
    problems: list[tuple[Loc, str]] = field(default_factory=list)

    def problem(self, loc: Loc, message: str) -> None:
        self.problems.append((loc, message))


def listed(names: Iterable[object]) -> str:
    """Names for a message: ``a, b`` (at most 20; ``none`` when there are none)."""
    shown = [str(name) for name in names]
    if not shown:
        return "none"
    return ", ".join(shown[:20]) + (", ..." if len(shown) > 20 else "")
