"""The `generate` command line: one clear error line and a non-zero exit on bad input."""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from generator import workspace as ws
from generator.loading import SpecError, load_spec, load_spec_text
from generator.problems import problem_lines
from generator.projects import Project, ProjectError, all_projects, find_projects
from generator.spec import NAME_RULE, Spec
from generator.yamlio import read_spec_bytes

app = typer.Typer(
    help="Render hexagonal, event-driven FastAPI services and libraries from YAML specs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_CONFLICTS = 3


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _workspace() -> ws.Workspace:
    try:
        return ws.find()
    except ws.WorkspaceError as error:
        fail(str(error))


def _workspace_if_any() -> ws.Workspace | None:
    try:
        return ws.find()
    except ws.WorkspaceError:
        return None


def _target_dir(workspace: ws.Workspace, path: str, name: str) -> tuple[Path, str]:
    """The project directory and blueprint for a ``--path`` value."""
    if path == "apps":
        return workspace.apps / name, "service"
    if path == "libs":
        return workspace.libs / name, "library"
    if not path.strip():
        fail("--path is empty (expected apps, libs or a directory)", EXIT_USAGE)
    directory = Path(path)
    if directory.exists() and not directory.is_dir():
        fail(f"--path {path!r} is a file, not a directory", EXIT_USAGE)
    if not directory.exists() and "/" not in path and not path.startswith("."):
        fail(
            f"unknown --path {path!r} (expected apps, libs or a directory such as ./{path})",
            EXIT_USAGE,
        )
    return directory / name, "service"


def _relative_src(template: Path, project: Path) -> str:
    """The template path as seen from the project, so the answers stay portable."""
    return Path(os.path.relpath(template, project.resolve())).as_posix()


@app.command()
def service(
    name: Annotated[str, typer.Argument(help="Project name, e.g. user-profile")],
    path: Annotated[
        str, typer.Option("--path", help="apps (default), libs, or a directory")
    ] = "apps",
    spec_file: Annotated[
        Path | None, typer.Option("--spec", help="Render this spec instead of a starter")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List the files, write nothing")
    ] = False,
) -> None:
    """Scaffold a new service (or, with --path=libs, a library) from a spec."""
    from generator.render import Blueprint, RenderError, render_files, render_new
    from generator.starter import starter_spec

    if not re.fullmatch(NAME_RULE, name):
        fail(f"invalid name {name!r}: a name must match {NAME_RULE}", EXIT_USAGE)
    workspace = _workspace()
    target, blueprint_name = _target_dir(workspace, path, name)
    if target.exists():
        fail(
            f"{workspace.relative(target)} already exists; nothing was written "
            f"(to re-render it from specs/{name}.yaml: generate render {name})"
        )
    root_name = _workspace_project_name(workspace)
    if root_name is not None and root_name == name:
        fail(
            f"pyproject.toml: the workspace's own project is named {name!r}; a member of the "
            "same name cannot be installed beside it (uv refuses two members of one name): "
            "choose another service name, or rename the workspace's [project].name"
        )
    kind = "lib" if blueprint_name == "library" else "app"
    spec_path = workspace.specs / f"{name}.yaml"
    written_spec: str | None = None
    if spec_file is not None:
        text = _read(spec_file)
        display = str(spec_file)
        if (
            spec_path.exists()
            and spec_file.resolve() != spec_path.resolve()
            and _read(spec_path) != text
        ):
            fail(
                f"{workspace.relative(spec_path)} exists and differs from {spec_file}; "
                "nothing was written (edit it, or render without --spec)"
            )
    elif spec_path.exists():
        text, display = _read(spec_path), workspace.relative(spec_path)
    else:
        text = written_spec = starter_spec(name, kind, "spec.schema.json")
        display = workspace.relative(spec_path)
    spec = _validated(text, display, workspace)
    if spec.name != name:
        fail(f"{display}: name: the spec names {spec.name!r}, not {name!r}")
    if spec.kind != kind:
        fail(f"{display}: kind: {spec.kind!r} does not fit --path {path} (expected {kind!r})")
    blueprint = Blueprint(ws.template_root(), blueprint_name)
    src_path = _relative_src(blueprint.root, target.parent / name)
    if dry_run:
        files = render_files(blueprint, spec, text, src_path=src_path, commit=None)
        for relative in sorted(files):
            typer.echo(workspace.relative(target / relative))
        if written_spec is not None:
            typer.echo(workspace.relative(spec_path))
        return
    try:
        render_new(blueprint, spec, text, target, src_path=src_path)
    except RenderError as error:
        fail(str(error))
    if written_spec is not None:
        spec_path.parent.mkdir(parents=True, exist_ok=True)
        spec_path.write_text(written_spec, encoding="utf-8")
        _ensure_schema(workspace)
    elif spec_file is not None and spec_file.resolve() != spec_path.resolve():
        spec_path.parent.mkdir(parents=True, exist_ok=True)
        spec_path.write_text(text, encoding="utf-8")
    typer.echo(f"Service {name} generated at {workspace.relative(target)}")
    _report_own_code(spec, target)


def _report_own_code(spec: Spec, project: Path) -> None:
    """Name the hand-written code the spec refers to that the project lacks (a component's
    factory, an aggregate's service): the rendered bootstrap imports it."""
    from generator.own_code import missing

    for line in missing(spec, project):
        typer.echo(f"  hand-written code to write: {line}")


def _read(path: Path) -> str:
    try:
        return read_spec_bytes(path, str(path))
    except SpecError as error:
        fail(str(error))


def _validated(text: str, display: str, workspace: ws.Workspace | None = None) -> Spec:
    try:
        return load_spec_text(text, display, workspace)
    except SpecError as error:
        fail(str(error))


@app.command()
def validate(
    specs: Annotated[
        list[Path] | None, typer.Argument(help="Spec files (default: every spec of the workspace)")
    ] = None,
) -> None:
    """Check specs; print every problem as file:line:column: key: message."""
    workspace: ws.Workspace | None
    if specs:
        workspace, files = _workspace_if_any(), specs
    else:
        workspace = _workspace()
        files = sorted(workspace.specs.glob("*.yaml"))
    if not files:
        fail("no spec files to validate")
    problems = 0
    for file in files:
        try:
            load_spec(file, workspace=workspace)
        except SpecError as error:
            problems += len(error.problems)
            for line in problem_lines(error.problems):
                typer.echo(line, err=True)
    if problems:
        raise typer.Exit(EXIT_ERROR)
    typer.echo(f"{len(files)} spec(s) valid")


@app.command()
def migrate(
    specs: Annotated[
        list[Path] | None, typer.Argument(help="Spec files (default: every spec of the workspace)")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the upgraded specs, write nothing")
    ] = False,
) -> None:
    """Upgrade version 1 specs to the current format in place (comments and key order kept)."""
    from generator.migrate import migrate_text

    files = specs or sorted(_workspace().specs.glob("*.yaml"))
    changed = 0
    for file in files:
        display = str(file)
        text = _read(file)
        _validated(text, display)
        upgraded, migration = migrate_text(text)
        if migration.problems:
            fail(f"{display}: {migration.problems[0][1]}")
        if upgraded == text:
            typer.echo(f"{display}: already version 2")
            continue
        _validated(upgraded, display)
        changed += 1
        if dry_run:
            typer.echo(upgraded, nl=False)
            continue
        temporary = file.with_name(f".{file.name}.migrating")
        temporary.write_text(upgraded, encoding="utf-8")
        temporary.replace(file)
        typer.echo(f"{display}: upgraded to version 2")
    if not dry_run:
        typer.echo(f"{changed} spec(s) upgraded")


def _ensure_schema(workspace: ws.Workspace) -> Path:
    from generator.spec import json_schema

    target = workspace.specs / "spec.schema.json"
    text = json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return target


@app.command()
def schema() -> None:
    """Write the JSON Schema of the spec format to specs/spec.schema.json."""
    workspace = _workspace()
    typer.echo(f"wrote {workspace.relative(_ensure_schema(workspace))}")


@app.command()
def init(
    directory: Annotated[Path, typer.Argument(help="Where to create the workspace")] = Path("."),
) -> None:
    """Create a workspace (a uv workspace with a `tool.generate` table) for generating services."""
    from generator.init import InitError, create_workspace

    try:
        created = create_workspace(directory, ws.template_root())
    except InitError as error:
        fail(str(error))
    typer.echo(f"Workspace created at {created}")


Names = Annotated[list[str] | None, typer.Argument(help="Project names (spec names)")]
Every = Annotated[bool, typer.Option("--all", help="Every project of the workspace")]
AllowDirty = Annotated[
    bool, typer.Option("--allow-dirty", help="Merge into uncommitted changes too")
]


def _projects(names: list[str] | None, every: bool) -> tuple[ws.Workspace, list[Project]]:
    workspace = _workspace()
    try:
        return workspace, find_projects(workspace, names or [], every)
    except ProjectError as error:
        fail(str(error))


def _current_spec(workspace: ws.Workspace, project: Project) -> str:
    """The project's spec as it is in the workspace now (its text); one error line when it
    is not there or not valid."""
    from generator import regenerate as rg

    try:
        return rg.read_spec(workspace, project)
    except (rg.RegenerateError, SpecError) as error:
        fail(str(error))


def _regenerate(
    names: list[str] | None,
    every: bool,
    allow_dirty: bool,
    *,
    from_spec: bool,
    allow_breaking: bool = False,
) -> None:
    from generator import regenerate as rg

    workspace = _workspace()
    default_root = ws.template_root()
    if not from_spec and _upgrade_runtime(workspace, default_root) and not names and not every:
        return  # `generate update` alone: the runtime only
    workspace, projects = _projects(names, every)
    # Every project is checked before any is written: a refusal leaves them all as they were.
    planned = []
    for project in projects:
        root = project.template_root(default_root)
        where = workspace.relative(project.directory)
        spec_text = (
            _current_spec(workspace, project) if from_spec else rg.recorded_spec(workspace, project)
        )
        if from_spec:
            _refuse_breaking_changes(workspace, project, spec_text, refuse=not allow_breaking)
        current = rg.is_current(project, spec_text, root)
        dirty = [] if allow_dirty or current else rg.dirty_files(project.directory)
        if dirty:
            fail(
                f"{where} has uncommitted changes ({', '.join(dirty[:5])}"
                f"{', ...' if len(dirty) > 5 else ''}); commit or stash them first "
                "(or pass --allow-dirty); no project was written"
            )
        planned.append((project, root, where, spec_text, current))
    conflicted: list[str] = []
    for project, root, where, spec_text, current in planned:
        if current:
            typer.echo(f"{where}: up to date")
            _report_own_code(load_spec_text(spec_text, project.name), project.directory)
            continue
        merge = rg.plan(project, rg.Source(spec_text, root))
        rg.apply(project, merge)
        typer.echo(f"{where}: {len(merge.changed)} file(s) changed")
        for relative in merge.kept_deleted:
            typer.echo(f"  kept deleted: {relative}")
        for relative in merge.kept_edited:
            typer.echo(f"  no longer generated, kept because edited: {relative}")
        for relative, (rendered_before, rendered_now) in merge.yours_changed.items():
            # shown now: once written, the render holds the new version, and `diff` no
            # longer sees the change
            typer.echo(
                f"  yours, not re-rendered: {relative} (the blueprint now renders it "
                "differently; bring in what you want of it):"
            )
            changed = difflib.unified_diff(
                rendered_before.splitlines(),
                rendered_now.splitlines(),
                "as generated before",
                "as the blueprint renders it now",
                lineterm="",
            )
            for line in changed:
                typer.echo(f"    {line}")
        _report_own_code(load_spec_text(spec_text, project.name), project.directory)
        conflicted += [f"{where}/{relative}" for relative in merge.conflicts]
    if conflicted:
        typer.echo("conflicts (resolve the inline markers, then commit):", err=True)
        for path in conflicted:
            typer.echo(f"  {path}", err=True)
        raise typer.Exit(EXIT_CONFLICTS)


def _upgrade_runtime(workspace: ws.Workspace, template_root: Path) -> bool:
    """Bring the workspace's runtime libraries to the template's versions (a workspace made
    by `generate init`; False in the template's own, whose libraries are its members)."""
    from generator import runtime

    if runtime.is_template(workspace, template_root):
        return False
    try:
        done = runtime.install(workspace, template_root)
    except runtime.RuntimeUpgradeError as error:
        fail(str(error))
    for line in done:
        typer.echo(line)
    typer.echo(
        "run `uv sync --all-packages` to install the new runtime" if done else "runtime up to date"
    )
    return True


def _refuse_breaking_changes(
    workspace: ws.Workspace,
    project: Project,
    spec_text: str,
    outcome: str = "nothing was written",
    *,
    refuse: bool = True,
) -> None:
    """Fail when the edited spec cannot read the events the project may have stored (unless
    not ``refuse``); warn of rules narrowed over what is stored."""
    from generator.evolution import Breaking, likely_renames, narrowed_rules, stored_data_breaks
    from generator.resolve import resolve

    try:
        before = resolve(load_spec_text(project.spec_text, project.name))
        after = resolve(load_spec_text(spec_text, project.name))
    except SpecError:
        return  # the spec's own problems are reported by the render itself
    renames = likely_renames(before, after)
    # a render refuses a likely rename (its stored values would be dropped); diff says it
    warnings = narrowed_rules(before, after) + ([] if refuse else renames)
    problems = stored_data_breaks(before, after) if refuse else []
    problems += [Breaking(loc, message) for loc, message in renames] if refuse else []
    if warnings or problems:
        from generator.loading import parse_yaml
        from generator.problems import Problem

        where = f"{workspace.specs.name}/{project.name}.yaml"
        _, marks = parse_yaml(spec_text, where)
        for loc, message in warnings:
            typer.echo(str(Problem(where, *marks.find(loc), loc, f"warning: {message}")), err=True)
        for loc, message, _ in problems:
            typer.echo(str(Problem(where, *marks.find(loc), loc, message)), err=True)
    if problems:
        dropped = " or whose old field's values are to be dropped" if renames else ""
        fail(
            f"{project.name}: the spec cannot read (or keep its rules over) the data stored"
            f" before; {outcome} (--allow-breaking renders anyway, for a service without"
            f" data{dropped})"
        )


AllowBreaking = Annotated[
    bool,
    typer.Option("--allow-breaking", help="Render even if stored events could no longer be read"),
]


@app.command()
def render(
    names: Names = None,
    every: Every = False,
    allow_dirty: AllowDirty = False,
    allow_breaking: AllowBreaking = False,
) -> None:
    """Re-render projects from their edited specs; user edits are kept (3-way merge)."""
    _regenerate(names, every, allow_dirty, from_spec=True, allow_breaking=allow_breaking)


@app.command()
def update(names: Names = None, every: Every = False, allow_dirty: AllowDirty = False) -> None:
    """Upgrade the workspace's runtime libraries and the projects named (or --all) to the
    current blueprints (same spec); user edits are kept."""
    _regenerate(names, every, allow_dirty, from_spec=False)


@app.command()
def diff(name: Annotated[str, typer.Argument(help="Project name")]) -> None:
    """Print the unified diff `generate render NAME` would apply; write nothing."""

    from generator import regenerate as rg

    workspace, (project,) = _projects([name], False)
    spec_text = _current_spec(workspace, project)
    merge = rg.plan(project, rg.Source(spec_text, project.template_root(ws.template_root())))
    where = workspace.relative(project.directory)

    def show(before: str, after: str, old: str, new: str) -> None:
        lines = difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), old, new
        )
        typer.echo("".join(lines), nl=False)

    for relative in merge.changed:
        path = project.directory / relative
        before = path.read_text(encoding="utf-8") if path.is_file() else ""
        show(
            before, merge.writes.get(relative, ""), f"a/{where}/{relative}", f"b/{where}/{relative}"
        )
    for relative, (rendered_before, rendered_now) in merge.yours_changed.items():
        typer.echo(f"# {where}/{relative} is yours: not changed; the blueprint's version changed:")
        show(
            rendered_before,
            rendered_now,
            f"a/{where}/{relative} (as generated before)",
            f"b/{where}/{relative} (as the blueprint renders it now)",
        )
    _refuse_breaking_changes(
        workspace, project, spec_text, "`generate render` would refuse this change"
    )


@app.command()
def check(names: Names = None, every: Every = False) -> None:
    """Exit 1 listing every project that is not what its spec and the blueprints render."""
    from generator import regenerate as rg
    from generator import runtime

    workspace, projects = _projects(names, every or not names)
    default_root = ws.template_root()
    stale = 0
    try:
        behind = runtime.status(workspace, default_root)
    except runtime.RuntimeUpgradeError as error:
        fail(str(error))
    for line in behind:
        typer.echo(line)
    if behind:
        projects = [p for p in projects if not _is_runtime_copy(workspace, p)]
    for project in projects:
        root = project.template_root(default_root)
        where = workspace.relative(project.directory)
        spec_text = _current_spec(workspace, project)
        if rg.is_current(project, spec_text, root):
            continue
        stale += 1
        base = rg.last_render(project, root)
        new = rg.render_tree(project, rg.Source(spec_text, root), None)
        files = sorted(
            relative
            for relative in set(base) | set(new)
            if relative != ".copier-answers.yml" and base.get(relative) != new.get(relative)
        )
        typer.echo(f"{where}: out of date ({', '.join(files) or 'answers only'})")
    broken = _contract_problems(workspace, projects)
    if broken:
        typer.echo(f"{broken} contract problem(s) between services", err=True)
        raise typer.Exit(EXIT_ERROR)
    if behind:
        typer.echo("the runtime is behind the blueprint: run `generate update`", err=True)
    compose_stale = _compose_stale(workspace)
    if compose_stale:
        typer.echo(
            f"{workspace.relative(workspace.root / 'compose.yaml')}: out of date "
            "(not what `generate compose` writes now): run `generate compose`",
            err=True,
        )
    if stale:
        typer.echo(
            f"{stale} project(s) out of date: "
            "run `generate render --all` or `generate update --all`",
            err=True,
        )
        raise typer.Exit(EXIT_ERROR)
    if behind or compose_stale:
        raise typer.Exit(EXIT_ERROR)
    typer.echo(f"{len(projects)} project(s) up to date")


@app.command()
def stats(
    names: Names = None,
    every: Every = False,
    files: Annotated[
        bool, typer.Option("--files", help="Also list each file with hand-written lines")
    ] = False,
) -> None:
    """Print per project the lines rendered from its spec and the blueprints, the lines
    written by hand, and the rendered share (blank lines not counted)."""
    from generator import regenerate as rg
    from generator.stats import compare

    workspace, projects = _projects(names, every or not names)
    default_root = ws.template_root()
    measured = []
    for project in projects:
        spec_text = _current_spec(workspace, project)
        source = rg.Source(spec_text, project.template_root(default_root))
        measured.append(compare(project, rg.render_tree(project, source, None)))
    width = max((len(item.name) for item in measured), default=0)
    for item in measured:
        typer.echo(item.line(width))
        if files:
            for file in sorted(item.files, key=lambda entry: entry.path):
                if file.hand_written:
                    typer.echo(f"  {file.hand_written:>6,}  {file.path}")
    if len(measured) > 1:
        rendered = sum(item.rendered for item in measured)
        hand = sum(item.hand_written for item in measured)
        share = rendered * 100 // max(rendered + hand, 1)
        typer.echo(
            f"{'total':<{width}}  rendered {rendered:>6,}  hand-written {hand:>6,}  {share:>3}%"
        )


def _compose_stale(workspace: ws.Workspace) -> bool:
    from generator import compose as cp

    try:
        return cp.stale(workspace, all_projects(workspace))
    except (ProjectError, SpecError):
        return False  # the projects' own problems are reported by the check itself


def _is_runtime_copy(workspace: ws.Workspace, project: Project) -> bool:
    from generator import runtime

    return any(
        project.directory.resolve() == (workspace.root / where).resolve()
        for where in runtime.COPIED.values()
    )


def _workspace_specs(workspace: ws.Workspace, invalid: list[Path] | None = None) -> dict[str, Spec]:
    """The valid specs of the workspace's specs directory, by service name; the files that
    are not valid go to ``invalid`` (`generate validate` says why)."""
    specs: dict[str, Spec] = {}
    for file in sorted(workspace.specs.glob("*.yaml")):
        try:
            spec = load_spec(file)
        except SpecError:
            if invalid is not None:
                invalid.append(file)
            continue
        specs.setdefault(spec.name, spec)
    return specs


@app.command()
def catalog(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write the site (default: build/catalog)"),
    ] = None,
) -> None:
    """Write the service and event catalog of the workspace's specs as a static site: a
    page per service and per event, the flows between services, search, findings, and
    each service's AsyncAPI and OpenAPI documents."""
    from generator.catalog import build_catalog
    from generator.catalog_site import CatalogError, write_site

    workspace = _workspace()
    invalid: list[Path] = []
    specs = _workspace_specs(workspace, invalid)
    for file in invalid:
        typer.echo(
            f"{workspace.relative(file)}: not valid, left out (see `generate validate`)", err=True
        )
    if not specs:
        fail(f"no valid spec in {workspace.relative(workspace.specs)}")
    try:
        projects = all_projects(workspace)
    except ProjectError as error:
        fail(str(error))
    recorded: dict[str, Spec] = {}
    for project in projects:
        try:
            recorded[project.name] = load_spec_text(project.spec_text, project.name)
        except SpecError:
            continue
    built = build_catalog(specs, recorded)
    target = (out or workspace.root / "build" / "catalog").resolve()
    venv_python = workspace.root / ".venv" / "bin" / "python"
    try:
        written = write_site(
            built,
            target,
            projects={p.name: p.directory for p in projects},
            python=str(venv_python) if venv_python.is_file() else sys.executable,
        )
    except (CatalogError, OSError) as error:
        fail(str(error))
    for name, reason in sorted(written.skipped.items()):
        typer.echo(f"{name}: no OpenAPI document ({reason})", err=True)
    for finding in built.findings:
        typer.echo(
            f"warning: {workspace.specs.name}/{finding.service}.yaml: {finding.where}: "
            f"{finding.message}",
            err=True,
        )
    typer.echo(
        f"{workspace.relative(target)}: {written.pages} pages, {len(built.services)} "
        f"service(s), {len(built.events)} event type(s); AsyncAPI for "
        f"{', '.join(written.asyncapi) or 'none'}, OpenAPI for "
        f"{', '.join(written.openapi) or 'none'}; open "
        f"{workspace.relative(target / 'index.html')}"
    )


@app.command()
def compose(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write the compose file (default: compose.yaml)"),
    ] = None,
) -> None:
    """Write a Docker Compose file for development: every app of the workspace built from
    its Dockerfile, one PostgreSQL with a database per app, a three-node NATS JetStream
    cluster."""
    from generator import compose as cp

    workspace = _workspace()
    try:
        projects = all_projects(workspace)
    except ProjectError as error:
        fail(str(error))
    target = (out or cp.default_path(workspace)).resolve()
    try:
        built = cp.compose_file(workspace, projects, target)
    except SpecError as error:
        fail(str(error))
    if not built.services:
        fail(f"no app in {workspace.relative(workspace.apps)}; nothing was written")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(cp.render(built), encoding="utf-8")
    typer.echo(
        f"wrote {workspace.relative(target)}: {', '.join(s.name for s in built.services)}, "
        f"postgres, {', '.join(built.nats_nodes)}"
    )


def _contract_problems(workspace: ws.Workspace, projects: list[Project]) -> int:
    """Print each consumed field its producer no longer publishes as read, and each change
    to a published event that stored events or consumers could not take (naming the
    consumers); return how many."""
    from generator.consumers import consumers_of, contract_problems
    from generator.evolution import breaking_changes

    specs = _workspace_specs(workspace)
    count = 0
    for problem in contract_problems(specs):
        where = f"{workspace.specs.name}/{problem.consumer}.yaml"
        typer.echo(f"{where}: {'.'.join(map(str, problem.loc))}: {problem.message}", err=True)
        count += 1
    for project in projects:
        current = specs.get(project.name)
        if current is None:
            continue
        try:
            recorded = load_spec_text(project.spec_text, project.name)
        except SpecError:
            continue
        readers = consumers_of(specs, project.name)
        for loc, message, events in breaking_changes(recorded, current):
            consumed = [event for event in events if event in readers]
            if not consumed:
                continue  # `render` refuses it for the stored events; no consumer to name
            where = f"{workspace.specs.name}/{project.name}.yaml"
            broken = sorted({reader for event in consumed for reader in readers[event]})
            typer.echo(
                f"{where}: {'.'.join(map(str, loc))}: {message}; it would break "
                f"{', '.join(broken)}, which consume "
                f"{', '.join(f'{project.name}.{event}' for event in consumed)}",
                err=True,
            )
            count += 1
    return count


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        typer.echo("interrupted; nothing was written", err=True)
        sys.exit(130)
    except Exception as error:
        if os.environ.get("GENERATE_DEBUG"):
            raise
        typer.echo(
            f"error: unexpected {type(error).__name__}: {error} "
            "(set GENERATE_DEBUG=1 for the traceback)",
            err=True,
        )
        sys.exit(EXIT_ERROR)


def _workspace_project_name(workspace: ws.Workspace) -> str | None:
    """The name of the workspace root's own project (``[project].name``), if it has one."""
    import tomllib

    try:
        data = tomllib.loads((workspace.root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    name = data.get("project", {}).get("name")
    return name.lower().replace("_", "-") if isinstance(name, str) else None
