"""Three-way merge of a project tree: what was last rendered (base), what renders now
(new) and what is on disk (the user's). User edits survive; overlapping edits get
copier-style inline conflict markers; files the user deleted stay deleted."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

LABELS = ("before updating", "last update", "after updating")


@dataclass
class MergePlan:
    """The files a merge writes and deletes, and what it could not merge cleanly."""

    writes: dict[str, str] = field(default_factory=dict)
    deletes: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    kept_deleted: list[str] = field(default_factory=list)
    kept_edited: list[str] = field(default_factory=list)
    # Created-once files (the user's) that the blueprints would now render differently:
    # relative path -> (as rendered before, as rendered now). Never written.
    yours_changed: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def changed(self) -> list[str]:
        return sorted([*self.writes, *self.deletes])


def merge_text(ours: str, base: str, theirs: str) -> tuple[str, bool]:
    """Merge ``base -> theirs`` into ``ours`` with git's merge-file; True when conflicted."""
    if ours == base:
        return theirs, False
    if theirs == base or ours == theirs:
        return ours, False
    with tempfile.TemporaryDirectory() as directory:
        paths = []
        for label, text in zip(("ours", "base", "theirs"), (ours, base, theirs), strict=True):
            path = Path(directory) / label
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        result = subprocess.run(
            ["git", "merge-file", "-p", *(f"-L{label}" for label in LABELS), *paths],
            capture_output=True,
            text=True,
            check=False,
        )
    if result.returncode < 0 or result.returncode > 127:
        raise RuntimeError(f"git merge-file failed: {result.stderr.strip()}")
    return result.stdout, result.returncode > 0


def plan_merge(
    base: dict[str, str], new: dict[str, str], project: Path, skip_if_exists: set[str]
) -> MergePlan:
    """What applying ``base -> new`` to the files under ``project`` takes."""
    plan = MergePlan()
    for relative in sorted(set(base) | set(new)):
        path = project / relative
        ours = path.read_text(encoding="utf-8") if path.is_file() else None
        old, fresh = base.get(relative), new.get(relative)
        if ours is not None and any(fnmatch(relative, pattern) for pattern in skip_if_exists):
            if fresh is not None and fresh != (old if old is not None else ours):
                plan.yours_changed[relative] = (old if old is not None else "", fresh)
            continue
        if fresh is None:
            if ours is None:
                continue
            if ours == old:
                plan.deletes.append(relative)
            else:
                plan.kept_edited.append(relative)
            continue
        if ours is None:
            if old is None:
                plan.writes[relative] = fresh
            else:
                plan.kept_deleted.append(relative)
            continue
        merged, conflicted = merge_text(ours, old if old is not None else "", fresh)
        if conflicted:
            plan.conflicts.append(relative)
        if merged != ours:
            plan.writes[relative] = merged
    return plan
