"""`copier update` answered at a keyboard (its prompts in a pseudo-terminal, each default
taken with Enter) keeps the spec as its file has it: no fields reordered, no conflicts, the
comments kept in the answers. Answers files written before (the spec as a mapping) still
update, with copier and with `generate`."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
import yaml
from helpers import GENERATE, REPO

from generator.blueprint_ext import answers_yaml
from generator.yamlio import parse_yaml

NAME = "acme-kit"
PROJECT = f"libs/{NAME}"
EVENTS = "src/acme_kit/domain/events.py"
CLOCK = "src/acme_kit/infrastructure/clock.py"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def _generate(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GENERATE_TEMPLATE": str(root)}
    return subprocess.run(
        [str(GENERATE), *args], cwd=root, capture_output=True, text=True, env=env, check=False
    )


def _commit(root: Path, message: str) -> None:
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", message)


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository that is the template and a workspace holding one library, whose
    spec has comments and fields out of alphabetical order (name before email); the user
    edited a generated file, then the blueprints changed."""
    root = tmp_path / "repo"
    for directory in ("blueprints", "generator"):  # the merge base needs both
        shutil.copytree(
            REPO / directory, root / directory, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(REPO / "copier.yml", root / "copier.yml")
    (root / "pyproject.toml").write_text(
        '[tool.generate]\napps = "apps"\nlibs = "libs"\nspecs = "specs"\n'
    )
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.email", "dev@example.org")
    _git(root, "config", "user.name", "Dev")
    _commit(root, "template")
    created = _generate(root, "service", NAME, "--path=libs")
    assert created.returncode == 0, created.stderr
    _replace(root / PROJECT / EVENTS, "    email: str\n", "    email: str  # checked upstream\n")
    _commit(root, "acme-kit, edited")
    _replace(root / "blueprints/common/clock.py.jinja", "The real time", "The wall-clock time")
    _commit(root, "blueprint change")
    return root


def _copier_update_at_a_keyboard(project: Path, transcript: Path) -> int | None:
    """Run `copier update --trust` (no --defaults), pressing Enter at each prompt; its exit
    status."""
    child = pexpect.spawn(
        str(Path(sys.executable).parent / "copier"),
        ["update", "--trust"],
        cwd=str(project),
        env={**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1", "NO_COLOR": "1"},
        encoding="utf-8",
        dimensions=(60, 200),
        timeout=120,
    )
    with transcript.open("w") as log:
        child.logfile_read = log
        for prompt in ("The blueprint that renders the project", "The project's spec"):
            child.expect_exact(prompt)
            child.send("\r")
        child.expect(pexpect.EOF)
        child.close()
    status: int | None = child.exitstatus
    return status


def _changed(repo: Path) -> list[str]:
    return sorted(_git(repo, "status", "--porcelain").splitlines())


UPDATED = [f" M {PROJECT}/.copier-answers.yml", f" M {PROJECT}/{CLOCK}"]


def test_interactive_copier_update_keeps_the_spec_text_and_order(
    repo: Path, tmp_path: Path
) -> None:
    spec = (repo / f"specs/{NAME}.yaml").read_text()
    events_before = (repo / PROJECT / EVENTS).read_text()
    transcript = tmp_path / "transcript.txt"

    status = _copier_update_at_a_keyboard(repo / PROJECT, transcript)

    shown = ANSI.sub("", transcript.read_text())
    assert status == 0, shown[-2000:]
    assert f"# The spec of {NAME}." in shown  # the prompt offered the spec with its comments
    assert _changed(repo) == UPDATED
    assert "The wall-clock time" in (repo / PROJECT / CLOCK).read_text()
    assert (repo / PROJECT / EVENTS).read_text() == events_before  # field order and edit kept
    answers = yaml.safe_load((repo / PROJECT / ".copier-answers.yml").read_text())
    assert answers["spec"] == spec
    check = _generate(repo, "check")
    assert check.returncode == 0, check.stdout + check.stderr


def _as_written_before(repo: Path) -> dict[str, object]:
    """Rewrite the project's answers as generators before the spec text wrote them (the
    spec as a mapping); returns that mapping."""
    path = repo / PROJECT / ".copier-answers.yml"
    answers = yaml.safe_load(path.read_text())
    data, _ = parse_yaml(answers["spec"], "spec")
    answers["spec"] = data
    answers["_spec_hash"] = hashlib.sha256(
        json.dumps(data, separators=(",", ":")).encode()
    ).hexdigest()[:16]
    header = "# Changes here will be overwritten by Copier; NEVER EDIT MANUALLY\n"
    path.write_text(header + yaml.safe_dump(answers, indent=4, sort_keys=False))
    _commit(repo, "answers as written before")
    assert isinstance(data, dict)
    return data


def test_answers_written_before_still_update_with_copier(repo: Path) -> None:
    spec = _as_written_before(repo)
    events_before = (repo / PROJECT / EVENTS).read_text()
    copier = Path(sys.executable).parent / "copier"
    updated = subprocess.run(
        [str(copier), "update", "--trust", "--defaults", "--quiet"],
        cwd=repo / PROJECT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert updated.returncode == 0, updated.stderr
    assert _changed(repo) == UPDATED
    assert (repo / PROJECT / EVENTS).read_text() == events_before
    text = yaml.safe_load((repo / PROJECT / ".copier-answers.yml").read_text())["spec"]
    assert json.dumps(parse_yaml(text, "spec")[0]) == json.dumps(spec)  # now text, same order
    _commit(repo, "updated")
    assert _generate(repo, "render", NAME).returncode == 0
    assert _generate(repo, "check").returncode == 0


def test_answers_written_before_still_update_and_check_with_generate(repo: Path) -> None:
    _as_written_before(repo)
    events_before = (repo / PROJECT / EVENTS).read_text()
    stale = _generate(repo, "check")
    assert stale.returncode == 1
    assert f"{PROJECT}: out of date (src/acme_kit/infrastructure/clock.py)" in stale.stdout
    updated = _generate(repo, "update", NAME)
    assert updated.returncode == 0, updated.stderr
    assert _changed(repo) == UPDATED
    assert (repo / PROJECT / EVENTS).read_text() == events_before
    answers = yaml.safe_load((repo / PROJECT / ".copier-answers.yml").read_text())
    assert answers["spec"] == (repo / f"specs/{NAME}.yaml").read_text()  # the file's, comments too
    assert _generate(repo, "check").returncode == 0


@pytest.mark.parametrize(
    "text",
    [
        "name: a  # note\nkind: lib\n",
        "name: a",
        "name: a\n\n\n",
        "\n  # indented first line\nname: a\n",
        "name: a   \nkind: lib\n",  # trailing spaces: written quoted, still exact
        "name: a\r\nkind: lib\r\n",
        'name: é ✓\ndescription: "tab\there"\n',
    ],
)
def test_the_answers_file_gives_the_spec_text_back_exactly(text: str) -> None:
    written = answers_yaml({"_commit": "abc", "blueprint": "library", "spec": text})
    assert yaml.safe_load(written) == {"_commit": "abc", "blueprint": "library", "spec": text}
