"""Secret fields (``secret: true`` / ``secret: generated``): a credential kept only as its
argon2id hash. Given ones are checked in plain and hashed by the use case; generated ones
are made by the service and shown once, in the answer of the command that set them, and
with ``made_when`` only for the values a condition holds for (else null)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Generate, app_probe, ran_in, service_of, spec_problems

KEYS = """\
version: 2
name: keys
aggregates:
  Member:
    fields:
      email: {type: str, contains: "@"}
      pin: {type: str, secret: true, pattern: "^[0-9]{4,8}$", messages: {pattern: 4-8 digits}}
      nickname: {type: str, default: ""}
    commands:
      join: {creates: true, params: [email, pin, nickname], emits: MemberJoined}
      changePin: {params: [pin], emits: PinChanged}
      rename: {params: [nickname, pin], emits: MemberRenamed}
  ApiClient:
    fields:
      name: {type: str, not_blank: true}
      clientSecret: {type: str, secret: generated}
      status: {type: str, default: ACTIVE}
    commands:
      register: {creates: true, params: [name, clientSecret], emits: ApiClientRegistered}
      rotate: {params: [clientSecret], emits: ApiClientSecretRotated}
      disable: {set: {status: "'DISABLED'"}, emits: ApiClientDisabled}
  App:
    fields:
      name: {type: str}
      kind: {type: AppKind, example: confidential}
      appSecret: {type: str, secret: generated, optional: true, made_when: "kind == 'confidential'"}
    commands:
      register: {creates: true, params: [name, kind, appSecret], emits: AppRegistered}
enums:
  AppKind: [confidential, public]
endpoints:
  - {method: POST, path: /api/v1/members, command: Member.join}
  - {method: GET, path: "/api/v1/members/{id}", query: Member.get}
  - {method: PUT, path: "/api/v1/members/{id}/pin", command: Member.changePin}
  - {method: PATCH, path: "/api/v1/members/{id}", command: Member.rename}
  - {method: POST, path: /api/v1/api-clients, command: ApiClient.register}
  - {method: GET, path: "/api/v1/api-clients/{id}", query: ApiClient.get}
  - {method: POST, path: "/api/v1/api-clients/{id}/secret", command: ApiClient.rotate}
  - {method: DELETE, path: "/api/v1/api-clients/{id}", command: ApiClient.disable}
  - {method: POST, path: /api/v1/apps, command: App.register}
  - {method: GET, path: "/api/v1/apps/{id}", query: App.get}
  - {method: GET, path: /api/v1/members, query: Member.list, consistent: true}
  - {method: GET, path: /api/v1/api-clients, query: ApiClient.list, consistent: true}
read_models:
  Members: {of: Member}
  ApiClients: {of: ApiClient}
"""


def problems(text: str) -> list[str]:
    return spec_problems(text, "keys.yaml")


def test_the_spec_with_secrets_is_valid() -> None:
    assert problems(KEYS) == []


@pytest.mark.parametrize(
    ("replaced", "replacement", "expected"),
    [
        (
            "clientSecret: {type: str, secret: generated}",
            "clientSecret: {type: str, secret: generated, min_length: 10}",
            "keys.yaml:16:41: aggregates.ApiClient.fields.clientSecret.secret: a generated"
            " secret takes no rules or example: the service makes it",
        ),
        (
            "clientSecret: {type: str, secret: generated}",
            "clientSecret: {type: int, secret: generated}",
            "keys.yaml:16:41: aggregates.ApiClient.fields.clientSecret.secret: a secret is a"
            " str (its hash is kept)",
        ),
        (
            "pin: {type: str, secret: true,",
            "pin: {type: str, optional: true, secret: true,",
            "keys.yaml:7:48: aggregates.Member.fields.pin.secret: a secret is required (its"
            " hash is kept) (only a sealed one, which the service uses itself, may be"
            " optional)",
        ),
        (
            "messages: {pattern: 4-8 digits}",
            'messages: {pattern: "{value}: 4-8 digits"}',
            "keys.yaml:7:83: aggregates.Member.fields.pin.messages.pattern: a secret's message"
            " cannot show {value}: the answer would tell the secret",
        ),
        (
            "pin: {type: str, secret: true,",
            "pin: {type: str, default: '1234', secret: true,",
            "keys.yaml:7:49: aggregates.Member.fields.pin.secret: a secret has no default (it"
            " would be written in the spec)",
        ),
        (
            "pin: {type: str, secret: true,",
            "pin: {type: str, unique: true, secret: true,",
            "keys.yaml:7:32: aggregates.Member.fields.pin.unique: a hidden field cannot be"
            " unique: its duplicate answer would tell a caller another aggregate's hidden value",
        ),
        (
            "clientSecret: {type: str, secret: generated}",
            "clientSecret: {type: str, secret: maybe}",
            "keys.yaml:16:41: aggregates.ApiClient.fields.clientSecret.secret: Input should be"
            " True, 'generated' or 'sealed'",
        ),
        (
            '{method: PATCH, path: "/api/v1/members/{id}", command: Member.rename}',
            '{method: PATCH, path: "/api/v1/members/{id}", command: ApiClient.rotate}',
            "keys.yaml:35:14: endpoints.3.method: a PATCH cannot serve 'rotate',"
            " which makes 'clientSecret', a generated secret: serve the command with PUT or"
            " POST",
        ),
        (
            "rename: {params: [nickname, pin], emits",
            "rename: {params: [nickname, pin], when: \"pin != ''\", emits",
            "keys.yaml:12:47: aggregates.Member.commands.rename.when: 'pin' is a secret: no"
            " rule may read it (only its hash or sealed text is kept), only ask whether it is"
            " set (`pin is not None`)",
        ),
        (
            "disable: {set: {status: \"'DISABLED'\"}",
            "disable: {set: {status: \"'DISABLED'\", clientSecret: \"''\"}",
            "keys.yaml:21:59: aggregates.ApiClient.commands.disable.set.clientSecret:"
            " 'clientSecret' is a secret: a command sets it as a parameter only",
        ),
        (
            "emits: AppRegistered}",
            "emits: AppRegistered}\n      revoke: {set: {appSecret: \"'x'\"}, emits: AppRevoked}",
            "keys.yaml:29:33: aggregates.App.commands.revoke.set.appSecret: 'appSecret' is a"
            " secret: a command sets it as a parameter only, or clears it (null)",
        ),
        (
            "emits: MemberRenamed}",
            "emits: MemberRenamed}\n    computed:\n"
            "      pinShown: {type: bool, value: \"pin == '1'\"}",
            "keys.yaml:14:37: aggregates.Member.computed.pinShown.value: 'pin' is hidden: a"
            " computed value would show it (it may ask `pin is not None`)",
        ),
        (
            'path: "/api/v1/api-clients/{id}", command: ApiClient.disable}',
            'path: "/api/v1/api-clients/{id}", command: ApiClient.rotate}',
            "keys.yaml:39:5: endpoints.7.status: 'rotate' makes a generated secret, which its"
            " answer shows once: not 204",
        ),
        (
            "clientSecret: {type: str, secret: generated}",
            "clientSecret: {type: str, secret: generated, optional: true}",
            "keys.yaml:16:41: aggregates.ApiClient.fields.clientSecret.secret: a secret is"
            " required (its hash is kept), unless generated only on a condition: optional,"
            " with made_when",
        ),
        (
            "appSecret: {type: str, secret: generated, optional: true,",
            "appSecret: {type: str, secret: generated,",
            "keys.yaml:26:60: aggregates.App.fields.appSecret.made_when: a secret made only"
            " when a condition holds is null otherwise: optional: true",
        ),
        (
            "appSecret: {type: str, secret: generated,",
            "appSecret: {type: str, secret: true,",
            "keys.yaml:26:71: aggregates.App.fields.appSecret.made_when: made_when is the"
            " condition of a generated secret: a given one is given",
        ),
        (
            "name: {type: str}\n      kind",
            "name: {type: str, made_when: \"kind == 'public'\"}\n      kind",
            "keys.yaml:24:36: aggregates.App.fields.name.made_when: made_when is the"
            " condition of a generated secret (secret: generated)",
        ),
        (
            "made_when: \"kind == 'confidential'\"",
            "made_when: \"kind == 'private'\"",
            "keys.yaml:26:76: aggregates.App.fields.appSecret.made_when: 'private' is not a"
            " AppKind (expected one of: confidential, public) (in \"'private'\") (made_when"
            " reads what command 'register' is given)",
        ),
        (
            "made_when: \"kind == 'confidential'\"",
            "made_when: \"len(name) > 1 and status == 'x'\"",
            "keys.yaml:26:76: aggregates.App.fields.appSecret.made_when: unknown name"
            " 'status' (known: kind, name) (in 'status') (made_when reads what command"
            " 'register' is given)",
        ),
    ],
)
def test_each_mistake_of_a_secret_is_located(
    replaced: str, replacement: str, expected: str
) -> None:
    assert replaced in KEYS
    assert problems(KEYS.replace(replaced, replacement)) == expected.split(";")


PROBE = """
import sqlite3, sys
from fastapi.testclient import TestClient
from eaf import context
from eaf.security import PasswordHasher
from keys.infrastructure.config import load_settings
from keys.main import create_app

settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/k.db",
                          "BROKER_RELAY": "false", "SECURITY_REVOCATION_FEED": "false"})
hasher = PasswordHasher()

def stored(cases, id):
    async def read():
        with context.use(context.SecurityContext(tenant_id="default")):
            return await cases.get(id)
    return client.portal.call(read)

with TestClient(create_app(settings)) as client:
    bad = client.post("/api/v1/members", json={"email": "a@b", "pin": "12x"})
    assert bad.status_code == 422, bad.text
    assert bad.json()["errors"] == [{"field": "pin", "message": "4-8 digits"}]
    made = client.post("/api/v1/members", json={"email": "a@b", "pin": "482913"})
    assert made.status_code == 201, made.text
    assert "pin" not in made.json(), made.text
    path = "/api/v1/members/" + made.json()["id"]
    assert "pin" not in client.get(path).json()
    assert client.put(path + "/pin", json={"pin": "77"}).status_code == 422
    assert client.put(path + "/pin", json={"pin": "775511"}).status_code == 200
    app = client.app
    member = stored(app.state.member, made.json()["id"])
    assert hasher.verify(member.pin, "775511") and not hasher.verify(member.pin, "482913")
    # a merge patch that leaves the secret out keeps its hash; one that gives it sets it
    renamed = client.patch(path, json={"nickname": "al"})
    assert renamed.status_code == 200 and renamed.json()["nickname"] == "al", renamed.text
    assert stored(app.state.member, made.json()["id"]).pin == member.pin
    assert client.patch(path, json={"pin": "1"}).status_code == 422
    assert client.patch(path, json={"pin": None}).status_code == 422
    assert client.patch(path, json={"pin": "246810"}).status_code == 200
    member = stored(app.state.member, made.json()["id"])
    assert hasher.verify(member.pin, "246810")

    key = {"Idempotency-Key": "k-1"}
    first = client.post("/api/v1/api-clients", json={"name": "worker"}, headers=key)
    assert first.status_code == 201, first.text
    secret = first.json()["clientSecret"]
    assert len(secret) >= 43, first.text
    replay = client.post("/api/v1/api-clients", json={"name": "worker"}, headers=key)
    assert replay.json()["clientSecret"] is None, replay.text
    path = "/api/v1/api-clients/" + first.json()["id"]
    assert "clientSecret" not in client.get(path).json()
    rotated = client.post(path + "/secret")
    assert rotated.status_code == 200, rotated.text
    assert rotated.json()["clientSecret"] not in (None, secret), rotated.text
    account = stored(app.state.api_client, first.json()["id"])
    assert hasher.verify(account.client_secret, rotated.json()["clientSecret"])
    assert not hasher.verify(account.client_secret, secret)

    # made only for a confidential app: a public one gets none, and keeps none
    confidential = client.post("/api/v1/apps", json={"name": "a", "kind": "confidential"})
    assert confidential.status_code == 201, confidential.text
    app_secret = confidential.json()["appSecret"]
    assert len(app_secret) >= 43, confidential.text
    public = client.post("/api/v1/apps", json={"name": "b", "kind": "public"})
    assert public.status_code == 201 and public.json()["appSecret"] is None, public.text
    kept = stored(app.state.app, confidential.json()["id"])
    assert hasher.verify(kept.app_secret, app_secret)
    assert stored(app.state.app, public.json()["id"]).app_secret is None

    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    pin = schemas["JoinMemberRequest"]["properties"]["pin"]
    assert pin["writeOnly"] and pin["format"] == "password", pin
    assert "clientSecret" not in schemas["RegisterApiClientRequest"]["properties"]
    assert "clientSecret" not in schemas["ApiClient"]["properties"]
    assert "clientSecret" in schemas["ApiClientWithClientSecret"]["properties"]
    made = schemas["AppWithAppSecret"]["properties"]["appSecret"]["description"]
    assert made.startswith("made only when kind == 'confidential', else null;"), made
    plain = ["482913", "775511", "246810", secret, rotated.json()["clientSecret"], app_secret]
    # the lists show no secret, and their rows (the query tables) keep no hash of one
    members = client.get("/api/v1/members").json()
    assert len(members) == 1 and "pin" not in members[0], members
    clients = client.get("/api/v1/api-clients").json()
    assert len(clients) == 1 and "clientSecret" not in clients[0], clients

store = sqlite3.connect(f"{sys.argv[1]}/k.db")
tables = [name for (name,) in store.execute("select name from sqlite_master where type='table'")]
for table in tables:
    for row in store.execute(f'select * from "{table}"'):
        assert not any(p in repr(row) for p in plain), (table, row)
for table in ("members", "api_clients"):
    rows = list(store.execute(f'select * from "{table}"'))
    assert len(rows) == 1 and "$argon2" not in repr(rows), (table, rows)
print("ok")
"""


def test_a_service_keeps_only_the_hash_of_a_secret(workspace: Path, generate: Generate) -> None:
    """The rendered service checks a given secret's rules in plain (422 with the spec's
    message), shows it nowhere, stores only an argon2id hash that verifies it; a generated
    secret is shown once (null in a replayed answer), changes on rotation, and no plain
    secret is in the store; the aggregates' read models keep no hash. The service passes
    its own tests and ``mypy --strict``."""
    spec = workspace / "specs/keys.yaml"
    spec.parent.mkdir()
    spec.write_text(KEYS)
    assert generate("service", "keys", cwd=workspace).code == 0
    project = workspace / "apps/keys"
    ran_in(project, "-c", PROBE, str(workspace))
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")


def test_render_refuses_a_stored_field_kept_otherwise_now() -> None:
    """A field turned into a sealed secret (or a hashed one back to plain) over stored data:
    the values stored before stay as written, and a sealed one would not open."""
    from generator.evolution import breaking_changes
    from generator.loading import load_spec_text

    plain = KEYS.replace("secret: true, ", "")
    sealed = KEYS.replace("secret: true, ", "secret: sealed, ")
    found = [
        (".".join(map(str, loc)), message)
        for loc, message, _ in breaking_changes(
            load_spec_text(plain, "keys.yaml"), load_spec_text(sealed, "keys.yaml")
        )
    ]
    assert found == [
        (
            "aggregates.Member.fields.pin.secret",
            "Member.pin was plain and is secret: sealed: the values stored before stay as"
            " they were written, which the service would read as the new kind (a sealed one"
            " would not open); add a new field instead, or render with --allow-breaking for a"
            " service without data",
        )
    ]
    assert (
        breaking_changes(load_spec_text(KEYS, "keys.yaml"), load_spec_text(KEYS, "keys.yaml")) == []
    )


HOOKS = """\
version: 2
name: hooks
aggregates:
  Hook:
    fields:
      url: {type: str, pattern: "^https://.+"}
      token: {type: str, secret: sealed, optional: true, min_length: 8}
    computed:
      tokenSet: {type: bool, value: "token is not None"}
    commands:
      add: {creates: true, params: [url, token], emits: HookAdded}
      configure: {params: [url, token], emits: HookConfigured}
      forgetToken: {set: {token: null}, when: "token is not None", emits: HookTokenForgotten}
read_models:
  Hooks: {of: Hook}
endpoints:
  - {method: POST, path: /api/v1/hooks, command: Hook.add}
  - {method: GET, path: "/api/v1/hooks/{id}", query: Hook.get}
  - {method: GET, path: /api/v1/hooks, query: Hooks.list, consistent: true}
  - {method: PATCH, path: "/api/v1/hooks/{id}", command: Hook.configure}
  - {method: DELETE, path: "/api/v1/hooks/{id}/token", command: Hook.forgetToken}
"""

HOOKS_PROBE = """
from eaf.security import SealedSecrets
settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/probe.db",
                          "BROKER_RELAY": "false", "SECURITY_REVOCATION_FEED": "false",
                          "SECURITY_SECRETS_FILE": f"{sys.argv[1]}/s.json"})
sealed = SealedSecrets.from_settings(settings)

def stored_token(client, id):
    async def read():
        from eaf import context
        with context.use(context.SecurityContext(tenant_id="default")):
            hook = await client.app.state.hook.get(id)
            return None if hook.token is None else sealed.open("Hook", "token", hook.token)
    return client.portal.call(read)

with TestClient(create_app(settings)) as client:
    bare = client.post("/api/v1/hooks", json={"url": "https://a"})
    assert bare.status_code == 201 and bare.json()["tokenSet"] is False, bare.text
    made = client.post("/api/v1/hooks", json={"url": "https://b", "token": "s3cret-token"})
    assert made.status_code == 201 and made.json()["tokenSet"] is True, made.text
    assert "s3cret" not in made.text and "token" not in made.json()
    path = "/api/v1/hooks/" + made.json()["id"]
    assert stored_token(client, made.json()["id"]) == "s3cret-token"
    # a merge patch that leaves it out keeps it; one that gives null clears it
    kept = client.patch(path, json={"url": "https://c"})
    assert kept.status_code == 200 and kept.json()["tokenSet"] is True, kept.text
    assert stored_token(client, made.json()["id"]) == "s3cret-token"
    assert client.patch(path, json={"token": "short"}).status_code == 422
    cleared = client.patch(path, json={"token": None})
    assert cleared.status_code == 200 and cleared.json()["tokenSet"] is False, cleared.text
    assert stored_token(client, made.json()["id"]) is None
    # a command that sets it to null, guarded by whether it is set
    assert client.patch(path, json={"token": "another-token"}).status_code == 200
    assert client.delete(path + "/token").status_code == 204
    assert client.delete(path + "/token").status_code == 409
    assert client.post("/api/v1/hooks", json={"url": "https://d", "token": "third-token"})
    rows = client.get("/api/v1/hooks").json()
    # the rows hold no token, but whether one is set
    assert sorted(row["tokenSet"] for row in rows) == [False, False, True], rows
    assert "token" not in rows[0]
"""


def test_an_optional_sealed_secret_is_set_kept_cleared_and_asked_for(
    workspace: Path, generate: Generate
) -> None:
    """A sealed secret may be optional: a merge patch that leaves it out keeps it, null
    clears it, a command may set it to null, and a computed value or a guard may ask
    whether it is set (`token is not None`) without reading it; its tests pass."""
    project = service_of(workspace, generate, "hooks", HOOKS)
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    app_probe(project, HOOKS_PROBE, workspace)
