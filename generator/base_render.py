"""Render a project with the generator code of the template it runs from, in a process
of its own: the merge base of `render`/`update` is what an older generator rendered, so it
is rendered by that generator (its blueprints and its context derivation together).

Reads a JSON request on stdin, writes ``{relative path: text}`` as JSON on stdout."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path


def main() -> None:
    """Render the request on stdin with the generator found first on ``sys.path``."""
    from generator.loading import load_spec_text
    from generator.render import Blueprint, format_tree, render_files, write_tree
    from generator.yamlio import dump_yaml

    request = json.load(sys.stdin)
    # "spec_text": the spec file's text; requests for older generators carry only "spec".
    text = request.get("spec_text") or dump_yaml(request["spec"])
    spec = load_spec_text(text, request["name"])
    files = render_files(
        Blueprint(Path(request["root"]), request["blueprint"]),
        spec,
        text,
        src_path=request["src_path"],
        commit=request["commit"],
    )
    with tempfile.TemporaryDirectory() as directory:
        write_tree(files, Path(directory))
        format_tree(Path(directory), request["name"].replace("-", "_"))
        rendered = {relative: (Path(directory) / relative).read_text() for relative in files}
    json.dump(rendered, sys.stdout)


if __name__ == "__main__":
    main()
