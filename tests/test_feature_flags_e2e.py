"""The feature-flag service as a server process: flags created over its REST API, then
evaluated by unmodified SDKs: OpenFeature's Python SDK with the OFREP provider, and the
Unleash Python SDK (UnleashClient), which fetches `/api/client/features` and evaluates
locally. Both must agree with the rollout, constraints, segments and variants set."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import JwksServer, Service

PERMISSIONS = ("feature-flags:read", "feature-flags:write", "feature-flags:evaluate")


@pytest.fixture
def flags(tmp_path: Path) -> Iterator[tuple[Service, JwksServer]]:
    keys = JwksServer(PERMISSIONS, subject="ops")
    service = Service(
        "feature_flags",
        tmp_path / "feature-flags.log",
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'flags.db'}",
            "SECURITY_IAM_URL": keys.url,
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "FLAGS_USAGE_FLUSH_SECONDS": "0.2",
        },
    )
    try:
        service.wait_ready()
        yield service, keys
    finally:
        service.stop()
        keys.close()


def _created(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _seed(api: httpx.Client) -> None:
    project = _created(
        api.post(
            "/api/v1/projects",
            json={"key": "shop", "name": "Shop", "environments": ["production", "staging"]},
        )
    )
    segment = _created(
        api.post(
            "/api/v1/segments",
            json={
                "name": "beta-testers",
                "constraints": [{"contextName": "plan", "operator": "IN", "values": ["beta"]}],
            },
        )
    )
    only_ada = {
        "name": "flexibleRollout",
        "parameters": {"rollout": "100", "stickiness": "default", "groupId": "checkout"},
        "constraints": [{"contextName": "userId", "operator": "IN", "values": ["ada"]}],
    }
    _created(
        api.post(
            "/api/v1/flags",
            json={
                "key": "new-checkout",
                "projectId": project["id"],
                "environments": {
                    "production": {"enabled": True, "strategies": [only_ada]},
                    "staging": {"enabled": True, "strategies": [{"name": "default"}]},
                },
                "variants": [
                    {
                        "name": "blue",
                        "weight": 1000,
                        "payload": {"type": "json", "value": '{"color": "blue"}'},
                    }
                ],
            },
        )
    )
    _created(
        api.post(
            "/api/v1/flags",
            json={
                "key": "beta-banner",
                "projectId": project["id"],
                "environments": {
                    "production": {
                        "enabled": True,
                        "strategies": [{"name": "default", "segments": [segment["id"]]}],
                    }
                },
            },
        )
    )
    _created(
        api.post(
            "/api/v1/flags",
            json={
                "key": "dark-mode",
                "projectId": project["id"],
                "environments": {
                    "production": {"enabled": False, "strategies": [{"name": "default"}]}
                },
            },
        )
    )


def _until_projected(api: httpx.Client, count: int, segments: int = 1) -> None:
    """Until the read models the evaluation reads hold the ``count`` flags and the
    ``segments`` seeded (each read model follows the store on its own)."""
    import time

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        flags = api.get("/api/v1/flags")
        held = api.get("/api/v1/segments")
        if (
            flags.status_code == held.status_code == 200
            and flags.json()["total"] == count
            and held.json()["total"] == segments
        ):
            return
        time.sleep(0.1)
    raise AssertionError("the flags and segments never reached the read models")


def test_openfeature_and_unleash_sdks_evaluate_the_service_s_flags(
    flags: tuple[Service, JwksServer],
) -> None:
    from openfeature import api as openfeature
    from openfeature.contrib.provider.ofrep import OFREPProvider
    from openfeature.evaluation_context import EvaluationContext
    from openfeature.exception import ErrorCode
    from UnleashClient import UnleashClient

    service, keys = flags
    bearer = keys.bearer("acme")
    with httpx.Client(base_url=service.url, headers={"Authorization": bearer}, timeout=10) as api:
        _seed(api)
        _until_projected(api, 3)

    # OpenFeature, remote evaluation.
    openfeature.set_provider(
        OFREPProvider(service.url, headers_factory=lambda: {"Authorization": bearer})
    )
    client = openfeature.get_client()
    ada = EvaluationContext(targeting_key="ada")
    bob = EvaluationContext(targeting_key="bob")
    assert client.get_boolean_value("dark-mode", True, ada) is False
    assert client.get_object_value("new-checkout", {}, ada) == {"color": "blue"}
    details = client.get_object_details("new-checkout", {"color": "none"}, bob)
    assert (details.value, details.reason, details.error_code) == (
        {"color": "none"},
        "DEFAULT",
        None,
    )
    assert client.get_boolean_value("beta-banner", False, EvaluationContext("c", {"plan": "beta"}))
    assert not client.get_boolean_value(
        "beta-banner", True, EvaluationContext("c", {"plan": "free"})
    )
    missing = client.get_boolean_details("no-such-flag", False, ada)
    assert (missing.value, missing.error_code) == (False, ErrorCode.FLAG_NOT_FOUND)

    # Another tenant sees none of these flags.
    other = OFREPProvider(
        service.url, headers_factory=lambda: {"Authorization": keys.bearer("globex")}
    )
    openfeature.set_provider(other)
    foreign = openfeature.get_client().get_boolean_details("dark-mode", True, ada)
    assert foreign.error_code == ErrorCode.FLAG_NOT_FOUND

    # Unleash, local evaluation of the document the service serves.
    unleash = UnleashClient(
        url=f"{service.url}/api",
        app_name="e2e",
        custom_headers={"Authorization": bearer, "X-Environment": "production"},
        disable_metrics=True,
        disable_registration=True,
        refresh_interval=60,
    )
    unleash.initialize_client(fetch_toggles=True)
    try:
        assert unleash.is_enabled("new-checkout", {"userId": "ada"})
        assert not unleash.is_enabled("new-checkout", {"userId": "bob"})
        assert not unleash.is_enabled("dark-mode", {"userId": "ada"})
        assert unleash.is_enabled("beta-banner", {"properties": {"plan": "beta"}})
        variant = unleash.get_variant("new-checkout", {"userId": "ada"})
        assert variant["name"] == "blue" and json.loads(variant["payload"]["value"]) == {
            "color": "blue"
        }
    finally:
        unleash.destroy()

    # Staging: the default strategy, everyone.
    staging = httpx.post(
        f"{service.url}/ofrep/v1/evaluate/flags/new-checkout",
        json={"context": {"targetingKey": "bob"}},
        headers={"Authorization": bearer, "X-Environment": "staging"},
    )
    assert staging.status_code == 200, staging.text
    assert staging.json()["metadata"]["enabled"] is True


def test_bulk_evaluation_answers_304_while_nothing_changed_and_refuses_bad_input(
    flags: tuple[Service, JwksServer],
) -> None:
    service, keys = flags
    bearer = keys.bearer("acme")
    with httpx.Client(base_url=service.url, headers={"Authorization": bearer}, timeout=10) as api:
        _seed(api)
        _until_projected(api, 3)
        body = {"context": {"targetingKey": "ada"}}
        first = api.post("/ofrep/v1/evaluate/flags", json=body)
        assert first.status_code == 200, first.text
        assert {f["key"] for f in first.json()["flags"]} == {
            "new-checkout",
            "beta-banner",
            "dark-mode",
        }
        etag = first.headers["ETag"]
        again = api.post("/ofrep/v1/evaluate/flags", json=body, headers={"If-None-Match": etag})
        assert again.status_code == 304
        other_user = api.post(
            "/ofrep/v1/evaluate/flags",
            json={"context": {"targetingKey": "bob"}},
            headers={"If-None-Match": etag},
        )
        assert other_user.status_code == 200
        bad = api.post(
            "/ofrep/v1/evaluate/flags/dark-mode", json={"context": ["not", "an", "object"]}
        )
        assert bad.status_code == 400 and bad.json()["errorCode"] == "INVALID_CONTEXT"
        flag_id = api.get("/api/v1/flags/by-key/dark-mode").json()["id"]
        assert api.post(f"/api/v1/flags/{flag_id}/archive").status_code == 200
        # An archived flag leaves the client document.
        import time

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            features = api.get(
                "/api/client/features", headers={"X-Environment": "production"}
            ).json()
            if "dark-mode" not in {f["name"] for f in features["features"]}:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the archived flag is still served")
    no_permission = httpx.post(
        f"{service.url}/ofrep/v1/evaluate/flags/dark-mode",
        json={},
        headers={"Authorization": keys.bearer("acme", ("feature-flags:read",))},
    )
    assert no_permission.status_code == 403


def test_usage_per_flag_and_variant_and_the_stale_flag_report(
    flags: tuple[Service, JwksServer],
) -> None:
    import time

    service, keys = flags
    with httpx.Client(
        base_url=service.url, headers={"Authorization": keys.bearer("acme")}, timeout=10
    ) as api:
        _seed(api)
        _until_projected(api, 3)
        for user in ("ada", "ada", "bob"):
            evaluated = api.post(
                "/ofrep/v1/evaluate/flags/new-checkout", json={"context": {"targetingKey": user}}
            )
            assert evaluated.status_code == 200, evaluated.text
        # An Unleash SDK's metrics, as UnleashClient posts them.
        metrics = {
            "appName": "web-shop",
            "instanceId": "web-1",
            "bucket": {
                "start": "2026-11-25T10:00:00Z",
                "stop": "2099-01-01T00:00:00Z",
                "toggles": {"beta-banner": {"yes": 7, "no": 3, "variants": {"disabled": 10}}},
            },
        }
        assert api.post("/api/client/metrics", json=metrics).status_code == 202
        broken = api.post("/api/client/metrics", json={"bucket": {"start": "yesterday"}})
        assert broken.status_code == 400

        deadline = time.monotonic() + 30
        usage: dict[str, Any] = {}
        while time.monotonic() < deadline:
            listed = api.get("/api/v1/flag-usage", params={"environment": "production"})
            assert listed.status_code == 200, listed.text
            usage = {f["key"]: f for f in listed.json()["flags"]}
            checkout = usage.get("new-checkout", {"yes": 0, "no": 0})
            # The three evaluations may be reported in more than one flush.
            if checkout["yes"] + checkout["no"] == 3 and "beta-banner" in usage:
                break
            time.sleep(0.1)
        assert (usage["new-checkout"]["yes"], usage["new-checkout"]["no"]) == (2, 1)
        assert usage["new-checkout"]["variants"] == {"blue": 2, "disabled": 1}
        assert (usage["beta-banner"]["yes"], usage["beta-banner"]["no"]) == (7, 3)

        flag_id = api.get("/api/v1/flags/by-key/dark-mode").json()["id"]
        assert api.put(f"/api/v1/flags/{flag_id}/stale", json={"stale": True}).status_code == 200
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            report = {f["key"]: f for f in api.get("/api/v1/stale-flags").json()["flags"]}
            if "dark-mode" in report:
                break
            time.sleep(0.1)
        assert report["dark-mode"]["reasons"] == ["marked stale"]
        assert "new-checkout" not in report

        # The audit trail: every change, by whom.
        history = api.get(f"/api/v1/flags/{flag_id}/history")
        assert history.status_code == 200, history.text
        trail = [(h["version"], h["event"], h["userId"]) for h in history.json()]
        assert trail == [(1, "FlagCreated", "ops"), (2, "FlagStaleMarked", "ops")]
        assert history.json()[1]["changes"]["stale"] is True
        assert api.get(f"/api/v1/flags/{uuid.uuid4()}/history").status_code == 404
        other = {"Authorization": keys.bearer("globex")}
        assert api.get(f"/api/v1/flags/{flag_id}/history", headers=other).status_code == 404


def test_the_sample_s_flagged_endpoint_follows_the_flag_service(
    flags: tuple[Service, JwksServer], tmp_path: Path
) -> None:
    """The sample's DELETE is gated by `profile-deletion` (its spec says `flag:`): it asks
    the running feature-flag service over OFREP, with the caller's token, and answers 404
    while the flag is off for that caller."""
    import time

    service, keys = flags
    sample = Service(
        "user_profile",
        tmp_path / "user-profile.log",
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'profiles.db'}",
            "SECURITY_IAM_URL": keys.url,
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "FLAGS_URL": service.url,
        },
    )
    everything = (*PERMISSIONS, "user-profile:read", "user-profile:write")
    ops, eve = (keys.bearer("acme", everything, subject=s) for s in ("ops", "eve"))
    try:
        sample.wait_ready()
        with httpx.Client(base_url=sample.url, timeout=10) as app:

            def profile() -> str:
                made = app.post(
                    "/api/v1/user-profiles",
                    json={"name": "Ada", "email": "ada@acme.test"},
                    headers={"Authorization": ops},
                )
                assert made.status_code == 201, made.text
                return str(made.json()["id"])

            first = profile()
            # No such flag yet: off.
            gone = app.delete(f"/api/v1/user-profiles/{first}", headers={"Authorization": ops})
            assert gone.status_code == 404 and "profile-deletion" in gone.json()["detail"]

            with httpx.Client(
                base_url=service.url, headers={"Authorization": ops}, timeout=10
            ) as api:
                project = _created(api.post("/api/v1/projects", json={"key": "p", "name": "P"}))
                only_ops = {"name": "userWithId", "parameters": {"userIds": "ops"}}
                _created(
                    api.post(
                        "/api/v1/flags",
                        json={
                            "key": "profile-deletion",
                            "projectId": project["id"],
                            "environments": {
                                "production": {"enabled": True, "strategies": [only_ops]}
                            },
                        },
                    )
                )
                _until_projected(api, 1, segments=0)

            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                answer = app.delete(
                    f"/api/v1/user-profiles/{first}", headers={"Authorization": ops}
                )
                if answer.status_code != 404:
                    break
                time.sleep(0.2)
            assert answer.status_code == 204, answer.text
            second = profile()
            refused = app.delete(f"/api/v1/user-profiles/{second}", headers={"Authorization": eve})
            assert refused.status_code == 404  # on for ops only
    finally:
        sample.stop()
