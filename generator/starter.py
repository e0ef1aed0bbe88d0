"""The starter spec written by `generate service` without --spec: the sample profile service."""

from __future__ import annotations

from generator import naming

_STARTER = """\
# yaml-language-server: $schema={schema}
# The spec of {name}. Edit it, then run `generate render {name}`.
version: 2
name: {name}
kind: {kind}
description: Sample {title} records of a tenant
{port_line}
aggregates:
  {aggregate}:
    not_found: {noun_title} not found
    event_id: {noun}Id
    fields:
      name:
        type: str
        not_blank: true
        max_length: 200
        messages: {{not_blank: Name cannot be blank}}
      email:
        type: str
        contains: "@"
        max_length: 320
        messages: {{contains: Email must be valid}}
    commands:
      create: {{params: [name, email], emits: {aggregate}Created, creates: true}}
      updateProfile: {{params: [name, email], emits: {aggregate}Updated}}

events:
  {aggregate}Created:
    version: 1
    fields: {{{noun}Id: uuid, name: str, email: str, occurredAt: datetime}}
  {aggregate}Updated:
    version: 1
    fields: {{{noun}Id: uuid, name: str, email: str, occurredAt: datetime}}
{app_part}"""

_APP_PART = """
read_models:
  {aggregate}List:
    of: {aggregate}

# A permission on an endpoint: callers need an IAM bearer token granting it; the tenant
# comes from the token. (Without permissions the service takes X-Tenant-Id: development only.)
endpoints:
  - method: POST
    path: {base}
    command: {aggregate}.create
    permission: "{name}:write"
  - {{method: GET, path: {base}, query: {aggregate}.list, page: true, permission: "{name}:read"}}
  - {{method: GET, path: "{base}/{{id}}", query: {aggregate}.get, permission: "{name}:read"}}
  - method: PUT
    path: "{base}/{{id}}"
    command: {aggregate}.updateProfile
    permission: "{name}:write"
"""


def starter_spec(name: str, kind: str, schema_ref: str) -> str:
    """The sample spec named after ``name`` (``user-profile`` gives the reference sample)."""
    noun = next((w for w in reversed(naming.words(name)) if w[0].isalpha()), "item")
    if noun.endswith("s") and len(noun) > 3:
        noun = noun[:-1]
    fields = {
        "name": name,
        "kind": kind,
        "title": " ".join(naming.words(name)),
        "aggregate": naming.sample_aggregate(name),
        "pascal": naming.pascal(name),
        "noun": noun,
        "noun_title": noun.capitalize(),
        "schema": schema_ref,
        "base": f"/api/v1/{name}" if name.endswith("s") else f"/api/v1/{name}s",
        "port_line": "port: 8080\n" if kind == "app" else "",
    }
    fields["app_part"] = _APP_PART.format(**fields) if kind == "app" else ""
    return _STARTER.format(**fields)
