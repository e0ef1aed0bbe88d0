"""``configuration-keys``: the key ring of the secrets (hand-written operator tool).

``configuration-keys rotate [--file PATH]`` adds a new active key (restart the service to
seal with it); the old keys stay, so every stored secret still opens."""

from __future__ import annotations

import argparse
from pathlib import Path

from configuration.application.secrets import SecretBox
from configuration.infrastructure.config import load_settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="configuration-keys")
    parser.add_argument("command", choices=["rotate", "show"])
    parser.add_argument(
        "--file", type=Path, help="the key ring (default: the settings')"
    )
    arguments = parser.parse_args(argv)
    path = arguments.file or load_settings().path("configuration.keys_file")
    ring = SecretBox.load_or_create(path)
    if arguments.command == "rotate":
        ring.rotate()
        ring.save(path)
    print(f"active key {ring.active}; keys {', '.join(sorted(ring.keys))}")
