"""Regeneration scenarios over a real git repository: spec edits (`render`), blueprint
upgrades (`update`, and plain `copier update`), conflicts, deletions, drift (`check`)
and interruptions. Each asserts the files afterwards."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import GENERATE, REPO, tree_digest

NAME = "acme-orders"
PROJECT = f"apps/{NAME}"
PACKAGE = "acme_orders"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=True
    ).stdout


class Repo:
    """A temp git repository that is both the template and the workspace."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(REPO / "blueprints", root / "blueprints")
        shutil.copy(REPO / "copier.yml", root / "copier.yml")
        (root / "pyproject.toml").write_text(
            '[tool.generate]\napps = "apps"\nlibs = "libs"\nspecs = "specs"\n'
        )
        git(root, "init", "-q", "-b", "main")
        git(root, "config", "user.email", "dev@example.org")
        git(root, "config", "user.name", "Dev")
        self.commit("template")
        assert self.generate("service", NAME).returncode == 0
        self.commit("acme-orders")

    @property
    def project(self) -> Path:
        return self.root / PROJECT

    def file(self, relative: str) -> Path:
        return self.project / relative

    def generate(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "GENERATE_TEMPLATE": str(self.root)}
        return subprocess.run(
            [str(GENERATE), *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )

    def commit(self, message: str) -> None:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "--allow-empty", "-m", message)

    def edit(self, relative: str, old: str, new: str, *, project: bool = True) -> None:
        path = self.file(relative) if project else self.root / relative
        text = path.read_text()
        assert old in text, f"{old!r} not in {relative}"
        path.write_text(text.replace(old, new, 1))

    def spec(self) -> dict[str, Any]:
        return yaml.safe_load((self.root / f"specs/{NAME}.yaml").read_text())

    def write_spec(self, spec: dict[str, Any]) -> None:
        (self.root / f"specs/{NAME}.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))

    def project_tests(self) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(self.project / "src")}
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
            cwd=self.project,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


USER_EDIT = (
    "application/services.py",
    "        return await self._transactions.load(SampleAcmeOrders, id)\n",
    "        found = await self._transactions.load(SampleAcmeOrders, id)  # audited (user edit)\n"
    "        return found\n",
)


def add_field_and_event(repo: Repo) -> None:
    spec = repo.spec()
    aggregate = spec["aggregates"]["SampleAcmeOrders"]
    aggregate["fields"]["nickname"] = {"type": "str", "default": "", "example": "ace"}
    aggregate["commands"]["create"]["params"].append("nickname")
    aggregate["commands"]["rename"] = {"params": ["nickname"], "emits": "SampleAcmeOrdersRenamed"}
    spec["events"]["SampleAcmeOrdersCreated"]["fields"]["nickname"] = {"type": "str", "default": ""}
    spec["events"]["SampleAcmeOrdersRenamed"] = {
        "fields": {"orderId": "uuid", "nickname": "str", "occurredAt": "datetime"}
    }
    spec["endpoints"].append(
        {
            "method": "POST",
            "path": "/api/v1/acme-orders/{id}/rename",
            "command": "SampleAcmeOrders.rename",
        }
    )
    repo.write_spec(spec)


def test_1_spec_edit_renders_new_field_and_event_and_keeps_the_user_edit(repo: Repo) -> None:
    relative, old, new = USER_EDIT
    repo.edit(f"src/{PACKAGE}/{relative}", old, new)
    add_field_and_event(repo)
    repo.commit("edit use case, add field and event")
    result = repo.generate("render", NAME)
    assert result.returncode == 0, result.stderr
    services = repo.file(f"src/{PACKAGE}/{relative}").read_text()
    assert "# audited (user edit)" in services
    assert "async def rename(" in services and "nickname: str" in services
    assert "nickname: str" in repo.file(f"src/{PACKAGE}/domain/model.py").read_text()
    assert (
        "class SampleAcmeOrdersRenamed" in repo.file(f"src/{PACKAGE}/domain/events.py").read_text()
    )
    schemas = repo.file(f"src/{PACKAGE}/infrastructure/schemas.py").read_text()
    assert schemas.count("nickname: str") == 3  # create request, response, rename request
    assert '"nickname": "ace"' in repo.file("tests/test_api.py").read_text()
    tests = repo.project_tests()
    assert tests.returncode == 0, tests.stdout + tests.stderr
    env = {**os.environ, "PYTHONPATH": str(repo.project / "src")}
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json; from acme_orders.main import create_app; "
            "print(json.dumps(create_app().openapi()))",
        ],
        cwd=repo.project,
        capture_output=True,
        text=True,
        env={**env, "DATABASE_URL": "sqlite:///:memory:"},
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    openapi = completed.stdout
    assert "/api/v1/acme-orders/{id}/rename" in openapi
    assert "nickname" in openapi


def test_2_update_keeps_an_edit_of_a_generated_file(repo: Repo) -> None:
    repo.edit(
        f"src/{PACKAGE}/infrastructure/clock.py",
        "        return datetime.now(UTC)\n",
        "        return datetime.now(UTC)\n\n    def today(self) -> str:  # user edit\n"
        "        return self.now().date().isoformat()\n",
    )
    repo.commit("user edit")
    repo.edit(
        "blueprints/common/persistence.py.jinja",
        "are appended in one transaction",
        "are appended in one transaction (upgraded)",
        project=False,
    )
    repo.commit("blueprint change")
    result = repo.generate("update", NAME)
    assert result.returncode == 0, result.stderr
    assert (
        "def today(self) -> str:  # user edit"
        in repo.file(f"src/{PACKAGE}/infrastructure/clock.py").read_text()
    )
    assert "(upgraded)" in repo.file(f"src/{PACKAGE}/infrastructure/persistence.py").read_text()


def test_3_overlapping_edits_leave_markers_and_a_distinct_exit_code(repo: Repo) -> None:
    clock = f"src/{PACKAGE}/infrastructure/clock.py"
    repo.edit(clock, '"""The system clock adapter."""', '"""Our clock (user edit)."""')
    repo.commit("user edit")
    repo.edit(
        "blueprints/common/clock.py.jinja",
        '"""The system clock adapter."""',
        '"""The system clock adapter, in UTC."""',
        project=False,
    )
    repo.commit("blueprint change")
    before = tree_digest(repo.project)
    result = repo.generate("update", NAME)
    assert result.returncode == 3
    assert f"{PROJECT}/{clock}" in result.stderr
    text = repo.file(clock).read_text()
    assert "<<<<<<< before updating" in text and ">>>>>>> after updating" in text
    assert '"""Our clock (user edit)."""' in text
    assert '"""The system clock adapter, in UTC."""' in text
    after = tree_digest(repo.project)
    changed = {path for path in set(before) | set(after) if before.get(path) != after.get(path)}
    assert changed == {clock, ".copier-answers.yml"}


def test_4_a_deleted_generated_file_is_not_resurrected(repo: Repo) -> None:
    repo.file("tests/test_services.py").unlink()
    add_field_and_event(repo)
    repo.commit("delete a generated test, edit spec")
    result = repo.generate("render", NAME)
    assert result.returncode == 0, result.stderr
    assert "kept deleted: tests/test_services.py" in result.stdout
    assert not repo.file("tests/test_services.py").exists()
    assert "nickname" in repo.file(f"src/{PACKAGE}/domain/model.py").read_text()


def test_5_a_renamed_field_is_removed_and_user_code_using_it_fails_its_tests(repo: Repo) -> None:
    custom = repo.file("tests/test_custom.py")
    custom.write_text(
        "from datetime import UTC, datetime\n\n"
        f"from {PACKAGE}.domain.model import SampleAcmeOrders\n\n\n"
        "def test_email_domain() -> None:\n"
        "    order = SampleAcmeOrders.create(name='A', email='a@b.org', now=datetime.now(UTC))\n"
        "    assert order.email.split('@')[1] == 'b.org'\n"
    )
    assert repo.project_tests().returncode == 0
    repo.commit("user test")
    text = (repo.root / f"specs/{NAME}.yaml").read_text().replace("email", "contact")
    (repo.root / f"specs/{NAME}.yaml").write_text(text)
    repo.commit("rename email to contact")
    refused = repo.generate("render", NAME)
    assert refused.returncode == 1
    assert "have no 'contact'" in refused.stderr  # stored events would not read back
    assert repo.generate("render", NAME, "--allow-breaking").returncode == 0
    model = repo.file(f"src/{PACKAGE}/domain/model.py").read_text()
    assert "email" not in model and "contact: str" in model
    assert "order.email" in custom.read_text()
    tests = repo.project_tests()
    assert tests.returncode != 0
    assert "test_custom.py" in tests.stdout and "email" in tests.stdout


def test_6_check_reports_drift_until_render_and_update(repo: Repo) -> None:
    assert repo.generate("check").returncode == 0
    add_field_and_event(repo)
    repo.commit("spec edit")
    stale = repo.generate("check")
    assert stale.returncode == 1
    assert f"{PROJECT}: out of date" in stale.stdout
    assert "src/acme_orders/domain/model.py" in stale.stdout
    assert repo.generate("render", NAME).returncode == 0
    repo.commit("rendered")
    assert repo.generate("check").returncode == 0
    repo.edit(
        "blueprints/common/clock.py.jinja", "The real time", "The wall-clock time", project=False
    )
    repo.commit("blueprint change")
    drift = repo.generate("check")
    assert drift.returncode == 1
    assert "infrastructure/clock.py" in drift.stdout
    assert repo.generate("update", "--all").returncode == 0
    repo.commit("updated")
    assert repo.generate("check", "--all").returncode == 0


def test_6_ci_runs_check_over_rendered() -> None:
    assert 'generate" check --all' in (REPO / "scripts/test.sh").read_text()


def test_7_plain_copier_update_picks_up_a_blueprint_change(repo: Repo) -> None:
    repo.edit(
        "blueprints/common/clock.py.jinja", "The real time", "The wall-clock time", project=False
    )
    repo.commit("blueprint change")
    copier = Path(sys.executable).parent / "copier"
    result = subprocess.run(
        [str(copier), "update", "--trust", "--defaults", "--quiet"],
        cwd=repo.project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "The wall-clock time" in repo.file(f"src/{PACKAGE}/infrastructure/clock.py").read_text()
    assert repo.generate("check").returncode == 0


def _interrupt(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import merge, regenerate

    target = {"merge": (merge, "merge_text"), "apply": (regenerate, "write_tree")}[name]
    original: Callable[..., object] = getattr(*target)
    calls = []

    def failing(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) > 1 or name == "apply":
            raise RuntimeError("interrupted")
        return original(*args, **kwargs)

    monkeypatch.setattr(*target, failing)


@pytest.mark.parametrize("stage", ["merge", "apply"])
def test_8_an_interrupted_render_leaves_the_project_unchanged(
    repo: Repo, stage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator import regenerate
    from generator.projects import read_project

    relative, old, new = USER_EDIT
    repo.edit(f"src/{PACKAGE}/{relative}", old, new)
    repo.edit("src/acme_orders/infrastructure/clock.py", "UTC.", "UTC (edited).")
    add_field_and_event(repo)
    repo.commit("edits")
    before = tree_digest(repo.project)
    project = read_project(repo.project)
    spec = (repo.root / f"specs/{NAME}.yaml").read_text()
    _interrupt(stage, monkeypatch)
    with pytest.raises(RuntimeError, match="interrupted"):
        merge_plan = regenerate.plan(project, regenerate.Source(spec, repo.root))
        regenerate.apply(project, merge_plan)
    assert tree_digest(repo.project) == before
    assert sorted(p.name for p in repo.project.parent.iterdir()) == [NAME]


def test_render_under_a_running_service_leaves_its_data_where_it_writes(repo: Repo) -> None:
    """The database (and every file under ``data``) stays the file the running service
    has open: a render writes the files it changes in place and never moves or copies the
    rest, so what the service writes after the render is still there on its restart."""
    import sqlite3

    data = repo.project / "data"
    data.mkdir()
    database = sqlite3.connect(data / "service.db")  # the running service's connection
    database.execute("create table orders (id text)")
    database.execute("insert into orders values ('before')")
    database.commit()
    inode = (data / "service.db").stat().st_ino
    add_field_and_event(repo)
    repo.commit("spec edit")
    rendered = repo.generate("render", NAME)
    assert rendered.returncode == 0, rendered.stderr
    events = repo.file(f"src/{PACKAGE}/domain/events.py").read_text()
    assert "class SampleAcmeOrdersRenamed" in events
    database.execute("insert into orders values ('after')")  # confirmed to its client
    database.commit()
    database.close()
    assert (data / "service.db").stat().st_ino == inode
    reopened = sqlite3.connect(data / "service.db")
    assert reopened.execute("select id from orders").fetchall() == [("before",), ("after",)]
    reopened.close()
    assert sorted(p.name for p in repo.project.parent.iterdir()) == [NAME]


def test_a_dirty_project_is_refused_naming_the_files(repo: Repo) -> None:
    add_field_and_event(repo)
    repo.commit("spec edit")
    repo.edit(f"src/{PACKAGE}/infrastructure/clock.py", "UTC.", "UTC (uncommitted).")
    before = tree_digest(repo.project)
    result = repo.generate("render", NAME)
    assert result.returncode == 1
    assert "has uncommitted changes" in result.stderr
    assert "src/acme_orders/infrastructure/clock.py" in result.stderr
    assert "Traceback" not in result.stderr
    assert tree_digest(repo.project) == before


def test_render_all_refuses_before_writing_any_project_when_one_is_dirty(repo: Repo) -> None:
    """``render --all`` checks every project first: a dirty one leaves the others unwritten
    too (it rendered those before it, then stopped)."""
    assert repo.generate("service", "zeta-billing").returncode == 0
    add_field_and_event(repo)
    other = repo.root / "specs/zeta-billing.yaml"
    other.write_text(other.read_text().replace("port: ", "base_path: /api/v2/zeta\nport: ", 1))
    repo.commit("zeta-billing, and a spec edit of each")
    clock = repo.root / "apps/zeta-billing/src/zeta_billing/infrastructure/clock.py"
    clock.write_text(clock.read_text().replace("UTC.", "UTC (uncommitted).", 1))
    before = tree_digest(repo.project)
    result = repo.generate("render", "--all")
    assert result.returncode == 1
    assert "apps/zeta-billing has uncommitted changes" in result.stderr
    assert "no project was written" in result.stderr
    assert tree_digest(repo.project) == before


def test_diff_shows_what_render_would_apply_and_writes_nothing(repo: Repo) -> None:
    add_field_and_event(repo)
    before = tree_digest(repo.project)
    result = repo.generate("diff", NAME)
    assert result.returncode == 0
    assert f"+++ b/{PROJECT}/src/acme_orders/domain/model.py" in result.stdout
    assert "+    nickname: str" in result.stdout
    assert tree_digest(repo.project) == before


def test_diff_of_a_change_render_would_refuse_says_so(repo: Repo) -> None:
    spec = repo.spec()
    aggregate = spec["aggregates"]["SampleAcmeOrders"]
    aggregate["unique"] = [list(aggregate["fields"])[:2]]
    repo.write_spec(spec)
    result = repo.generate("diff", NAME)
    assert result.returncode == 1, result.stderr
    assert "+++ b/" in result.stdout
    assert "is unique now, but the values stored before were never claimed" in result.stderr
    assert "`generate render` would refuse this change" in result.stderr


def test_consumed_events_get_a_user_owned_reaction_created_once(repo: Repo) -> None:
    spec = repo.spec()
    spec["consumes"] = {"iam.TenantCreatedEvent": {"fields": {"tenantId": "str"}}}
    repo.write_spec(spec)
    repo.commit("consume TenantCreatedEvent")
    assert repo.generate("render", NAME).returncode == 0
    reactions = f"src/{PACKAGE}/application/reactions.py"
    assert "async def on_tenant_created_event" in repo.file(reactions).read_text()
    tests = repo.project_tests()
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert (repo.project / "tests/test_consumers.py").is_file()
    repo.edit(reactions, "log.info(", "log.warning(")
    spec["consumes"]["billing.InvoicePaid"] = {"fields": {"invoiceId": "uuid"}}
    repo.write_spec(spec)
    repo.commit("own the reaction; consume InvoicePaid")
    user_file = repo.file(reactions).read_text()
    preview = repo.generate("diff", NAME)
    assert f"# {PROJECT}/{reactions} is yours: not changed" in preview.stdout
    assert "+    async def on_invoice_paid(self, event: InvoicePaid) -> None:" in preview.stdout
    result = repo.generate("render", NAME)
    assert result.returncode == 0, result.stderr
    assert f"yours, not re-rendered: {reactions}" in result.stdout
    # the blueprint's change is shown there and then (`diff` no longer sees it once the
    # render is written)
    assert "    +    async def on_invoice_paid(self, event: InvoicePaid) -> None:" in result.stdout
    assert f"# {PROJECT}/{reactions} is yours" not in repo.generate("diff", NAME).stdout
    assert repo.file(reactions).read_text() == user_file
    inbound = repo.file(f"src/{PACKAGE}/application/ports/inbound.py").read_text()
    assert "async def on_invoice_paid(self, event: InvoicePaid) -> None:" in inbound
    # The reaction the user has not written yet is a type error, not a silent no-op.
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "src"],
        cwd=repo.project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert mypy.returncode == 1
    assert "on_invoice_paid" in mypy.stdout, mypy.stdout
