# Generated from spec iam by `generate`; edits are merged on re-render.

"""The operator CLI ``iam-admin``: each option's rules are checked before the database is
opened (exit 2, the spec's message naming the option); what its commands do is the
hand-written methods' own tests'."""

import io
from pathlib import Path

import pytest

from iam import cli


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The configured database: one the tests can see is never made."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    return tmp_path


def run(
    capsys: pytest.CaptureFixture[str], *arguments: str, stdin: str = ""
) -> tuple[int, str, str]:
    status = cli.main(list(arguments), stdin=io.StringIO(stdin))
    out, err = capsys.readouterr()
    return status, out, err


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert "create-platform-admin" in out


def create_platform_admin_arguments(**changes: str) -> list[str]:
    """The options of create-platform-admin that keep every rule (``changes`` by option)."""
    given = {
        "--username": "ops",
        "--email": "email@x",
        **changes,
    }
    return [
        "create-platform-admin",
        *(part for option, value in given.items() for part in (option, value)),
    ]


def test_create_platform_admin_refuses_email_breaking_contains(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = create_platform_admin_arguments(**{"--email": "xxxxxxx"})
    status, out, err = run(
        capsys,
        *arguments,
        stdin="\n".join(
            [
                "ops-password-1",
            ]
        )
        + "\n",
    )
    assert (status, out) == (2, ""), err
    assert "error: Email must be valid" in err
    assert "--email" in err
    assert not (database / "cli.db").exists()


def test_create_platform_admin_refuses_password_breaking_min_length(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        "ops-pas",
    ]
    status, out, err = run(
        capsys, *create_platform_admin_arguments(), stdin="\n".join(lines) + "\n"
    )
    assert (status, out) == (2, ""), err
    assert "error: Password is at least 8 characters" in err
    assert "password" in err
    assert not (database / "cli.db").exists()


def test_create_platform_admin_needs_password_typed_or_piped(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, *create_platform_admin_arguments(), stdin="")
    assert (status, out) == (2, ""), err
    assert "no password given" in err
    assert not (database / "cli.db").exists()


def test_create_platform_admin_never_takes_password_as_an_argument(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main([*create_platform_admin_arguments(), "--password", "ops-password-1"])
    assert stopped.value.code == 2
