"""`generate stats`: how much of a project its spec and the blueprints render.

A project's files are compared line by line with what its current spec renders now
(formatted as `generate render` would write it). A line of the project that the fresh render
also holds, in the same order, counts as rendered; every other line (a file the blueprint
does not render, a user-owned module, an edit) counts as written by hand. Blank lines and the
answers file are not counted.
"""

from __future__ import annotations

import difflib
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from generator.projects import Project
from generator.render import ANSWERS_FILE

_SKIPPED_DIRECTORIES = frozenset(
    {
        ".git",
        ".venv",
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".import_linter_cache",
        "node_modules",
        "data",
        "dist",
        "build",
    }
)
_SKIPPED_SUFFIXES = frozenset({".db", ".pyc", ".sqlite", ".sqlite3", ".whl", ".gz", ".lock"})


@dataclass(frozen=True)
class FileStats:
    """One file: its counted lines and how many of them the render holds."""

    path: str
    lines: int
    rendered: int

    @property
    def hand_written(self) -> int:
        return self.lines - self.rendered


@dataclass(frozen=True)
class ProjectStats:
    """A project's lines, rendered and by hand, with a per-file breakdown."""

    name: str
    files: list[FileStats] = field(default_factory=list)

    @property
    def rendered(self) -> int:
        return sum(item.rendered for item in self.files)

    @property
    def hand_written(self) -> int:
        return sum(item.hand_written for item in self.files)

    def share(self) -> int:
        """The rendered share of all counted lines, as a whole percentage (rounded down)."""
        total = self.rendered + self.hand_written
        return 0 if total == 0 else self.rendered * 100 // total

    def line(self, width: int) -> str:
        return (
            f"{self.name:<{width}}  rendered {self.rendered:>6,}  "
            f"hand-written {self.hand_written:>6,}  {self.share():>3}%"
        )


def _counted(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def _tracked(directory: Path) -> list[str] | None:
    """The files git tracks or would track under ``directory`` (None outside a repository)."""
    found = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "."],
        cwd=directory,
        capture_output=True,
        check=False,
    )
    if found.returncode != 0:
        return None
    names = [name for name in found.stdout.decode("utf-8", "replace").split("\0") if name]
    return [name for name in names if (directory / name).is_file()]


def _walked(directory: Path) -> list[str]:
    files = []
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory)
        if path.is_file() and not _SKIPPED_DIRECTORIES.intersection(relative.parts[:-1]):
            files.append(relative.as_posix())
    return files


def project_files(directory: Path) -> list[str]:
    """The project's own text files, relative to it (caches, databases and the answers file
    aside)."""
    names = _tracked(directory)
    if names is None:
        names = _walked(directory)
    return sorted(
        name
        for name in names
        if name != ANSWERS_FILE
        and Path(name).suffix not in _SKIPPED_SUFFIXES
        and not _SKIPPED_DIRECTORIES.intersection(Path(name).parts[:-1])
    )


def _read_text(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def compare(project: Project, rendered: dict[str, str]) -> ProjectStats:
    """The project's files measured against ``rendered`` (relative path to text)."""
    files = []
    for relative in project_files(project.directory):
        text = _read_text(project.directory / relative)
        if text is None:
            continue
        lines = _counted(text)
        if not lines:
            continue
        fresh = rendered.get(relative)
        matched = 0
        if fresh is not None:
            matcher = difflib.SequenceMatcher(None, lines, _counted(fresh), autojunk=False)
            matched = sum(block.size for block in matcher.get_matching_blocks())
        files.append(FileStats(relative, len(lines), matched))
    return ProjectStats(project.name, files)
