"""Helpers shared by the generator's tests."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx

from generator.loading import SpecError, load_spec_text

REPO = Path(__file__).resolve().parents[1]
GENERATE = Path(sys.executable).parent / "generate"


@dataclass(frozen=True)
class Result:
    """What a `generate` run printed and returned."""

    code: int
    out: str
    err: str


Generate = Callable[..., Result]
"""The ``generate`` fixture: runs the CLI with its arguments (``cwd=`` a workspace)."""


def ran_in(project: Path, *command: str, timeout: int = 600) -> None:
    """Run ``command`` (after the interpreter) in a generated project, which must pass."""
    ran = subprocess.run(
        [sys.executable, *command],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": "src"},
        check=False,
        timeout=timeout,
    )
    assert ran.returncode == 0, (command[-1][:40], ran.stdout[-3000:], ran.stderr[-3000:])


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
    (port,) = free_ports(1)
    return port


def free_ports(count: int) -> list[int]:
    """``count`` different TCP ports on 127.0.0.1 that nothing listens on right now (each
    probe held open until all are chosen: one at a time, the system may give one twice)."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


class Service:
    """``python -m <module>`` on a free loopback port, its output in a log file (never a
    pipe nobody drains)."""

    def __init__(self, module: str, log: Path, env: dict[str, str], port: int = 0) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._output = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", module],
            env={**os.environ, **env, "PORT": str(self.port)},
            stdout=self._output,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until the service answers ready; fails at once, with its output, if it exits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"{self.log.name} exited: {self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/actuator/health/readiness").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        output = self.stop()
        raise RuntimeError(f"{self.log.name} not ready after {timeout} s: {output}")

    def lines(self) -> list[dict[str, object]]:
        """The JSON log lines written so far."""
        entries = []
        for line in self.log.read_text().splitlines():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return entries

    def stop(self) -> str:
        """Stop the service; its whole output."""
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._output.close()
        return self.log.read_text()


FAST_HASHING = {
    "SECURITY_PASSWORD_HASHING_TIME_COST": "1",
    "SECURITY_PASSWORD_HASHING_MEMORY_COST": "1024",
    "SECURITY_PASSWORD_HASHING_PARALLELISM": "1",
}
"""argon2 costs that keep IAM's tests fast (production keeps the defaults)."""


def iam_environ(directory: Path, url: str, admin: tuple[str, str]) -> dict[str, str]:
    """The environment of an IAM server process at ``url``: its database and keys under
    ``directory``, ``admin`` as the first platform administrator, fast password hashing."""
    return {
        **FAST_HASHING,
        "DATABASE_URL": f"sqlite:///{directory / 'iam.db'}",
        "SECURITY_KEYS_FILE": str(directory / "keys.json"),
        "SECURITY_ISSUER": url,
        "IAM_PLATFORM_ADMIN_USERNAME": admin[0],
        "IAM_PLATFORM_ADMIN_PASSWORD": admin[1],
    }


def iam_and_sample(
    directory: Path, admin: tuple[str, str], broker_url: str, **environ: str
) -> tuple[Service, Service]:
    """The IAM and the sample as server processes (not yet ready) on ``broker_url``, the
    sample validating the IAM's tokens; ``environ`` goes to both (JSON logs)."""
    iam_port = free_port()
    iam_url = f"http://127.0.0.1:{iam_port}"
    common = {"BROKER_URL": broker_url, "LOGGING_FORMAT": "json", **environ}
    iam = Service(
        "iam",
        directory / "iam.log",
        {**common, **iam_environ(directory, iam_url, admin)},
        port=iam_port,
    )
    sample = Service(
        "user_profile",
        directory / "user-profile.log",
        {
            **common,
            "DATABASE_URL": f"sqlite:///{directory / 'profiles.db'}",
            "SECURITY_IAM_URL": iam_url,
        },
    )
    return iam, sample


class JwksServer:
    """Signs bearer tokens and serves their public keys at ``/.well-known/jwks.json`` over
    real HTTP, as the IAM does, for tests that run a service without the IAM."""

    def __init__(self, permissions: tuple[str, ...] = (), subject: str = "ada") -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        from eaf.security import KeyRing, TokenIssuer

        self.ring = KeyRing.generate()
        body = json.dumps(self.ring.jwks()).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                found = self.path == "/.well-known/jwks.json"
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body if found else b"{}")

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.issuer = TokenIssuer(self.ring, issuer=self.url, default_audience="eaf")
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.permissions = permissions
        self.subject = subject

    def bearer(
        self, tenant: str, permissions: tuple[str, ...] | None = None, subject: str | None = None
    ) -> str:
        """``Bearer <token>`` of ``subject`` in ``tenant`` holding ``permissions`` (the
        server's defaults when not given)."""
        token = self.issuer.issue(
            subject=subject or self.subject,
            client_id="e2e",
            tenant_id=tenant,
            permissions=self.permissions if permissions is None else permissions,
        ).token
        return f"Bearer {token}"

    def headers(
        self, tenant: str = "acme", permissions: tuple[str, ...] | None = None
    ) -> dict[str, str]:
        """The ``Authorization`` header of :meth:`bearer`."""
        return {"Authorization": self.bearer(tenant, permissions)}

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def password_token(iam: str, tenant: str, username: str, password: str) -> str:
    """An access token of the password grant at the IAM ``iam`` (the grant must succeed)."""
    answer = httpx.post(
        f"{iam}/api/v1/auth/token",
        data={
            "grant_type": "password",
            "tenant": tenant,
            "username": username,
            "password": password,
        },
    )
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["access_token"]
    return token


def spec_problems(text: str, filename: str) -> list[str]:
    """What ``generate validate`` reports of a spec ``text`` read as ``filename``, each
    problem located (``file:line:col: path: message``), without the label of an
    endpoint's path (``endpoints.2 (POST /api/v1/orders)``, which test_validate checks);
    none for a valid one."""
    try:
        load_spec_text(text, filename)
    except SpecError as error:
        return [str(replace(problem, label="")) for problem in error.problems]
    return []


def cart_problems(field: str, name: str = "tag") -> list[str]:
    """What ``generate validate`` reports of a one-aggregate spec (shop.yaml) whose ``Cart``
    has the field ``name: <field>`` beside ``name: str``, both set by its creating command."""
    spec = (
        "version: 2\nname: shop\naggregates:\n  Cart:\n    fields:\n      name: str\n"
        f"      {name}: {field}\n    commands:\n"
        f"      open: {{creates: true, params: [name, {name}], emits: CartOpened}}\n"
    )
    return spec_problems(spec, "shop.yaml")


def app_probe(project: Path, body: str, workspace: Path) -> None:
    """Run ``body`` against the project's app on SQLite in ``workspace`` (``client`` is a
    TestClient, ``settings`` its settings; the service needs no token)."""
    package = project.name.replace("-", "_")
    head = (
        "import sys\n"
        "from fastapi.testclient import TestClient\n"
        f"from {package}.infrastructure.config import load_settings\n"
        f"from {package}.main import create_app\n"
        'settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/probe.db",'
        ' "BROKER_RELAY": "false", "SECURITY_REVOCATION_FEED": "false"})\n'
    )
    ran_in(project, "-c", head + body, str(workspace))


def probed_json(project: Path, script: str, workspace: Path) -> Any:
    """What ``script`` (run in the project, given ``workspace`` as its argument) printed
    last, as JSON; it must succeed."""
    probed = subprocess.run(
        [sys.executable, "-c", script, str(workspace)],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": "src"},
        check=False,
        timeout=300,
    )
    assert probed.returncode == 0, probed.stderr[-3000:]
    return json.loads(probed.stdout.splitlines()[-1])


def service_of(workspace: Path, generate: Callable[..., Result], name: str, spec: str) -> Path:
    """The project ``generate service`` makes of ``spec`` (specs/<name>.yaml)."""
    path = workspace / f"specs/{name}.yaml"
    path.parent.mkdir()
    path.write_text(spec)
    made = generate("service", name, cwd=workspace)
    assert made.code == 0, made.err
    return workspace / f"apps/{name}"
