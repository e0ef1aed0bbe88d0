# Generated from spec iam by `generate`; edits are merged on re-render.

"""Request and response bodies of the HTTP API. Request models state every rule the domain
enforces that JSON Schema can say (patterns, lengths, bounds, enums), so the OpenAPI
document tells clients what the service accepts."""

from __future__ import annotations

from typing import Annotated

from eaf.web import (
    Body,
    JsonBool,
    JsonData,
    TextRule,
    View,
    patch_field,
)
from pydantic import AwareDatetime, Field, JsonValue, TypeAdapter

from iam.domain.types import (
    ClientType,
    ConditionOperator,
    GrantType,
    PolicyEffect,
    TenantStatus,
)


class RotatedKeysBody(Body):
    """A rotated keys."""

    kid: str = Field(alias="kid")
    published: list[str] = Field(alias="published")


class CheckAnswerBody(Body):
    """A check answer."""

    allowed: JsonBool = Field(alias="allowed")
    reason: str = Field(alias="reason")


class PolicyConditionBody(Body):
    """A policy condition."""

    attribute: Annotated[
        str,
        TextRule(
            "^(?:(?:user|resource|env)(?:\\.[^.]+)+)$",
            pattern="^(?:(?:user|resource|env)(?:\\.[^.]+)+)$",
        ),
    ] = Field(alias="attribute")
    op: ConditionOperator = Field(alias="op")
    value_: JsonData | None = Field(alias="value", default=None)
    value_of: (
        Annotated[
            str,
            TextRule(
                "^(?:(?:user|resource|env)(?:\\.[^.]+)+)$",
                pattern="^(?:(?:user|resource|env)(?:\\.[^.]+)+)$",
            ),
        ]
        | None
    ) = Field(alias="valueOf", default=None)


class PolicyConditionView(View):
    """A PolicyCondition as a view shows it: as stored, checking no rule."""

    attribute: str = Field(alias="attribute")
    op: ConditionOperator = Field(alias="op")
    value_: JsonValue | None = Field(alias="value")
    value_of: str | None = Field(alias="valueOf")


class NewTenant(Body):
    """The body of POST /api/v1/tenants."""

    name: Annotated[
        str,
        TextRule(
            "^(?=[\\s\\S]*[^\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff])",
            not_blank=True,
        ),
    ] = Field(alias="name", max_length=100)
    admin_username: Annotated[
        str,
        TextRule("^(?:[A-Za-z0-9._@-]{1,64})$", pattern="^(?:[A-Za-z0-9._@-]{1,64})$"),
    ] = Field(alias="adminUsername")
    admin_email: Annotated[str, TextRule("^(?=[\\s\\S]*@)", contains="@")] = Field(
        alias="adminEmail"
    )
    admin_password: str = Field(alias="adminPassword", min_length=8)


class CheckRequest(Body):
    """The body of POST /api/v1/authz/check."""

    permission: Annotated[
        str,
        TextRule(
            "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            pattern="^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
        ),
    ] = Field(alias="permission")
    resource: dict[str, JsonData] = Field(alias="resource", default_factory=lambda: {})
    env: dict[str, JsonData] = Field(alias="env", default_factory=lambda: {})
    subject: str | None = Field(alias="subject", default=None)
    tenant_: str | None = Field(
        alias="tenant",
        default=None,
        description="the subject's tenant (id or name), when a platform caller asks for a tenant's subject; without it, the subject is a platform user",
    )


class TenantPatch(Body):
    """The body of PATCH /api/v1/tenants/{tenantId}: a merge patch, what it
    leaves out keeps its value."""

    status: TenantStatus = patch_field(alias="status")


class NewUser(Body):
    """The body of POST /api/v1/tenants/{tenantId}/users."""

    username: Annotated[
        str,
        TextRule("^(?:[A-Za-z0-9._@-]{1,64})$", pattern="^(?:[A-Za-z0-9._@-]{1,64})$"),
    ] = Field(alias="username")
    email: Annotated[str, TextRule("^(?=[\\s\\S]*@)", contains="@")] = Field(
        alias="email"
    )
    password: str = Field(
        alias="password",
        min_length=8,
        json_schema_extra={"writeOnly": True, "format": "password"},
        repr=False,
    )
    roles: list[
        Annotated[str, TextRule("^(?:[ -~]{1,64})$", pattern="^(?:[ -~]{1,64})$")]
    ] = Field(alias="roles", default_factory=lambda: ["user"])
    attributes: dict[str, str] = Field(alias="attributes", default_factory=lambda: {})


class ChangeUserPatch(Body):
    """The body of PATCH /api/v1/tenants/{tenantId}/users/{userId}: a merge patch, what it
    leaves out keeps its value."""

    status: str = patch_field(alias="status")
    roles: list[
        Annotated[str, TextRule("^(?:[ -~]{1,64})$", pattern="^(?:[ -~]{1,64})$")]
    ] = patch_field(alias="roles")
    attributes: dict[str, str] = patch_field(alias="attributes")
    password: str = patch_field(
        alias="password",
        min_length=8,
        json_schema_extra={"writeOnly": True, "format": "password"},
        repr=False,
    )


class NewRole(Body):
    """The body of POST /api/v1/tenants/{tenantId}/roles."""

    name: Annotated[str, TextRule("^(?:[ -~]{1,64})$", pattern="^(?:[ -~]{1,64})$")] = (
        Field(alias="name")
    )
    permissions: list[
        Annotated[
            str,
            TextRule(
                "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
                pattern="^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            ),
        ]
    ] = Field(alias="permissions")
    description: str = Field(alias="description", default="")


class ChangeRolePatch(Body):
    """The body of PATCH /api/v1/tenants/{tenantId}/roles/{roleId}: a merge patch, what it
    leaves out keeps its value."""

    permissions: list[
        Annotated[
            str,
            TextRule(
                "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
                pattern="^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            ),
        ]
    ] = patch_field(alias="permissions")
    description: str = patch_field(alias="description")


class ChangeRoleRequest(Body):
    """The body of PUT /api/v1/tenants/{tenantId}/roles/{roleId}."""

    permissions: list[
        Annotated[
            str,
            TextRule(
                "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
                pattern="^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            ),
        ]
    ] = Field(alias="permissions")
    description: str = Field(alias="description", default="")


class NewPolicy(Body):
    """The body of POST /api/v1/tenants/{tenantId}/policies."""

    name: str = Field(alias="name")
    effect: PolicyEffect = Field(alias="effect")
    permissions: list[
        Annotated[
            str,
            TextRule(
                "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
                pattern="^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            ),
        ]
    ] = Field(alias="permissions", min_length=1)
    conditions: list[PolicyConditionBody] = Field(
        alias="conditions",
        default_factory=lambda: TypeAdapter(list[PolicyConditionBody]).validate_python(
            []
        ),
    )


class PolicyRule(Body):
    """The body of PUT /api/v1/tenants/{tenantId}/policies/{policyId}."""

    effect: PolicyEffect = Field(alias="effect")
    permissions: list[
        Annotated[
            str,
            TextRule(
                "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
                pattern="^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            ),
        ]
    ] = Field(alias="permissions", min_length=1)
    conditions: list[PolicyConditionBody] = Field(
        alias="conditions",
        default_factory=lambda: TypeAdapter(list[PolicyConditionBody]).validate_python(
            []
        ),
    )


class NewServiceAccount(Body):
    """The body of POST /api/v1/tenants/{tenantId}/service-accounts."""

    client_id: Annotated[
        str,
        TextRule("^(?:[A-Za-z0-9._@-]{1,64})$", pattern="^(?:[A-Za-z0-9._@-]{1,64})$"),
    ] = Field(alias="clientId")
    roles: list[
        Annotated[str, TextRule("^(?:[ -~]{1,64})$", pattern="^(?:[ -~]{1,64})$")]
    ] = Field(alias="roles", default_factory=lambda: [])


class NewClient(Body):
    """The body of POST /api/v1/tenants/{tenantId}/clients."""

    client_id: Annotated[
        str,
        TextRule("^(?:[A-Za-z0-9._@-]{1,64})$", pattern="^(?:[A-Za-z0-9._@-]{1,64})$"),
    ] = Field(alias="clientId")
    name: str = Field(alias="name", default="", max_length=100)
    client_type: ClientType = Field(alias="clientType")
    grant_types: list[GrantType] = Field(
        alias="grantTypes",
        default_factory=lambda: TypeAdapter(list[GrantType]).validate_python(
            ["authorization_code"]
        ),
        min_length=1,
    )
    redirect_uris: list[
        Annotated[
            str,
            Field(max_length=2000),
            TextRule(
                "^(?:(?:https://[^\\x00-\\x20\\x7f#/?@]+|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])(?::[0-9]{1,5})?)(?:[/?][^\\x00-\\x20\\x7f#]*)?)$",
                pattern="^(?:(?:https://[^\\x00-\\x20\\x7f#/?@]+|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])(?::[0-9]{1,5})?)(?:[/?][^\\x00-\\x20\\x7f#]*)?)$",
            ),
        ]
    ] = Field(alias="redirectUris", default_factory=lambda: [], max_length=20)
    post_logout_redirect_uris: list[
        Annotated[
            str,
            Field(max_length=2000),
            TextRule(
                "^(?:(?:https://[^\\x00-\\x20\\x7f#/?@]+|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])(?::[0-9]{1,5})?)(?:[/?][^\\x00-\\x20\\x7f#]*)?)$",
                pattern="^(?:(?:https://[^\\x00-\\x20\\x7f#/?@]+|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])(?::[0-9]{1,5})?)(?:[/?][^\\x00-\\x20\\x7f#]*)?)$",
            ),
        ]
    ] = Field(alias="postLogoutRedirectUris", default_factory=lambda: [], max_length=20)
    scopes: list[
        Annotated[
            str,
            TextRule(
                "^(?:openid|profile|email|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
                pattern="^(?:openid|profile|email|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            ),
        ]
    ] = Field(alias="scopes", default_factory=lambda: ["openid", "profile", "email"])
    first_party: JsonBool = Field(alias="firstParty", default=False)


class Tenant(View):
    """A tenant."""

    id: str = Field(alias="tenantId", description="identifier")
    name: str = Field(alias="name")
    admin_user_id: str = Field(alias="adminUserId")
    status: TenantStatus = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class User(View):
    """A user."""

    id: str = Field(alias="userId", description="identifier")
    tenant_id: str = Field(alias="tenantId", description="the tenant")
    username: str = Field(alias="username")
    email: str = Field(alias="email")
    roles: list[str] = Field(alias="roles")
    attributes: dict[str, str] = Field(alias="attributes")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Role(View):
    """A role."""

    id: str = Field(alias="roleId", description="identifier")
    name: str = Field(alias="name")
    permissions: list[str] = Field(alias="permissions")
    description: str = Field(alias="description")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class Policy(View):
    """A policy."""

    id: str = Field(alias="policyId", description="identifier")
    name: str = Field(alias="name")
    effect: PolicyEffect = Field(alias="effect")
    permissions: list[str] = Field(alias="permissions")
    conditions: list[PolicyConditionView] = Field(alias="conditions")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class ServiceAccount(View):
    """A service account."""

    id: str = Field(alias="serviceAccountId", description="identifier")
    tenant_id: str = Field(alias="tenantId", description="the tenant")
    client_id: str = Field(alias="clientId")
    roles: list[str] = Field(alias="roles")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class RegisteredClient(View):
    """A registered client."""

    id: str = Field(alias="clientUuid", description="identifier")
    tenant_id: str = Field(alias="tenantId", description="the tenant")
    client_id: str = Field(alias="clientId")
    name: str = Field(alias="name")
    client_type: ClientType = Field(alias="clientType")
    grant_types: list[GrantType] = Field(alias="grantTypes")
    redirect_uris: list[str] = Field(alias="redirectUris")
    post_logout_redirect_uris: list[str] = Field(alias="postLogoutRedirectUris")
    scopes: list[str] = Field(alias="scopes")
    first_party: JsonBool = Field(alias="firstParty")
    status: str = Field(alias="status")
    created_at: AwareDatetime = Field(alias="createdAt")
    updated_at: AwareDatetime = Field(alias="updatedAt")


class ServiceAccountWithClientSecret(ServiceAccount):
    """The ServiceAccount and the secret its command made, shown this once: only its hash is kept."""

    client_secret: str | None = Field(
        alias="clientSecret",
        description="shown this once: only its hash is kept (null in the answer to a replayed request, whose first answer showed it)",
    )


class RegisteredClientWithClientSecret(RegisteredClient):
    """The RegisteredClient and the secret its command made, shown this once: only its hash is kept."""

    client_secret: str | None = Field(
        alias="clientSecret",
        description="made only when clientType == 'confidential', else null; shown this once: only its hash is kept (null in the answer to a replayed request, whose first answer showed it)",
    )
