"""The operator CLI: creating a platform administrator, or resetting its password."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from iam import cli as admin
from iam.main import create_app
from tests.identity.conftest import Iam, settings_for

CHEAP_HASHING = {
    "SECURITY_PASSWORD_HASHING_TIME_COST": "1",
    "SECURITY_PASSWORD_HASHING_MEMORY_COST": "8",
    "SECURITY_PASSWORD_HASHING_PARALLELISM": "1",
}


class Terminal(io.StringIO):
    """Standard input that is a terminal (the password is then asked for)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The environment of the CLI: the database of ``settings_for(tmp_path)``."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'iam.db'}")
    for name, value in CHEAP_HASHING.items():
        monkeypatch.setenv(name, value)
    return tmp_path


def run(
    capsys: pytest.CaptureFixture[str], *arguments: str, stdin: io.StringIO
) -> tuple[int, str, str]:
    status = admin.main(["create-platform-admin", *arguments], stdin=stdin)
    out, err = capsys.readouterr()
    return status, out, err


def login_status(tmp_path: Path, username: str, password: str) -> int:
    settings = settings_for(
        tmp_path, IAM_PLATFORM_ADMIN_USERNAME="", IAM_PLATFORM_ADMIN_PASSWORD=""
    )
    with TestClient(create_app(settings)) as http:
        return Iam(http).token("platform", username, password).status_code


def test_it_creates_a_platform_admin_who_can_log_in(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(
        capsys, "--username", "ops", stdin=io.StringIO("ops-password-1\n")
    )

    assert (status, out, err) == (0, "created platform administrator ops\n", "")
    assert login_status(database, "ops", "ops-password-1") == 200


def test_it_resets_the_password_of_an_existing_admin(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "--username", "ops", stdin=io.StringIO("ops-password-1\n"))

    status, out, _ = run(
        capsys, "--username", "OPS", stdin=io.StringIO("ops-password-2\n")
    )

    assert status == 0
    assert out == "reset the password of platform administrator OPS\n"
    assert login_status(database, "ops", "ops-password-1") == 400
    assert login_status(database, "ops", "ops-password-2") == 200


def test_on_a_terminal_the_password_is_asked_twice(
    database: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = iter(["ops-password-1", "ops-password-2"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))

    status, out, err = run(capsys, "--username", "ops", stdin=Terminal())

    assert status == 2
    assert out == ""
    assert err == "iam-admin: error: the passwords do not match\n"
    assert not (database / "iam.db").exists()


@pytest.mark.parametrize(
    ("arguments", "stdin", "message"),
    [
        (["--username", "ops"], "short\n", "Password is at least 8 characters"),
        (["--username", "ops"], "", "no password given"),
        (["--username", "no spaces"], "ops-password-1\n", "Username is 1-64"),
        (
            ["--username", "ops", "--email", "nope"],
            "ops-password-1\n",
            "Email must be valid",
        ),
    ],
)
def test_bad_input_exits_2_with_a_specific_message(
    database: Path,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    stdin: str,
    message: str,
) -> None:
    status, out, err = run(capsys, *arguments, stdin=io.StringIO(stdin))

    assert status == 2
    assert out == ""
    assert err.startswith(f"iam-admin: error: {message}")
    assert not (database / "iam.db").exists()


def test_the_password_is_not_an_argument(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        admin.main(
            ["create-platform-admin", "--username", "ops", "--password", "secret-1"],
            stdin=io.StringIO(""),
        )

    assert stopped.value.code == 2
    assert "unrecognized arguments: --password" in capsys.readouterr().err


def test_python_dash_m_reads_the_password_from_stdin(database: Path) -> None:
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database / 'iam.db'}",
        **CHEAP_HASHING,
    }
    command = [sys.executable, "-m", "iam.cli", "create-platform-admin"]

    created = subprocess.run(
        [*command, "--username", "ops"],
        input="ops-password-1\n",
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    missing = subprocess.run(
        command, input="", capture_output=True, text=True, env=environment, check=False
    )

    assert created.returncode == 0, created.stderr
    assert created.stdout == "created platform administrator ops\n"
    assert missing.returncode == 2
    assert "--username" in missing.stderr
    assert login_status(database, "ops", "ops-password-1") == 200
