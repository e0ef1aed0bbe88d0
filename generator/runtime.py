"""The framework's runtime libraries in a workspace made by `generate init`: wheels built
from the template's libraries, versioned by their content (``0.1.0+<hash>``), kept in the
workspace's ``vendor/`` and pinned in its pyproject (``[tool.uv.sources]`` and
``[tool.generate.runtime]``). `generate check` reports a library behind the template's,
`generate update` brings it; a workspace made when the runtime was copied in (``libs/eaf``,
``libs/iam-client``, ``contracts/``) is converted by `generate update`."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit

from generator.workspace import Workspace

VENDOR = "vendor"
LIBRARIES = {
    "eaf": "rendered/libs/eaf",
    "iam-client": "rendered/libs/iam-client",
    "layer-contracts": "contracts",
}
"""Each runtime library, by distribution name, and its source in the template root."""
COPIED = {"eaf": "libs/eaf", "iam-client": "libs/iam-client", "layer-contracts": "contracts"}
"""Where workspaces made before kept their copy of each library."""
_CACHES = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", ".venv"}
_SKIPPED = {*_CACHES, "tests"}
"""What a wheel leaves out."""


class RuntimeUpgradeError(Exception):
    """The runtime cannot be built or upgraded; nothing was changed."""


@dataclass(frozen=True)
class Library:
    """A runtime library as the template holds it now."""

    name: str
    source: Path
    version: str

    @property
    def wheel_prefix(self) -> str:
        return self.name.replace("-", "_")


def _files(source: Path, skipped: set[str] = _SKIPPED) -> list[Path]:
    return sorted(
        path
        for path in source.rglob("*")
        if path.is_file()
        and not skipped.intersection(path.relative_to(source).parts)
        and path.suffix not in (".pyc", ".db")
    )


def _base_version(source: Path) -> str:
    data = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))
    return str(data["project"]["version"])


def library(template_root: Path, name: str) -> Library:
    """``name`` as the template holds it, with the version its content gives it."""
    source = template_root / LIBRARIES[name]
    if not (source / "pyproject.toml").is_file():
        raise RuntimeUpgradeError(f"the template root lacks {source}")
    digest = hashlib.sha256()
    for path in _files(source):
        if path.relative_to(source).parts[0] not in ("src", "pyproject.toml"):
            continue
        digest.update(path.relative_to(source).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return Library(name, source, f"{_base_version(source)}+{digest.hexdigest()[:10]}")


def build_wheel(lib: Library, out: Path) -> Path:
    """Build ``lib`` as a wheel of its content version into ``out``."""
    from hatchling.builders.wheel import WheelBuilder

    with tempfile.TemporaryDirectory() as staging:
        copy = Path(staging) / lib.source.name
        shutil.copytree(lib.source, copy, ignore=shutil.ignore_patterns(*_SKIPPED, "*.pyc"))
        pyproject = copy / "pyproject.toml"
        text = pyproject.read_text(encoding="utf-8")
        base = _base_version(lib.source)
        pyproject.write_text(
            text.replace(f'version = "{base}"', f'version = "{lib.version}"', 1),
            encoding="utf-8",
        )
        built = list(WheelBuilder(str(copy)).build(directory=str(out), versions=["standard"]))
    if len(built) != 1:
        raise RuntimeUpgradeError(f"building {lib.name} gave {built}")
    return Path(built[0])


def recorded(workspace: Workspace) -> dict[str, str]:
    """The runtime versions the workspace pins (empty where it has none)."""
    data = tomllib.loads((workspace.root / "pyproject.toml").read_text(encoding="utf-8"))
    table = data.get("tool", {}).get("generate", {}).get("runtime", {})
    return {str(k): str(v) for k, v in table.items()}


def copied(workspace: Workspace) -> list[str]:
    """The runtime libraries a workspace made before keeps as copies."""
    return [name for name, where in COPIED.items() if (workspace.root / where).is_dir()]


def is_template(workspace: Workspace, template_root: Path) -> bool:
    """Whether the workspace is the template's own (whose libraries are its members)."""
    return workspace.root.resolve() == template_root.resolve()


def status(workspace: Workspace, template_root: Path) -> list[str]:
    """One line per runtime library that is behind the template's (empty when current)."""
    if is_template(workspace, template_root):
        return []
    pinned = recorded(workspace)
    if not pinned:
        return [
            f"runtime {name}: a copy in {COPIED[name]} that `generate check` cannot upgrade; "
            "`generate update` replaces it by a versioned package"
            for name in copied(workspace)
        ]
    lines = []
    for name in LIBRARIES:
        current = library(template_root, name).version
        if pinned.get(name) != current:
            lines.append(
                f"runtime {name} {pinned.get(name, '(none)')}: behind the blueprint ({current})"
            )
    return lines


def install(workspace: Workspace, template_root: Path) -> list[str]:
    """Build every runtime library the workspace lacks at the template's version into
    ``vendor/`` and pin it in the workspace's pyproject (old wheels removed); a copy kept
    by a workspace made before is replaced, unless it was edited. What it did, a line
    each."""
    libraries = [library(template_root, name) for name in LIBRARIES]
    pinned = recorded(workspace)
    todo = [lib for lib in libraries if pinned.get(lib.name) != lib.version]
    if not todo:
        return []
    copies = [] if pinned else copied(workspace)
    if copies:
        _refuse_edited_copies(workspace, template_root, copies)
    vendor = workspace.root / VENDOR
    with tempfile.TemporaryDirectory(dir=workspace.root) as staging:
        built = {lib.name: build_wheel(lib, Path(staging)) for lib in todo}
        vendor.mkdir(exist_ok=True)
        done = []
        for lib in todo:
            for old in vendor.glob(f"{lib.wheel_prefix}-*.whl"):
                old.unlink()
            target = vendor / built[lib.name].name
            shutil.move(built[lib.name], target)
            before = pinned.get(lib.name)
            done.append(
                f"runtime {lib.name}: {before} -> {lib.version}"
                if before
                else f"runtime {lib.name}: {lib.version} ({VENDOR}/{target.name})"
            )
    _pin(workspace, {lib.name: lib for lib in libraries}, copies)
    for name in copies:
        shutil.rmtree(workspace.root / COPIED[name])
        done.append(f"runtime {name}: the copy in {COPIED[name]} removed")
    return done


def _pin(workspace: Workspace, libraries: dict[str, Library], copies: list[str]) -> None:
    path = workspace.root / "pyproject.toml"
    document = tomlkit.parse(path.read_text(encoding="utf-8"))
    tool: Any = document.setdefault("tool", tomlkit.table())
    uv: Any = tool.setdefault("uv", tomlkit.table())
    if "sources" not in uv:
        uv.add("sources", tomlkit.table())
        uv["sources"].add(tomlkit.nl())
    sources: Any = uv["sources"]
    for lib in libraries.values():
        wheel = next((workspace.root / VENDOR).glob(f"{lib.wheel_prefix}-*.whl"))
        source = tomlkit.inline_table()
        source["path"] = f"{VENDOR}/{wheel.name}"
        sources[lib.name] = source
    members = uv.get("workspace", {}).get("members")
    if members is not None and "layer-contracts" in copies and "contracts" in members:
        members.remove("contracts")
    runtime = tomlkit.table()
    for lib in libraries.values():
        runtime[lib.name] = lib.version
    tool["generate"]["runtime"] = runtime
    path.write_text(tomlkit.dumps(document), encoding="utf-8")


def _refuse_edited_copies(workspace: Workspace, template_root: Path, copies: list[str]) -> None:
    """Raise unless every file of the copies is one the template's repository holds (the
    copy was made from some version of it and not edited since)."""
    files = [
        path
        for name in copies
        for path in _files(workspace.root / COPIED[name], _CACHES)
        if path.name != ".copier-answers.yml"
    ]
    unknown = _not_in_repository(template_root, files)
    if unknown:
        shown = ", ".join(workspace.relative(path) for path in unknown[:5])
        raise RuntimeUpgradeError(
            f"the runtime copies hold files the template never had ({shown}"
            f"{', ...' if len(unknown) > 5 else ''}): they were edited; nothing was changed. "
            "Move your changes out of them (or delete the copies) and run `generate update` "
            "again"
        )


def _not_in_repository(template_root: Path, files: list[Path]) -> list[Path]:
    """The files whose content is no blob of the template's git repository (all of them
    when it is not one)."""
    if not files:
        return []
    hashed = subprocess.run(
        ["git", "hash-object", "--no-filters", "--stdin-paths"],
        input="\n".join(str(path) for path in files) + "\n",
        cwd=template_root,
        capture_output=True,
        text=True,
        check=False,
    )
    if hashed.returncode != 0:
        return files
    blobs = hashed.stdout.split()
    known = subprocess.run(
        ["git", "cat-file", "--batch-check"],
        input="\n".join(blobs) + "\n",
        cwd=template_root,
        capture_output=True,
        text=True,
        check=False,
    )
    if known.returncode != 0:
        return files
    answers = known.stdout.splitlines()
    return [path for path, answer in zip(files, answers, strict=True) if answer.endswith("missing")]
