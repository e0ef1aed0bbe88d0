"""`generate service`: names, targets, dry runs, and bad input that changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import REPO, Generate, tree_digest


@pytest.mark.parametrize("name", ["Bad", "1abc", "a", "a-", "a_b", "ab!", "ab c"])
def test_a_bad_name_prints_the_rule_and_writes_nothing(
    name: str, workspace: Path, generate: Generate
) -> None:
    before = tree_digest(workspace)
    result = generate("service", name, cwd=workspace)
    assert result.code == 2
    assert "^[a-z][a-z0-9-]*[a-z0-9]$" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert "Traceback" not in result.err
    assert tree_digest(workspace) == before


@pytest.mark.parametrize(
    ("path", "message"),
    [("lib", "unknown --path 'lib'"), ("", "--path is empty"), ("pyproject.toml", "is a file")],
)
def test_an_unknown_path_form_is_refused(
    path: str, message: str, workspace: Path, generate: Generate
) -> None:
    before = tree_digest(workspace)
    result = generate("service", "acme-orders", f"--path={path}", cwd=workspace)
    assert result.code == 2
    assert message in result.err
    assert tree_digest(workspace) == before


@pytest.mark.parametrize("form", [["--path=libs"], ["--path", "libs"]])
def test_both_option_forms_target_the_libs_dir(
    form: list[str], workspace: Path, generate: Generate
) -> None:
    result = generate("service", "acme-kit", *form, cwd=workspace)
    assert result.code == 0, result.err
    assert result.out.strip() == "Service acme-kit generated at libs/acme-kit"
    assert (workspace / "libs/acme-kit/src/acme_kit/domain/model.py").is_file()
    assert not (workspace / "libs/acme-kit/src/acme_kit/main.py").exists()


def test_a_directory_path_is_a_target(workspace: Path, generate: Generate) -> None:
    result = generate("service", "acme-orders", "--path=./services", cwd=workspace)
    assert result.code == 0, result.err
    assert (workspace / "services/acme-orders/src/acme_orders/main.py").is_file()


def test_an_existing_target_is_refused_and_left_alone(workspace: Path, generate: Generate) -> None:
    target = workspace / "apps/acme-orders"
    target.mkdir(parents=True)
    (target / "mine.txt").write_text("hand-written\n")
    before = tree_digest(workspace)
    result = generate("service", "acme-orders", cwd=workspace)
    assert result.code == 1
    assert "apps/acme-orders already exists; nothing was written" in result.err
    assert "re-render" in result.err
    assert tree_digest(workspace) == before


def test_the_starter_spec_is_the_sample_named_after_the_service(
    workspace: Path, generate: Generate
) -> None:
    result = generate("service", "acme-orders", cwd=workspace)
    assert result.code == 0, result.err
    assert result.out.strip() == "Service acme-orders generated at apps/acme-orders"
    spec = yaml.safe_load((workspace / "specs/acme-orders.yaml").read_text())
    assert spec["version"] == 2
    assert list(spec["aggregates"]) == ["SampleAcmeOrders"]
    assert {e["path"] for e in spec["endpoints"]} == {
        "/api/v1/acme-orders",
        "/api/v1/acme-orders/{id}",
    }
    # Secure by default: every endpoint needs a permission from an IAM bearer token.
    assert {(e["method"], e["permission"]) for e in spec["endpoints"]} == {
        ("POST", "acme-orders:write"),
        ("PUT", "acme-orders:write"),
        ("GET", "acme-orders:read"),
    }
    schema_ref = (workspace / "specs/acme-orders.yaml").read_text().splitlines()[0]
    assert schema_ref == "# yaml-language-server: $schema=spec.schema.json"
    assert (workspace / "specs/spec.schema.json").is_file()


def test_user_profile_gives_the_reference_sample(workspace: Path, generate: Generate) -> None:
    assert generate("service", "user-profile", cwd=workspace).code == 0
    spec = yaml.safe_load((workspace / "specs/user-profile.yaml").read_text())
    assert list(spec["aggregates"]) == ["SampleUserProfile"]
    assert spec["aggregates"]["SampleUserProfile"]["fields"]["name"]["not_blank"] is True
    assert spec["endpoints"][0]["path"] == "/api/v1/user-profiles"
    web = (workspace / "apps/user-profile/src/user_profile/infrastructure/web.py").read_text()
    assert '"/api/v1/user-profiles/{id}"' in web


def test_dry_run_lists_the_files_and_writes_nothing(workspace: Path, generate: Generate) -> None:
    before = tree_digest(workspace)
    result = generate("service", "acme-orders", "--dry-run", cwd=workspace)
    assert result.code == 0, result.err
    listed = result.out.split()
    assert "apps/acme-orders/src/acme_orders/domain/model.py" in listed
    assert "apps/acme-orders/.copier-answers.yml" in listed
    assert "specs/acme-orders.yaml" in listed
    assert tree_digest(workspace) == before


MALFORMED = {
    "yaml-syntax": (
        "name: acme-orders\naggregates: {Order: [\n",
        "specs/acme-orders.yaml:3:1: <spec>: YAML syntax error",
    ),
    "unknown-key": (
        "name: acme-orders\ncolour: blue\n",
        "specs/acme-orders.yaml:2:1: colour: unknown key 'colour' (expected one of: version, name,",
    ),
    "wrong-type": (
        "name: acme-orders\nport: eighty\n",
        "specs/acme-orders.yaml:2:7: port: Input should be a valid integer",
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_spec_names_file_line_and_key(
    case: str, workspace: Path, generate: Generate
) -> None:
    text, expected = MALFORMED[case]
    spec = workspace / "specs/acme-orders.yaml"
    spec.parent.mkdir()
    spec.write_text(text)
    before = tree_digest(workspace)
    result = generate("service", "acme-orders", cwd=workspace)
    assert result.code == 1
    assert result.err.startswith(f"error: {expected}"), result.err
    assert "Traceback" not in result.err
    assert tree_digest(workspace) == before


def test_a_spec_option_must_name_the_same_service(workspace: Path, generate: Generate) -> None:
    other = workspace / "other.yaml"
    other.write_text(
        "name: acme-billing\naggregates:\n  Invoice:\n    fields: {total: {type: int}}\n"
        "    commands: {open: {creates: true, params: [total], emits: InvoiceOpened}}\n"
    )
    before = tree_digest(workspace)
    result = generate("service", "acme-orders", "--spec", str(other), cwd=workspace)
    assert result.code == 1
    assert "the spec names 'acme-billing', not 'acme-orders'" in result.err
    assert tree_digest(workspace) == before


def test_outside_a_workspace_the_error_says_how_to_make_one(
    tmp_path: Path, generate: Generate
) -> None:
    result = generate("service", "acme-orders", cwd=tmp_path)
    assert result.code == 1
    assert "generate init" in result.err
    assert list(tmp_path.iterdir()) == []


def test_stats_counts_rendered_and_hand_written_lines(workspace: Path, generate: Generate) -> None:
    assert generate("service", "acme-orders", cwd=workspace).code == 0
    fresh = generate("stats", "acme-orders", cwd=workspace)
    assert fresh.code == 0, fresh.err
    name, _, rendered, _, hand, share = fresh.out.split()
    assert (name, hand, share) == ("acme-orders", "0", "100%")
    assert int(rendered.replace(",", "")) > 500
    project = workspace / "apps/acme-orders"
    extra = project / "src/acme_orders/infrastructure/reports.py"
    extra.write_text("def report() -> str:\n\n    return 'weekly'\n")
    web = project / "src/acme_orders/infrastructure/web.py"
    web.write_text(web.read_text() + "\n# tuned by hand\nTUNED = True\n")
    # what the project's checks leave behind is no one's code (lint-imports' cache)
    cache = project / ".import_linter_cache/cache.json"
    cache.parent.mkdir()
    cache.write_text('{\n"a": 1\n}\n')
    edited = generate("stats", "--all", "--files", cwd=workspace)
    assert edited.code == 0, edited.err
    lines = edited.out.splitlines()
    assert lines[0].split()[4] == "4"  # two lines of reports.py, two added to web.py
    assert "       2  src/acme_orders/infrastructure/reports.py" in lines
    assert "       2  src/acme_orders/infrastructure/web.py" in lines
    unknown = generate("stats", "nobody", cwd=workspace)
    assert unknown.code == 1
    assert "no generated project named nobody" in unknown.err


def test_a_service_named_like_the_workspace_project_is_refused(
    workspace: Path, generate: Generate
) -> None:
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text('[project]\nname = "shop"\n\n' + pyproject.read_text())
    result = generate("service", "shop", cwd=workspace)
    assert result.code != 0
    assert "the workspace's own project is named 'shop'" in result.err
    assert not (workspace / "apps/shop").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("eaf", "'eaf' is the runtime library eaf"),
        ("iam-client", "'iam-client' is the runtime library iam-client"),
        ("config-client", "'config-client' is the runtime library config-client"),
        ("license-verifier", "'license-verifier' is the runtime library license-verifier"),
        ("structlog", "'structlog' is a distribution every project of the workspace installs"),
        ("argon2-cffi", "(a dependency of eaf)"),
        ("pydantic-settings", "(a dependency of config-client)"),
        ("mmh3", "(a dependency of flag-engine)"),
        ("click", "'click' is a distribution every project of the workspace installs"),
        ("mypy", "'mypy' is a distribution every project of the workspace installs"),
        ("nats", "the package 'nats' would shadow the module of that name, installed by nats-py"),
        ("re2", "installed by google-re2"),
    ],
)
def test_a_service_named_like_what_every_project_installs_is_refused(
    name: str, message: str, workspace: Path, generate: Generate
) -> None:
    """A member named like the runtime or one of its dependencies would replace it, and
    `uv sync --all-packages` would fail for every project of the workspace."""
    before = tree_digest(workspace)
    result = generate("service", name, cwd=workspace)
    assert result.code == 1
    assert f"specs/{name}.yaml:4:7: name: " in result.err
    assert message in result.err
    assert "choose another name" in result.err
    assert tree_digest(workspace) == before

    (workspace / "specs").mkdir(exist_ok=True)
    (workspace / "specs" / f"{name}.yaml").write_text(
        f"version: 2\nname: {name}\nkind: lib\naggregates: {{}}\n"
    )
    validated = generate("validate", cwd=workspace)
    assert validated.code == 1
    assert message in validated.err


def test_the_runtime_libraries_own_specs_stay_valid_beside_their_projects(
    generate: Generate,
) -> None:
    result = generate("validate", cwd=REPO)
    assert result.code == 0, result.err
