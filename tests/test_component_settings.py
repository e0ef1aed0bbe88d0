"""The service's own settings (spec ``settings``) and what its components take from the
composition root besides parts: settings with their types, values as they are, lists of
parts, a class method as constructor, a generic type. What `validate` refuses, and what a
rendered service does with them (its file, the environment, its generated tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import Generate, probed_json, ran_in, spec_problems

NOTES = """\
version: 2
name: notes
settings:
  mail.host: {type: str, default: localhost, description: "the relay's host # name"}
  mail.port: {type: int, default: 25}
  mail.timeout_seconds: {type: seconds, default: 3}
  mail.tls: {type: bool, default: false}
  mail.outbox_dir: {type: path, default: data/outbox}
  mail.throttle.rate: {type: float, default: 0.5}
  mail.password: {type: str, description: the relay's password}
  mail.throttle.burst: {type: int, default: 10}
components:
  outbox:
    type: notes.infrastructure.mailer:Outbox
    constructor: in_directory
    settings: {directory: mail.outbox_dir}
  pending:
    type: notes.infrastructure.mailer:Pending[Any]
  mailer:
    type: notes.infrastructure.mailer:Mailer
    needs: {outbox: outbox, queues: [pending, outbox.pending], clock: clock}
    settings: {host: mail.host, port: mail.port, timeout: mail.timeout_seconds,
               tls: mail.tls, rate: mail.throttle.rate, password: mail.password}
    values: {sender: "reminders@example.test", retries: 3, strict: true, label: null}
  index:
    type: notes.infrastructure.mailer:Index
    needs: {rows: notes_queries, history: note_repository.history}
aggregates:
  Note:
    fields:
      title: {type: str, max_length: 80}
    commands:
      create: {params: [title], emits: NoteCreated, creates: true}
events:
  NoteCreated: {fields: {noteId: str, title: str, occurredAt: datetime}}
read_models:
  Notes: {of: Note}
endpoints:
  - {method: POST, path: /api/v1/notes, command: Note.create}
  - {method: GET, path: "/api/v1/notes/{id}", query: Note.get}
"""

MAILER = '''\
"""A mailer configured by the service's settings."""

from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, Generic, TypeVar

from notes.application.ports.outbound import Clock

T = TypeVar("T")


class Pending(Generic[T]):
    def __init__(self) -> None:
        self.items: list[T] = []


class Outbox:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.pending: Pending[str] = Pending()

    @classmethod
    def in_directory(cls, *, directory: Path) -> "Outbox":
        directory.mkdir(parents=True, exist_ok=True)
        return cls(directory)


class Mailer:
    def __init__(
        self,
        *,
        outbox: Outbox,
        queues: list[object],
        clock: Clock,
        host: str,
        port: int,
        timeout: timedelta,
        tls: bool,
        rate: float,
        password: str,
        sender: str,
        retries: int,
        strict: bool,
        label: str | None,
    ) -> None:
        self.outbox, self.queues, self.clock = outbox, queues, clock
        self.host, self.port, self.timeout, self.tls = host, port, timeout, tls
        self.rate, self.password = rate, password
        self.sender, self.retries, self.strict, self.label = sender, retries, strict, label


class Index:
    def __init__(self, *, rows: object, history: Callable[[str], Awaitable[list[Any]]]) -> None:
        self.rows, self.history = rows, history
'''

PROBE = """
import asyncio, json, sys
from pathlib import Path

from eaf.config import ConfigError
from eaf.context import SecurityContext, use
from notes.bootstrap import bootstrap
from notes.infrastructure.config import load_settings

async def main() -> None:
    tmp = Path(sys.argv[1])
    try:
        environ = {"DATABASE_URL": "sqlite://", "MAIL_OUTBOX_DIR": str(tmp / "first")}
        await bootstrap(load_settings(environ))
        required = None
    except ConfigError as error:
        required = str(error)
    environ = {
        "DATABASE_URL": "sqlite://",
        "MAIL_OUTBOX_DIR": str(tmp / "outbox"),
        "MAIL_PORT": "2525",
        "MAIL_TIMEOUT_SECONDS": "0.25",
        "MAIL_TLS": "yes",
        "MAIL_PASSWORD": "s3cret",
    }
    services = await bootstrap(load_settings(environ))
    m = services.mailer
    with use(SecurityContext(tenant_id="acme")):
        note = await services.note.create(title="hello")
        history = [type(e).__name__ for e in await services.index.history(note.id)]
    with use(SecurityContext(tenant_id="globex")):
        elsewhere = await services.index.history(note.id)
    print(json.dumps({
        "required": required,
        "mailer": [m.host, m.port, m.timeout.total_seconds(), m.tls, m.rate, m.password],
        "values": [m.sender, m.retries, m.strict, m.label],
        "outbox": [str(m.outbox.directory), m.outbox.directory.is_dir()],
        "queues": [m.queues[0] is services.pending, m.queues[1] is m.outbox.pending],
        "clock": m.clock is services.clock,
        "rows": services.index.rows is services.queries["Notes"],
        "history": [history, elsewhere],
    }))

asyncio.run(main())
"""


def problems(text: str) -> list[str]:
    return spec_problems(text, "notes.yaml")


def test_the_spec_with_settings_and_components_taking_them_is_valid() -> None:
    assert problems(NOTES) == []


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (
            "  mail.port: {type: int, default: 25}",
            "  mail: {type: int, default: 25}",
            "settings.mail: 'mail' is not a dotted key of snake_case words (section.key)",
        ),
        (
            "  mail.port: {type: int, default: 25}",
            "  server.timeout: {type: int, default: 25}",
            "settings.server.timeout: server.* are the runtime's own settings",
        ),
        (
            "  mail.port: {type: int, default: 25}",
            '  mail.port: {type: int, default: "25"}',
            "settings.mail.port.default: '25' is no int",
        ),
        (
            "  mail.tls: {type: bool, default: false}",
            "  mail.tls: {type: bool, default: 0}",
            "settings.mail.tls.default: 0 is no bool",
        ),
        (
            "  mail.timeout_seconds: {type: seconds, default: 3}",
            "  mail.timeout_seconds: {type: seconds, default: -1}",
            "settings.mail.timeout_seconds.default: a number of seconds is 0 or more",
        ),
        (
            "  mail.host: {",
            "  mail.host.name: {type: str}\n  mail.host: {",
            "settings.mail.host: 'mail.host' would be a section of 'mail.host.name'",
        ),
        (
            "    settings: {directory: mail.outbox_dir}",
            "    settings: {directory: mail.outbox_directory}",
            "components.outbox.settings.directory: 'mail.outbox_directory' is no setting of"
            " this spec",
        ),
        (
            "    values: {sender:",
            "    values: {host: x, sender:",
            "components.mailer.values.host: 'host' is given twice (needs, settings, values)",
        ),
        (
            "    values: {sender:",
            "    values: {limit: .inf, sender:",
            "components.mailer.values.limit: a value is a finite number",
        ),
        (
            "    constructor: in_directory",
            "    constructor: in_directory\n    factory: notes.infrastructure.mailer:make",
            "components.outbox.constructor: a component has a factory or a constructor, not both",
        ),
        (
            "    constructor: in_directory",
            "    constructor: __init__",
            "components.outbox.constructor: '__init__' is not a class method's name",
        ),
        (
            "mailer:Pending[Any]",
            "mailer:Pending[str]",
            "components.pending.type: 'notes.infrastructure.mailer:Pending[str]' is not"
            " module:Class (or module:Class[Any])",
        ),
        (
            "queues: [pending, outbox.pending]",
            "queues: [pending, mailer]",
            "components.mailer.needs.queues.1: 'mailer' is none of the parts",
        ),
    ],
)
def test_validate_names_what_settings_and_component_arguments_cannot_be(
    before: str, after: str, expected: str
) -> None:
    assert before in NOTES
    found = problems(NOTES.replace(before, after, 1))
    assert any(expected in problem for problem in found), found


def test_a_component_of_a_library_or_settings_of_a_library_are_refused() -> None:
    library = "version: 2\nname: tools\nkind: lib\nsettings:\n  mail.port: {type: int}\n"
    found = problems(library)
    assert any("settings: settings are read by an app's composition root" in p for p in found)


def test_a_rendered_service_reads_its_settings_with_their_types(
    workspace: Path, generate: Generate, tmp_path: Path
) -> None:
    (workspace / "specs").mkdir()
    (workspace / "specs/notes.yaml").write_text(NOTES)
    made = generate("service", "notes", cwd=workspace)
    assert made.code == 0, made.err
    # what the composition root calls, with every keyword, is named for the user to write
    assert "with class Mailer with def __init__(self, *, outbox, queues, clock, host" in made.out
    project = workspace / "apps/notes"
    (project / "src/notes/infrastructure/mailer.py").write_text(MAILER)
    config = (project / "config/application.yaml").read_text()
    assert 'mail:\n  host: "localhost"  # the relay\'s host # name\n  port: 25\n' in config
    # seconds are a number: "0.25" from the environment overrides a whole 3 (config.py's
    # DEFAULTS hold 3.0)
    assert "  timeout_seconds: 3\n" in config
    assert (
        "  throttle:\n    rate: 0.5\n    burst: 10\n"
        "  password: null  # the relay's password (required)" in config
    )
    # each key under its section, a subsection holding its keys wherever the spec names them
    assert yaml.safe_load(config)["mail"] == {
        "host": "localhost",
        "port": 25,
        "timeout_seconds": 3,
        "tls": False,
        "outbox_dir": "data/outbox",
        "throttle": {"rate": 0.5, "burst": 10},
        "password": None,
    }
    # the manifests list them at their defaults, the required one said to be so
    configmap = (project / "deploy/k8s/configmap.yaml").read_text()
    assert '  # MAIL_TIMEOUT_SECONDS: "3.0"\n  # MAIL_TLS: "false"\n' in configmap
    assert "  # MAIL_PASSWORD: (required)   # the relay's password" in configmap
    # the generated tests keep the outbox in their directory and give the password a sample
    conftest = (project / "tests/conftest.py").read_text()
    assert '"MAIL_OUTBOX_DIR": str(tmp_path / "outbox")' in conftest
    assert '"MAIL_PASSWORD": "sample"' in conftest
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    seen = probed_json(project, PROBE, tmp_path)
    assert seen["required"] == (
        f"mail.password is required: set it in {project.resolve()}/config/application.yaml"
        " or the environment variable MAIL_PASSWORD"
    )
    assert seen["mailer"] == ["localhost", 2525, 0.25, True, 0.5, "s3cret"]
    assert seen["values"] == ["reminders@example.test", 3, True, None]
    assert seen["outbox"] == [str(tmp_path / "outbox"), True]
    assert seen["queues"] == [True, True]
    assert seen["clock"] is True
    # a read model's queries, an aggregate's events in the caller's tenant
    assert seen["rows"] is True
    assert seen["history"] == [["NoteCreated"], []]
    # nothing of the service's own was written where the tests did not point it
    assert not (project / "data/outbox").exists()


def test_a_secured_service_declaring_a_security_setting_writes_it_once(
    workspace: Path, generate: Generate
) -> None:
    """A setting the runtime also knows (``security.audience``) is written once, with the
    spec's default, beside the runtime's other security settings."""
    spec = (
        "version: 2\nname: vault\nsettings:\n"
        "  security.audience: {type: str, default: vault-api, description: our audience}\n"
        "  security.vault.seal_after_seconds: {type: seconds, default: 60}\n"
        "aggregates:\n  Box:\n    fields: {label: {type: str}}\n"
        "    commands: {make: {creates: true, params: [label], emits: BoxMade}}\n"
        "events:\n  BoxMade: {fields: {boxId: str, label: str, occurredAt: datetime}}\n"
        "endpoints:\n"
        "  - {method: POST, path: /api/v1/boxes, command: Box.make, permission: 'vault:write'}\n"
    )
    (workspace / "specs").mkdir()
    (workspace / "specs/vault.yaml").write_text(spec)
    made = generate("service", "vault", cwd=workspace)
    assert made.code == 0, made.err
    config = (workspace / "apps/vault/config/application.yaml").read_text()
    security = yaml.safe_load(config)["security"]
    assert security["audience"] == "vault-api"
    assert security["iam_url"] == "http://127.0.0.1:8081"
    assert security["vault"] == {"seal_after_seconds": 60}
    assert config.count("audience:") == 1
