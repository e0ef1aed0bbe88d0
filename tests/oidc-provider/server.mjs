// An external OpenID provider for the IAM's brokering tests: the OpenID-certified
// oidc-provider with one confidential client whose redirect URI is on the IAM, one
// static account, and its development login form (any password; consent is implied).
// Settings come from the environment; "listening <issuer>" on stdout means ready.
import Provider from "oidc-provider";

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const account = {
  sub: process.env.ACCOUNT_SUB ?? "ext-ada",
  email: process.env.ACCOUNT_EMAIL ?? "ada@example.com",
  email_verified: (process.env.ACCOUNT_EMAIL_VERIFIED ?? "true") === "true",
  name: "Ada Lovelace",
  preferred_username: process.env.ACCOUNT_USERNAME ?? "ada",
  groups: (process.env.ACCOUNT_GROUPS ?? "admins").split(",").filter(Boolean),
};

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.CLIENT_ID,
      client_secret: process.env.CLIENT_SECRET,
      redirect_uris: process.env.REDIRECT_URIS.split(","),
      token_endpoint_auth_method: process.env.CLIENT_AUTH_METHOD ?? "client_secret_basic",
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  claims: {
    openid: ["sub"],
    email: ["email", "email_verified"],
    profile: ["name", "preferred_username"],
    groups: ["groups"],
  },
  scopes: ["openid", "email", "profile", "groups"],
  // the claims of the granted scopes go into the ID token, as most providers do
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(ctx, id) {
    if (id !== account.sub) return undefined;
    return { accountId: id, claims: async () => ({ ...account }) };
  },
  // a first-party client: every scope asked for is granted without a consent prompt
  async loadExistingGrant(ctx) {
    const { client, session } = ctx.oidc;
    const grantId = session.grantIdFor(client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({
      clientId: client.clientId,
      accountId: session.accountId,
    });
    grant.addOIDCScope("openid email profile groups");
    await grant.save();
    session.grantIdFor(client.clientId, grant.jti);
    return grant;
  },
});

provider.listen(port, "127.0.0.1", () => {
  console.log(`listening ${issuer}`);
});
