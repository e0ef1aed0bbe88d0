"""Every rendered service keeps the promises of its OpenAPI document under schemathesis:
examples, coverage, fuzzing and stateful phases with every check, as an authenticated
caller: in process, and over HTTP against the IAM and the sample running as server
processes. No server error, no undocumented status, content type or body, and no request
the schema allows refused for a rule the schema does not state."""

from __future__ import annotations

import importlib
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from eaf.security import KeyRing, TokenIssuer
from eaf.web.resources import IDEMPOTENCY_KEY_PATTERN, IF_MATCH_PATTERN
from fastapi import FastAPI
from fastapi.testclient import TestClient
from helpers import REPO
from iam_client import IamClient
from pydantic import TypeAdapter, ValidationError
from schemathesis.engine import events, observations
from schemathesis.python import asgi

from generator.loading import load_spec, parse_yaml
from generator.render import Blueprint, render_new

pytestmark = pytest.mark.slow

_same_origin_path = observations._same_origin_path


def _tolerant_same_origin_path(value: str, origin: tuple[str, str]) -> str | None:
    """Schemathesis's reading of the links in a response body, but a string that looks
    like a URL and is not one (``http://[B1.C0C]/``, an echo of generated input) is no
    link: ``urlsplit`` raises on it and the whole run stopped."""
    try:
        return _same_origin_path(value, origin)
    except ValueError:
        return None


observations._same_origin_path = _tolerant_same_origin_path

MAX_EXAMPLES = 25
# A fixed seed keeps CI reproducible; SCHEMATHESIS_SEED explores other inputs locally.
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "20260101"))
ISSUER = "https://iam.test"
AUDIENCE = "eaf"
PLATFORM_ADMIN = ("root", "root-password-1")
# Statuses a request the schema allows may get besides schemathesis's defaults: 412 when
# its If-Match names a version that is no longer current (a precondition on the state, as
# 409 is; RFC 9110 §13.1.1).
ACCEPTED_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "412", "429", "5xx"]
# Refusals of negative data: 412 too, since RFC 9110 §13.2.1 evaluates preconditions
# before the request content.
REJECTED_STATUSES = [
    "400", "401", "403", "404", "405", "406", "409", "412", "415", "422",
    "428", "429", "5xx",
]  # fmt: skip

Tolerated = Callable[[Any, Any, Any], bool]


@dataclass
class Run:
    """What one schemathesis run exercised, and what it found."""

    operations: set[str] = field(default_factory=set)
    cases: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        return (
            f"{len(self.operations)} operations, {self.cases} cases in {self.seconds:.0f}s,"
            f" {len(self.failures)} failures"
        )


def contract_config(token: str, examples: int = MAX_EXAMPLES) -> schemathesis.Config:
    """Every phase and check, as a caller with ``token``, bounded and reproducible."""
    return schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "headers": {"Authorization": f"Bearer {token}"},
            "cache": {"enabled": False},
            "generation": {"max-examples": examples, "database": "none"},
            "checks": {
                "positive_data_acceptance": {"expected-statuses": ACCEPTED_STATUSES},
                "negative_data_rejection": {"expected-statuses": REJECTED_STATUSES},
            },
        }
    )


# A dangling reference (the generated services' message, by an id or a key) and the roles
# IAM does not know (its spec's message, and its hand-written one): the schema states the
# form of an id or a name, not which exist.
MISSING_REFERENCE = re.compile(
    r'No [a-z ]+ has this [a-z ]+|Unknown role ".+"|Unknown roles: .+', re.DOTALL
)
# A NUL character: valid JSON and Unicode, which the schema's strings allow, refused
# because PostgreSQL's text cannot hold it (the README says so; JSON Schema cannot say it
# of every text of a body, the keys and json values included, but with a pattern each).
HELD_NUL = re.compile(
    r"The (body|parameter) holds a NUL character \(\\u0000\)( at .+|: no stored .+)"
)


def _problem(response: Any) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


# Schemathesis's coverage phase builds header values of letters and digits only, so a
# header pattern that needs other characters (If-Match's quotes) gets a value that
# breaks it, labelled positive: such a refusal is right.
HEADER_PATTERNS = {"If-Match": IF_MATCH_PATTERN, "Idempotency-Key": IDEMPOTENCY_KEY_PATTERN}


def _breaks_a_header_pattern(case: Any, error: dict[str, Any]) -> bool:
    headers = {name.lower(): value for name, value in (case.headers or {}).items()}
    pattern = HEADER_PATTERNS.get(str(error.get("field")))
    value = headers.get(str(error.get("field")).lower())
    return not (pattern is None or value is None or re.fullmatch(pattern, str(value)))


def refused_for_the_state(failure: Any, case: Any, response: Any) -> bool:
    """A request the schema allows, answered 422 for the state it met: its
    Idempotency-Key came with another request before (the status the IETF draft
    on Idempotency-Key asks for), or it names something that does not exist; or for a
    NUL character in its body or query, which no store keeps."""
    if failure.code != "ST202" or response.status_code != 422:
        return False
    problem = _problem(response)
    if problem.get("title") == "Idempotency-Key reused":
        return True
    errors = problem.get("errors") or []
    return bool(errors) and all(
        _breaks_a_header_pattern(case, error)
        or MISSING_REFERENCE.fullmatch(str(error.get("message")))
        or HELD_NUL.fullmatch(str(error.get("message")))
        for error in errors
    )


LAX_TYPES: dict[str, Any] = {"integer": int, "number": float, "boolean": bool}


def a_query_read_leniently(failure: Any, case: Any, response: Any) -> bool:
    """A query the schema refuses, answered because the server read it as one the
    schema allows: pydantic's lax mode reads "0.0" as the integer 0, and one value of a
    list parameter is a list of one (a date or datetime is read only as ISO 8601 text, as
    in a body: 86400 is refused, never forgiven). Nothing else of the request was
    negated."""
    if failure.code != "ST201" or not 200 <= response.status_code < 300:
        return False
    components = case.meta.components if case.meta is not None else {}
    if any(
        location.value != "query" and info.mode.is_negative for location, info in components.items()
    ):
        return False
    operation = case.operation.schema.raw_schema["paths"][case.path][case.method.lower()]
    documented = {
        parameter["name"]: parameter.get("schema", {})
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query"
    }
    return all(
        name in documented
        and jsonschema_rs.validator_for(documented[name]).is_valid(
            _lax(_wire(value), documented[name])
        )
        for name, value in (case.query or {}).items()
    )


def _wire(value: Any) -> Any:
    """A query value as it is sent: text, or a list of texts (a repeated parameter)."""
    if isinstance(value, list):
        return [_wire(item) for item in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _lax(value: Any, schema: dict[str, Any]) -> Any:
    """``value`` as pydantic's lax mode reads it for ``schema`` (unchanged when no
    branch of the schema reads it)."""
    for branch in (schema, *schema.get("anyOf", ())):
        kind = branch.get("type")
        if kind == "array":
            items = value if isinstance(value, list) else [value]
            return [_lax(item, branch.get("items", {})) for item in items]
        if isinstance(value, list):
            continue
        read = None if branch.get("format") else LAX_TYPES.get(kind or "")
        if read is None:
            continue
        try:
            found = TypeAdapter(read).validate_python(value)
        except ValidationError:
            continue
        return found
    return value


def a_negation_the_schema_allows(failure: Any, case: Any, response: Any) -> bool:
    """Negative data in the body that the documented schema allows after all: negating
    one branch of a ``oneOf`` (IAM's conditions, one shape per operator) can give a value
    another branch takes, and the server rightly accepts it."""
    if failure.code != "ST201" or case.body is None:
        return False
    components = case.meta.components if case.meta is not None else {}
    if any(
        location.value != "body" and info.mode.is_negative for location, info in components.items()
    ):
        return False
    document = case.operation.schema.raw_schema
    content = document["paths"][case.path][case.method.lower()]["requestBody"]["content"]
    schema = content.get(case.media_type or "application/json", {}).get("schema")
    if schema is None:
        return False
    rooted = {**schema, "components": document.get("components", {})}
    return bool(jsonschema_rs.validator_for(rooted).is_valid(case.body))


DECIMAL_TEXT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def a_decimal_text_out_of_bounds(failure: Any, case: Any, response: Any) -> bool:
    """A decimal given as text beyond the field's bounds: JSON Schema cannot bound a
    string's numeric value, so the document states the bounds on the number form only
    (and the text form's digits and places by a pattern, which this text matched). A
    header the coverage phase broke may be refused beside it."""
    if failure.code != "ST202" or response.status_code != 422:
        return False
    errors = _problem(response).get("errors") or []
    return bool(errors) and all(
        _breaks_a_header_pattern(case, error)
        or (
            isinstance(_at(case.body, str(error.get("field"))), str)
            and DECIMAL_TEXT.fullmatch(str(_at(case.body, str(error.get("field")))))
        )
        for error in errors
    )


def _at(body: Any, path: str) -> Any:
    """The value at a problem's field path (``lines.0.unitPrice``) of a JSON body."""
    for step in path.split("."):
        if isinstance(body, dict):
            body = body.get(step)
        elif isinstance(body, list) and step.isdigit() and int(step) < len(body):
            body = body[int(step)]
        else:
            return None
    return body


def a_rule_the_operation_states(failure: Any, case: Any, response: Any) -> bool:
    """A 422 for rules JSON Schema cannot state (an appointment ends after it starts, a
    birth date is in the past), each listed in the operation's description, beside which
    the same answer may list references to what does not exist and headers that break
    their patterns (one answer lists every broken rule)."""
    if failure.code != "ST202" or response.status_code != 422:
        return False
    operation = case.operation.schema.raw_schema["paths"][case.path][case.method.lower()]
    described = operation.get("description", "")
    errors = _problem(response).get("errors") or []
    return bool(errors) and all(
        f"- {error.get('message')}" in described
        or MISSING_REFERENCE.fullmatch(str(error.get("message")))
        or _breaks_a_header_pattern(case, error)
        for error in errors
    )


def run_schemathesis(
    app: FastAPI | str, token: str, *tolerated: Tolerated, examples: int = MAX_EXAMPLES
) -> Run:
    """Run schemathesis on ``app`` (its lifespan runs for the run), or on the service
    running at the URL ``app``, dropping the failures that ``refused_for_the_state`` or
    ``tolerated`` forgive before they are deduplicated (a forgiven failure hides no other
    of its kind)."""
    config = contract_config(token, examples)
    schema = (
        schemathesis.openapi.from_url(f"{app}/openapi.json", config=config)
        if isinstance(app, str)
        else schemathesis.openapi.from_asgi("/openapi.json", app, config=config)
    )
    forgiven = (
        refused_for_the_state,
        a_query_read_leniently,
        a_negation_the_schema_allows,
        a_decimal_text_out_of_bounds,
        a_rule_the_operation_states,
        *tolerated,
    )

    def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
        return not any(forgive(failure, case, response) for forgive in forgiven)

    schema.hook(filter_failure)
    run = Run()
    started = time.monotonic()
    try:
        for event in schemathesis.engine.from_schema(schema).execute():
            _record(run, event)
    finally:
        asgi.shutdown_lifespans()
    run.seconds = time.monotonic() - started
    print(run.summary())
    return run


def _record(run: Run, event: events.EngineEvent) -> None:
    if isinstance(event, events.ScenarioFinished | events.FuzzScenarioFinished):
        recorder = event.recorder
        run.cases += len(recorder.cases)
        if recorder.label != "Stateful tests":
            run.operations.add(recorder.label)
        for case_id, checks in recorder.checks.items():
            for check in checks:
                if check.failure_info is not None:
                    interaction = recorder.interactions.get(case_id)
                    response = interaction.response if interaction else None
                    run.failures.append(_describe(recorder.label, check.failure_info, response))
    elif isinstance(event, events.NonFatalError):
        run.failures.append(f"{event.label}: error {event.info.format()}")
    elif isinstance(event, events.FatalError):
        run.failures.append(f"fatal: {event.exception!r}")


def _describe(label: str, info: Any, response: Any) -> str:
    failure = info.failure
    answer = ""
    if response is not None:
        body = (response.content or b"")[:500].decode("utf-8", "replace")
        answer = f"\n  -> {response.status_code} {body}"
    return (
        f"{label}: [{failure.code}] {failure.title}\n  {failure.message}\n"
        f"  {info.code_sample}{answer}"
    )


def assert_no_failure(run: Run, operations: int) -> None:
    assert len(run.operations) >= operations, sorted(run.operations)
    assert run.cases > operations * 5, run.summary()
    assert not run.failures, run.summary() + "\n\n" + "\n\n".join(dict.fromkeys(run.failures))


def bearer_token(key_ring: KeyRing, permissions: list[str]) -> str:
    """An access token of tenant ``default`` holding ``permissions``."""
    issuer = TokenIssuer(key_ring, issuer=ISSUER, default_audience=AUDIENCE)
    return issuer.issue(
        subject="contract-tests",
        client_id="tests",
        tenant_id="default",
        permissions=permissions,
    ).token


def service_environ(tmp_path: Path) -> dict[str, str]:
    return {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'service.db'}",
        "BROKER_RELAY": "false",
        "BROKER_CONSUME": "false",
        "LOG_LEVEL": "CRITICAL",
    }


def test_user_profile_keeps_its_openapi_promises(tmp_path: Path) -> None:
    from user_profile.infrastructure.config import load_settings
    from user_profile.main import create_app

    key_ring = KeyRing.generate()
    iam = IamClient(jwks=key_ring.jwks(), issuer=ISSUER, audience=AUDIENCE)
    app = create_app(load_settings(service_environ(tmp_path)), iam=iam)
    token = bearer_token(key_ring, ["user-profile:read", "user-profile:write"])

    assert_no_failure(run_schemathesis(app, token), operations=5)


# The token endpoint refuses well-formed requests whose credentials are wrong with these
# errors (RFC 6749 §5.2): the schema states the request's shape, not which accounts exist.
CREDENTIAL_ERRORS = frozenset({"invalid_grant", "invalid_client", "unauthorized_client"})


def _credentials_refused(failure: Any, case: Any, response: Any) -> bool:
    if failure.code != "ST202" or case.path not in (
        "/api/v1/auth/token",
        "/realms/{realm}/token",
    ):
        return False
    return _problem(response).get("error") in CREDENTIAL_ERRORS


def _browser_request_refused(failure: Any, case: Any, response: Any) -> bool:
    # A realm's pages answer an unknown client, redirect URI or form (the state the
    # request met) with an error page, never a redirect.
    return (
        failure.code == "ST202"
        and case.path.startswith("/realms/{realm}/")
        and response.status_code == 400
        and response.headers.get("content-type", [""])[0].startswith("text/html")
    )


def _disabled_not_deleted(failure: Any, case: Any, response: Any) -> bool:
    # DELETE of a policy or a service account disables it, as its operation says: it
    # stays readable with status DISABLED.
    return failure.code == "ST301" and _problem(response).get("status") == "DISABLED"


def _no_ldap_provider_yet(failure: Any, case: Any, response: Any) -> bool:
    # A tenant's LDAP provider is its own PUT, not made by the POST that creates the tenant.
    return failure.code == "ST302" and case.path == "/api/v1/tenants/{tenantId}/ldap"


def _no_ldap_directory(failure: Any, case: Any, response: Any) -> bool:
    # A provider the run configured names a directory that does not exist: its sync
    # answers the documented 503, as it would in a deployment whose directory is down.
    return (
        failure.code == "ST101"
        and response.status_code == 503
        and case.path == "/api/v1/tenants/{tenantId}/ldap/sync"
        and _problem(response).get("title") == "LDAP directory unavailable"
    )


IAM_TOLERATED = (
    _credentials_refused,
    _disabled_not_deleted,
    _no_ldap_provider_yet,
    _no_ldap_directory,
    _browser_request_refused,
)
"""What the IAM answers as its operations say, in process and over the wire alike."""


def test_iam_keeps_its_openapi_promises(tmp_path: Path) -> None:
    from iam.infrastructure.config import load_settings
    from iam.main import create_app

    settings = load_settings(
        {
            **service_environ(tmp_path),
            "SECURITY_KEYS_FILE": str(tmp_path / "keys.json"),
            "SECURITY_PASSWORD_HASHING_TIME_COST": "1",
            "SECURITY_PASSWORD_HASHING_MEMORY_COST": "8",
            "SECURITY_PASSWORD_HASHING_PARALLELISM": "1",
            "IAM_PLATFORM_ADMIN_USERNAME": PLATFORM_ADMIN[0],
            "IAM_PLATFORM_ADMIN_PASSWORD": PLATFORM_ADMIN[1],
        }
    )
    app = create_app(settings)
    with TestClient(app) as http:
        granted = http.post(
            "/api/v1/auth/token",
            data={
                "grant_type": "password",
                "tenant": "platform",
                "username": PLATFORM_ADMIN[0],
                "password": PLATFORM_ADMIN[1],
            },
        )
    assert granted.status_code == 200, granted.text

    token = granted.json()["access_token"]
    run = run_schemathesis(app, token, *IAM_TOLERATED)

    assert_no_failure(run, operations=30)


EXAMPLES = sorted((REPO / "specs/examples").glob("*.yaml")) + sorted(
    (REPO / "tests/fixtures/unseen").glob("*.yaml")
)


@pytest.fixture(params=EXAMPLES, ids=lambda path: path.stem)
def example(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, list[str], int]]:
    """An example of specs/examples rendered into ``tmp_path``, importable: its package,
    every permission its endpoints ask for, and how many endpoints it declares."""
    spec_path: Path = request.param
    data, _ = parse_yaml(spec_path.read_text(encoding="utf-8"), str(spec_path))
    spec = load_spec(spec_path)
    package = spec.name.replace("-", "_")
    target = tmp_path / spec.name
    render_new(Blueprint(REPO, "service"), spec, data, target, src_path=".")
    permissions = sorted({e.permission for e in spec.endpoints if e.permission})
    sys.path.insert(0, str(target / "src"))
    try:
        yield package, permissions, len(spec.endpoints)
    finally:
        sys.path.remove(str(target / "src"))
        for name in [name for name in sys.modules if name.partition(".")[0] == package]:
            del sys.modules[name]


def test_every_example_keeps_its_openapi_promises(
    example: tuple[str, list[str], int], tmp_path: Path
) -> None:
    package, permissions, endpoints = example
    config = importlib.import_module(f"{package}.infrastructure.config")
    main = importlib.import_module(f"{package}.main")
    key_ring = KeyRing.generate()
    iam = IamClient(jwks=key_ring.jwks(), issuer=ISSUER, audience=AUDIENCE)
    app = main.create_app(config.load_settings(service_environ(tmp_path)), iam=iam)
    token = bearer_token(key_ring, permissions)

    assert_no_failure(run_schemathesis(app, token), operations=endpoints)


# Over the wire: fewer examples per operation, since each is a real HTTP round trip.
RUNNING_EXAMPLES = 10


def test_the_running_services_keep_their_openapi_promises(tmp_path: Path) -> None:
    """The IAM and the sample as server processes (uvicorn, SQLite, a real nats-server),
    the sample validating the IAM's tokens against its JWKS: schemathesis over HTTP on
    both, as the platform administrator and as a tenant administrator."""
    import anyio
    import httpx
    from eaf.messaging.embedded import EmbeddedNats
    from helpers import Service, free_port, iam_environ

    async def start_broker() -> EmbeddedNats:
        broker = EmbeddedNats(tmp_path / "nats")
        await broker.start()
        return broker

    broker = anyio.run(start_broker)
    iam_url = f"http://127.0.0.1:{free_port()}"
    common = {"BROKER_URL": broker.url, "LOGGING_FORMAT": "json"}
    iam = Service(
        "iam",
        tmp_path / "iam.log",
        {**common, **iam_environ(tmp_path, iam_url, PLATFORM_ADMIN)},
        port=int(iam_url.rpartition(":")[2]),
    )
    profiles = Service(
        "user_profile",
        tmp_path / "user-profile.log",
        {
            **common,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'profiles.db'}",
            "SECURITY_IAM_URL": iam_url,
        },
    )
    try:
        iam.wait_ready()
        profiles.wait_ready()
        with httpx.Client(base_url=iam_url) as http:

            def password_grant(tenant: str, username: str, password: str) -> str:
                granted = http.post(
                    "/api/v1/auth/token",
                    data={
                        "grant_type": "password",
                        "tenant": tenant,
                        "username": username,
                        "password": password,
                    },
                )
                assert granted.status_code == 200, granted.text
                return str(granted.json()["access_token"])

            platform = password_grant("platform", *PLATFORM_ADMIN)
            created = http.post(
                "/api/v1/tenants",
                json={
                    "name": "contracts",
                    "adminUsername": "ada",
                    "adminEmail": "ada@example.com",
                    "adminPassword": "ada-password-1",
                },
                headers={"Authorization": f"Bearer {platform}"},
            )
            assert created.status_code == 201, created.text
            tenant_admin = password_grant("contracts", "ada", "ada-password-1")

        sample = run_schemathesis(profiles.url, tenant_admin, examples=RUNNING_EXAMPLES)
        assert_no_failure(sample, operations=5)
        run = run_schemathesis(iam.url, platform, *IAM_TOLERATED, examples=RUNNING_EXAMPLES)
        assert_no_failure(run, operations=30)
        for service in (iam, profiles):
            assert service.lines(), service.log.name  # JSON log lines, read below
            errors = [
                line
                for line in service.lines()
                if str(line.get("level")).upper() in ("ERROR", "CRITICAL")
                or "Traceback" in str(line)
            ]
            assert errors == [], service.log.name
    finally:
        profiles.stop()
        iam.stop()
        anyio.run(broker.stop)
