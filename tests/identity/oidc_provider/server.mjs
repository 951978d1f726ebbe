// A real OpenID provider (panva/oidc-provider) for boundloop's identity tests, on 127.0.0.1 only.
// Usage: node server.mjs PORT USERS_JSON REDIRECT_URIS (comma-separated)
//   USERS_JSON: {"alice": {"groups": ["engineering"]}, ...}; the development login form accepts any password.
// Clients: "boundloop" signs ID tokens with RS256, "boundloop-es" with ES256, "boundloop-ps" with PS256.
// Prints "ready <issuer>" on stdout once it listens.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';

import Provider from 'oidc-provider';

const [port, usersFile, redirectList] = process.argv.slice(2);
const redirectUris = redirectList.split(',');
const users = JSON.parse(readFileSync(usersFile, 'utf8'));
const issuer = `http://127.0.0.1:${port}`;

function jwk(type, options, kid) {
  const { privateKey } = generateKeyPairSync(type, options);
  return { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig' };
}

const client = (id, alg) => ({
  client_id: id,
  client_secret: 'test-secret-not-for-production-0123456789',
  redirect_uris: redirectUris,
  post_logout_redirect_uris: redirectUris.map((uri) => uri.replace(/auth\/callback$/, '')),
  grant_types: ['authorization_code'],
  response_types: ['code'],
  id_token_signed_response_alg: alg,
});

const provider = new Provider(issuer, {
  clients: [client('boundloop', 'RS256'), client('boundloop-es', 'ES256'), client('boundloop-ps', 'PS256')],
  jwks: {
    keys: [
      jwk('rsa', { modulusLength: 2048 }, 'rsa-1'),
      jwk('ec', { namedCurve: 'P-256' }, 'ec-1'),
    ],
  },
  enabledJWA: { idTokenSigningAlgValues: ['RS256', 'ES256', 'PS256'] },
  claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
  conformIdTokenClaims: false, // the ID token carries the profile claims itself
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(ctx, sub) {
    if (!Object.hasOwn(users, sub)) return undefined;
    return {
      accountId: sub,
      async claims() {
        return { sub, preferred_username: sub, groups: users[sub].groups };
      },
    };
  },
  // A first-party client: consent is given on the user's behalf, so the tests sign in with one form.
  async loadExistingGrant(ctx) {
    const { client: rp, session } = ctx.oidc;
    const grantId = ctx.oidc.result?.consent?.grantId || session.grantIdFor(rp.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: rp.clientId, accountId: session.accountId });
    grant.addOIDCScope('openid profile');
    grant.addOIDCClaims(['preferred_username', 'groups']);
    await grant.save();
    return grant;
  },
});

provider.listen(Number(port), '127.0.0.1', () => {
  console.log(`ready ${issuer}`);
});
