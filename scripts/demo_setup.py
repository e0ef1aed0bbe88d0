"""Prepare the demo once IAM and the sample service are up: a tenant, a user with a role,
and a ready token; print curl examples. Run by scripts/demo.sh."""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

import httpx


def wait_ready(url: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/actuator/health/readiness").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    sys.exit(f"{url} did not become ready; see {log}")


def token(iam: httpx.Client, tenant: str, username: str, password: str) -> dict[str, str]:
    response = iam.post(
        "/api/v1/auth/token",
        data={
            "grant_type": "password",
            "tenant": tenant,
            "username": username,
            "password": password,
        },
    )
    return answered(response, 200)


def created(response: httpx.Response) -> dict[str, str]:
    return answered(response, 201)


def answered(response: httpx.Response, status: int) -> dict[str, str]:
    """The JSON body of an expected answer; one clear line and exit otherwise."""
    if response.status_code != status:
        sys.exit(f"{response.request.method} {response.request.url}: {response.text}")
    body: dict[str, str] = response.json()
    return body


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iam", required=True)
    parser.add_argument("--app", required=True)
    parser.add_argument("--flags", required=True)
    parser.add_argument("--configuration", required=True)
    parser.add_argument("--licensing", required=True)
    parser.add_argument("--rp", required=True, help="the demo's browser application")
    parser.add_argument("--admin-password", required=True)
    parser.add_argument("--logs", type=Path, required=True)
    args = parser.parse_args()
    wait_ready(args.iam, args.logs / "iam.log")
    wait_ready(args.app, args.logs / "user-profile.log")
    wait_ready(args.flags, args.logs / "feature-flags.log")
    wait_ready(args.configuration, args.logs / "configuration.log")
    wait_ready(args.licensing, args.logs / "licensing.log")

    with httpx.Client(base_url=args.iam, timeout=15) as iam:
        root = token(iam, "platform", "admin", args.admin_password)
        admin_password = secrets.token_urlsafe(12)
        tenant = created(
            iam.post(
                "/api/v1/tenants",
                json={
                    "name": "demo",
                    "adminUsername": "demo-admin",
                    "adminEmail": "admin@demo.test",
                    "adminPassword": admin_password,
                },
                headers={
                    "Authorization": f"Bearer {root['access_token']}",
                    "X-Correlation-Id": "demo-tenant",
                },
            )
        )
        tenant_id = tenant["tenantId"]
        admin = token(iam, tenant_id, "demo-admin", admin_password)
        bearer = {"Authorization": f"Bearer {admin['access_token']}"}
        created(
            iam.post(
                f"/api/v1/tenants/{tenant_id}/roles",
                json={
                    "name": "profile-editor",
                    "permissions": [
                        "user-profile:*",
                        "feature-flags:*",
                        "configuration:*",
                        "licensing:*",
                    ],
                },
                headers=bearer,
            )
        )
        password = secrets.token_urlsafe(12)
        created(
            iam.post(
                f"/api/v1/tenants/{tenant_id}/users",
                json={
                    "username": "ada",
                    "email": "ada@demo.test",
                    "password": password,
                    "roles": ["profile-editor"],
                    "attributes": {"department": "research"},
                },
                headers=bearer,
            )
        )
        ada = token(iam, tenant_id, "ada", password)
        # The browser application: a public, first-party client of the realm (PKCE).
        created(
            iam.post(
                f"/api/v1/tenants/{tenant_id}/clients",
                json={
                    "clientId": "demo-portal",
                    "name": "Demo application",
                    "clientType": "public",
                    "grantTypes": ["authorization_code", "refresh_token"],
                    "redirectUris": [f"{args.rp}/callback"],
                    "scopes": [
                        "openid",
                        "profile",
                        "email",
                        "user-profile:read",
                        "user-profile:write",
                    ],
                    "firstParty": True,
                },
                headers=bearer,
            )
        )

    # The demo flag: the sample's DELETE is behind `profile-deletion`, on in the tenant.
    with httpx.Client(
        base_url=args.flags,
        headers={"Authorization": f"Bearer {ada['access_token']}"},
        timeout=15,
    ) as flags:
        project = created(flags.post("/api/v1/projects", json={"key": "demo", "name": "Demo"}))
        flag = created(
            flags.post(
                "/api/v1/flags",
                json={
                    "key": "profile-deletion",
                    "projectId": project["id"],
                    "description": "Deleting a profile (the sample's DELETE)",
                    "environments": {
                        "production": {"enabled": True, "strategies": [{"name": "default"}]}
                    },
                },
            )
        )

    prepared = ""
    deadline = time.monotonic() + 15
    while not prepared and time.monotonic() < deadline:
        for line in (args.logs / "user-profile.log").read_text().splitlines():
            if "iam.TenantCreatedEvent" in line and '"correlation_id"' in line:
                prepared = line
        time.sleep(0.2)

    access, refresh = ada["access_token"], ada["refresh_token"]
    app, iam_url, flags_url = args.app, args.iam, args.flags
    config_url, licensing_url = args.configuration, args.licensing
    print(
        f"""
IAM            {iam_url}   (OpenAPI {iam_url}/docs, keys {iam_url}/.well-known/jwks.json)
user-profile   {app}   (OpenAPI {app}/docs, health {app}/actuator/health, metrics {app}/metrics)
feature-flags  {flags_url}   (OpenAPI {flags_url}/docs; OFREP {flags_url}/ofrep/v1/evaluate/flags)
configuration  {config_url}   (OpenAPI {config_url}/docs; GET /api/v1/config/<app>/<profile>)
licensing      {licensing_url}   (OpenAPI {licensing_url}/docs; keys {licensing_url}/.well-known/license-keys.json)
Logs           {args.logs}/iam.log  {args.logs}/user-profile.log  (JSON, with correlation ids)

Platform admin  admin / {args.admin_password}          (log in with tenant=platform)
Tenant "demo"   {tenant_id}   admin demo-admin / {admin_password}
User            ada / {password}   role profile-editor (user-profile:*, feature-flags:*, configuration:*, licensing:*)
Browser sign-in {args.rp}/   (the realm {iam_url}/realms/demo: sign in as ada)
user-profile received TenantCreatedEvent over NATS:
  {prepared or "(not yet: see the log)"}

A token for ada (valid {ada["expires_in"]} s):
export TOKEN={access}

  curl -s -X POST {app}/api/v1/user-profiles -H "Authorization: Bearer $TOKEN" \\
       -H 'Content-Type: application/json' -d '{{"name":"Ada","email":"ada@demo.test"}}'
  curl -s {app}/api/v1/user-profiles -H "Authorization: Bearer $TOKEN"
  curl -s {app}/api/v1/user-profiles          # 401: no token
  curl -s -X DELETE {app}/api/v1/user-profiles/<id> -H "Authorization: Bearer $TOKEN"
       # 204 while the flag profile-deletion is on; turn it off, and it is 404:
  curl -s -X PUT {flags_url}/api/v1/flags/{flag["id"]}/environments -H "Authorization: Bearer $TOKEN" \
       -H 'Content-Type: application/json' -d '{{"environments":{{"production":{{"enabled":false}}}}}}'
  curl -s -X POST {flags_url}/ofrep/v1/evaluate/flags -H "Authorization: Bearer $TOKEN" -d '{{}}'
  curl -s -X PUT {config_url}/api/v1/properties/shop/default/main -H "Authorization: Bearer $TOKEN" \
       -H 'Content-Type: application/json' -d '{{"properties":{{"greeting":"hello"}}}}'
  curl -s {config_url}/api/v1/config/shop/default -H "Authorization: Bearer $TOKEN"
  curl -s -X POST {iam_url}/api/v1/auth/token -d grant_type=password -d tenant=demo \\
       -d username=ada -d password='{password}'
  curl -s -X POST {iam_url}/api/v1/auth/token -d grant_type=refresh_token \\
       -d refresh_token='{refresh}'
  curl -s -X POST {iam_url}/api/v1/auth/introspect -H "Authorization: Bearer $TOKEN" -d token=$TOKEN
  curl -s -X POST {iam_url}/api/v1/auth/revoke -d token=$TOKEN

Serving until Ctrl-C.""",
        flush=True,
    )


if __name__ == "__main__":
    main()
