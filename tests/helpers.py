"""Helpers shared by the generator's tests."""

from __future__ import annotations

import hashlib
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GENERATE = Path(sys.executable).parent / "generate"


@dataclass(frozen=True)
class Result:
    """What a `generate` run printed and returned."""

    code: int
    out: str
    err: str


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under ``root`` with the hash of its bytes (for byte-for-byte comparisons)."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    } | {
        path.relative_to(root).as_posix() + "/": "dir"
        for path in sorted(root.rglob("*"))
        if path.is_dir()
    }


def make_workspace(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        '[tool.generate]\napps = "apps"\nlibs = "libs"\nspecs = "specs"\n', encoding="utf-8"
    )
    return root


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
