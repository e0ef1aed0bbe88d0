"""`make demo`'s script: IAM and the freshly rendered sample come up together, and the
token it prints is accepted by the sample."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from helpers import REPO, free_ports


@pytest.mark.timeout(180)  # readline blocks: a stalled demo must fail, not hang
def test_the_demo_serves_iam_and_the_sample_with_a_ready_token(tmp_path: Path) -> None:
    port, iam_port, flags_port, config_port, licensing_port, rp_port = free_ports(6)
    demo = subprocess.Popen(
        ["bash", str(REPO / "scripts/demo.sh")],
        env={
            **os.environ,
            "PORT": str(port),
            "IAM_PORT": str(iam_port),
            "FLAGS_PORT": str(flags_port),
            "CONFIG_PORT": str(config_port),
            "LICENSING_PORT": str(licensing_port),
            "RP_PORT": str(rp_port),
            "DEMO_DIR": str(tmp_path / "demo"),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert demo.stdout is not None
    output: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = demo.stdout.readline()
            if not line:
                break
            output.append(line)
            if line.startswith("Serving until Ctrl-C."):
                break
        text = "".join(output)
        assert "Serving until Ctrl-C." in text, text
        assert "received iam.TenantCreatedEvent" in text, text
        [token] = re.findall(r"^export TOKEN=(\S+)$", text, flags=re.MULTILINE)
        base = f"http://127.0.0.1:{port}/api/v1/user-profiles"
        created = httpx.post(
            base,
            json={"name": "Ada", "email": "ada@demo.test"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert created.status_code == 201, created.text
        assert httpx.get(base).status_code == 401
        # The demo flag: DELETE answers while profile-deletion is on, 404 once it is off.
        bearer = {"Authorization": f"Bearer {token}"}
        deleted = httpx.delete(f"{base}/{created.json()['id']}", headers=bearer)
        assert deleted.status_code == 204, deleted.text
        [toggle] = re.findall(r"curl -s -X PUT (\S+/environments)", text)
        off = {"environments": {"production": {"enabled": False}}}
        assert httpx.put(toggle, json=off, headers=bearer).status_code == 200
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until the flag's read model has the change
            another = httpx.post(base, json={"name": "Bo", "email": "bo@demo.test"}, headers=bearer)
            hidden = httpx.delete(f"{base}/{another.json()['id']}", headers=bearer)
            if hidden.status_code == 404:
                break
            time.sleep(0.2)
        assert hidden.status_code == 404, hidden.text
        assert "profile-deletion" in hidden.json()["detail"]
        # The configuration service: the printed PUT, then the merged read.
        config = f"http://127.0.0.1:{config_port}"
        written = httpx.put(
            f"{config}/api/v1/properties/shop/default/main",
            json={"properties": {"greeting": "hello"}},
            headers=bearer,
        )
        assert written.status_code in (200, 201), written.text
        merged = httpx.get(f"{config}/api/v1/config/shop/default", headers=bearer)
        assert merged.json()["properties"]["greeting"] == "hello", merged.text
        keys = httpx.get(f"http://127.0.0.1:{licensing_port}/.well-known/license-keys.json")
        assert keys.status_code == 200 and keys.json()["keys"], keys.text
        # The browser application: the realm's sign-in page, then the sample with the token.
        [password] = re.findall(r"^User +ada / (\S+)", text, flags=re.MULTILINE)
        with httpx.Client(follow_redirects=True) as browser:
            page = browser.get(f"http://127.0.0.1:{rp_port}/")
            assert page.url.path == "/realms/demo/authorize", page.url
            form = re.search(r'name="form" value="([^"]+)"', page.text)
            action = re.search(r'<form method="post" action="([^"]+)"', page.text)
            assert form is not None and action is not None, page.text
            signed_in = browser.post(
                httpx.URL(str(page.url)).join(action.group(1)),
                data={"form": form.group(1), "username": "ada", "password": password},
            )
        assert signed_in.url.path == "/callback", signed_in.text
        assert "Signed in as <strong>ada</strong>" in signed_in.text, signed_in.text
        assert "user-profile answered 200" in signed_in.text, signed_in.text
    finally:
        os.killpg(demo.pid, signal.SIGTERM)
        try:
            demo.wait(timeout=30)
        except subprocess.TimeoutExpired:  # still a failure, but none left to later tests
            os.killpg(demo.pid, signal.SIGKILL)
            demo.wait(timeout=10)
            raise
        finally:
            demo.stdout.close()
    time.sleep(0.5)
    for port_in_use in (port, iam_port, flags_port, config_port, licensing_port, rp_port):
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port_in_use)) != 0, "a demo process survived"
