"""The licensing service as a server process: a license goes through its life over HTTP
(activation, validation codes, suspension, expiry, renewal), and its signed file is
verified offline by the license-verifier library."""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import JwksServer, Service
from license_verifier import TamperedLicenseFileError, verify

PERMISSIONS = ("licensing:read", "licensing:write", "licensing:validate")


@pytest.fixture
def licensing(tmp_path: Path) -> Iterator[tuple[Service, JwksServer]]:
    keys = JwksServer(PERMISSIONS, subject="ops")
    service = Service(
        "licensing",
        tmp_path / "licensing.log",
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'licensing.db'}",
            "SECURITY_IAM_URL": keys.url,
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "LICENSING_KEYS_FILE": str(tmp_path / "license-keys.json"),
        },
    )
    try:
        service.wait_ready()
        yield service, keys
    finally:
        service.stop()
        keys.close()


def _body(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def _validate(api: httpx.Client, key: str, **scope: Any) -> dict[str, Any]:
    return _body(api.post("/api/v1/licenses/actions/validate-key", json={"key": key, **scope}), 200)


def _code(api: httpx.Client, key: str, **scope: Any) -> str:
    code: str = _validate(api, key, **scope)["code"]
    return code


def _machines_projected(api: httpx.Client, license_id: str, fingerprints: set[str]) -> None:
    """Until the machines read model (what a license file lists) holds ``fingerprints``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = _body(api.get("/api/v1/machines", params={"licenseId": license_id}), 200)
        if {machine["fingerprint"] for machine in listed["items"]} == fingerprints:
            return
        time.sleep(0.1)
    raise AssertionError("the machines never reached the read model")


def _tampered(certificate: str) -> str:
    """The file with its payload's entitlements changed, the signature kept."""
    lines = certificate.strip().splitlines()
    envelope = json.loads(base64.b64decode("".join(lines[1:-1])))
    payload = json.loads(base64.b64decode(envelope["enc"]))
    payload["entitlements"].append("everything")
    envelope["enc"] = base64.b64encode(json.dumps(payload).encode()).decode()
    body = base64.b64encode(json.dumps(envelope).encode()).decode()
    return "\n".join([lines[0], body, lines[-1]])


def test_a_license_goes_through_its_life(licensing: tuple[Service, JwksServer]) -> None:
    service, keys = licensing
    headers = {"Authorization": keys.bearer("acme")}
    with httpx.Client(base_url=service.url, headers=headers, timeout=10) as api:
        product = _body(
            api.post("/api/v1/products", json={"code": "studio", "name": "Studio"}), 201
        )
        policy = _body(
            api.post(
                "/api/v1/policies",
                json={
                    "productId": product["id"],
                    "name": "Node-locked, one year",
                    "durationDays": 365,
                    "maxMachines": 1,
                    "entitlements": ["export", "sync"],
                },
            ),
            201,
        )
        license = _body(
            api.post(
                "/api/v1/licenses",
                json={
                    "policyId": policy["id"],
                    "productId": product["id"],
                    "owner": "ada@example.com",
                },
            ),
            201,
        )
        key = license["key"]
        assert re.fullmatch(r"[A-Z2-7]{6}(-[A-Z2-7]{6}){3}", key), key
        assert (license["maxMachines"], license["durationDays"]) == (1, 365)
        expires = datetime.fromisoformat(license["expiresAt"])
        assert timedelta(days=364) < expires - datetime.now(UTC) <= timedelta(days=365)

        # A node-locked license needs a machine.
        assert _code(api, key) == "NO_MACHINE"
        laptop = _body(
            api.post("/api/v1/machines", json={"licenseId": license["id"], "fingerprint": "4a:9c"}),
            201,
        )
        answer = _validate(api, key, fingerprint="4a:9c", entitlements=["export"])
        assert (answer["valid"], answer["code"]) == (True, "VALID")
        assert answer["license"]["key"] == key and answer["machine"]["id"] == laptop["id"]
        assert answer["entitlements"] == ["export", "sync"]
        _body(api.post(f"/api/v1/machines/{laptop['id']}/actions/ping"), 200)

        second = api.post(
            "/api/v1/machines", json={"licenseId": license["id"], "fingerprint": "77:ee"}
        )
        assert second.status_code == 409, second.text
        assert second.json()["type"].endswith(":too-many-machines")
        assert second.json()["title"].startswith("TOO_MANY_MACHINES")

        unknown = _validate(api, key, fingerprint="77:ee")
        assert (unknown["valid"], unknown["code"]) == (False, "FINGERPRINT_SCOPE_MISMATCH")
        missing = _validate(api, key, fingerprint="4a:9c", entitlements=["export", "admin"])
        assert (missing["code"], missing["detail"]) == (
            "ENTITLEMENTS_MISSING",
            "Not entitled to: admin",
        )

        _body(api.post(f"/api/v1/licenses/{license['id']}/actions/suspend"), 200)
        assert _code(api, key, fingerprint="4a:9c") == "SUSPENDED"
        _body(api.post(f"/api/v1/licenses/{license['id']}/actions/reinstate"), 200)
        assert _code(api, key, fingerprint="4a:9c") == "VALID"

        # Deactivating frees the seat.
        assert api.delete(f"/api/v1/machines/{laptop['id']}").status_code == 204
        desktop = api.post(
            "/api/v1/machines",
            json={"licenseId": license["id"], "fingerprint": "77:ee", "name": "desktop"},
        )
        assert desktop.status_code == 201, desktop.text
        assert _code(api, key, fingerprint="4a:9c") == "FINGERPRINT_SCOPE_MISMATCH"
        assert _code(api, key, fingerprint="77:ee") == "VALID"

        # Expiry: a license issued with an expiry in the past, then renewed by the
        # policy's duration.
        lapsed = _body(
            api.post(
                "/api/v1/licenses",
                json={
                    "policyId": policy["id"],
                    "productId": product["id"],
                    "expiresAt": (datetime.now(UTC) - timedelta(seconds=1)).isoformat(),
                },
            ),
            201,
        )
        _body(
            api.post("/api/v1/machines", json={"licenseId": lapsed["id"], "fingerprint": "c0:ff"}),
            201,
        )
        expired = _validate(api, lapsed["key"], fingerprint="c0:ff")
        assert (expired["valid"], expired["code"]) == (False, "EXPIRED")
        assert expired["license"]["effectiveStatus"] == "expired"
        renewed = _body(api.post(f"/api/v1/licenses/{lapsed['id']}/actions/renew"), 200)
        assert datetime.fromisoformat(renewed["expiresAt"]) > datetime.now(UTC) + timedelta(
            days=364
        )
        assert _code(api, lapsed["key"], fingerprint="c0:ff") == "VALID"
        assert _code(api, "NOSUCH-KEYKEY") == "NOT_FOUND"

        # The signed file, verified offline against the published keys.
        _machines_projected(api, license["id"], {"77:ee"})
        checked_out = _body(api.post(f"/api/v1/licenses/{license['id']}/actions/check-out"), 200)
        public_keys = httpx.get(f"{service.url}/.well-known/license-keys.json").json()
    assert [k["kid"] for k in public_keys["keys"]] == [checked_out["kid"]]
    assert "d" not in public_keys["keys"][0]
    facts = verify(checked_out["certificate"], public_keys)
    assert (facts.key, facts.owner, facts.status) == (key, "ada@example.com", "active")
    assert facts.entitlements == ("export", "sync")
    assert facts.activated_on("77:ee") and not facts.activated_on("4a:9c")
    assert facts.expires_at == expires
    with pytest.raises(TamperedLicenseFileError):
        verify(_tampered(checked_out["certificate"]), public_keys)


def test_tenants_and_permissions_bound_every_license(licensing: tuple[Service, JwksServer]) -> None:
    service, keys = licensing
    with httpx.Client(
        base_url=service.url, headers={"Authorization": keys.bearer("acme")}, timeout=10
    ) as api:
        product = _body(
            api.post("/api/v1/products", json={"code": "studio", "name": "Studio"}), 201
        )
        policy = _body(
            api.post(
                "/api/v1/policies",
                json={"productId": product["id"], "name": "Floating", "floating": True},
            ),
            201,
        )
        license = _body(
            api.post(
                "/api/v1/licenses", json={"policyId": policy["id"], "productId": product["id"]}
            ),
            201,
        )
        # Floating without a maximum: no machine needed, none limited.
        assert license["maxMachines"] is None and license["expiresAt"] is None
        assert _code(api, license["key"]) == "VALID"

    with httpx.Client(
        base_url=service.url, headers={"Authorization": keys.bearer("globex")}, timeout=10
    ) as other:
        assert other.get(f"/api/v1/licenses/{license['id']}").status_code == 404
        assert other.get(f"/api/v1/licenses/by-key/{license['key']}").status_code == 404
        assert _code(other, license["key"]) == "NOT_FOUND"
        assert other.post(f"/api/v1/licenses/{license['id']}/actions/check-out").status_code == 404
        assert other.post(f"/api/v1/licenses/{license['id']}/actions/suspend").status_code == 404

    reader = {"Authorization": keys.bearer("acme", ("licensing:read",))}
    with httpx.Client(base_url=service.url, headers=reader, timeout=10) as api:
        assert api.get(f"/api/v1/licenses/{license['id']}").status_code == 200
        denied = api.post("/api/v1/licenses/actions/validate-key", json={"key": license["key"]})
        assert denied.status_code == 403, denied.text
        assert api.post(f"/api/v1/licenses/{license['id']}/actions/suspend").status_code == 403
    anonymous = httpx.post(
        f"{service.url}/api/v1/licenses/actions/validate-key", json={"key": license["key"]}
    )
    assert anonymous.status_code == 401
