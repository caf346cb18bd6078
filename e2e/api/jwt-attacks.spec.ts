import { SignJWT, type JWTPayload } from 'jose';
import type { APIRequestContext } from '@playwright/test';
import { headers, tokenFor, ALL_SCOPES } from '../support/api-client';
import { expect, test } from '../support/contract';
import { BASE_URL, createMerchant, operator } from '../support/service';
import {
  b64url,
  call,
  claimsFor,
  endpointsFor,
  expectRejectedEverywhere,
  jwtParts,
  merchantWithOperations,
  ownEs256Key,
  publicPem,
  serverJwks,
  serverSigningKey,
  signEs256,
  signHs256,
} from './auth-helpers';

// Every attack on the access token, in one table (docs/DESIGN.md 3 and 5): each forged token is
// refused with 401 20 and WWW-Authenticate: Bearer on all six endpoints, and changes nothing.
// The suite's services sign with e2e/support/test-signing-key.json, so a token can be correctly
// signed by the service's own key and wrong in exactly one respect: its refusal proves that
// respect is checked. Unit tests of the verifier: src/server/modules/access/jwt.test.ts.

type Target = Awaited<ReturnType<typeof targetFor>>;
type Key = { kid: string; privateKey: CryptoKey };
type Forge = (target: Target, key: Key) => Promise<Record<string, string>>;

const now = () => Math.floor(Date.now() / 1000);
const claimsOf = (target: Target, overrides: JWTPayload = {}) =>
  claimsFor(target.merchant.code, target.merchant.clientId, overrides);

/** Signed (ES256) by the service's key over this header and payload, exactly as given: no library checks. */
async function signRaw(key: Key, header: Record<string, unknown>, payload: JWTPayload): Promise<string> {
  const input = `${b64url(JSON.stringify({ alg: 'ES256', ...header }))}.${b64url(JSON.stringify(payload))}`;
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, new TextEncoder().encode(input));
  return `${input}.${b64url(new Uint8Array(signature))}`;
}

function withoutClaim(payload: JWTPayload, claim: string): JWTPayload {
  const { [claim]: _removed, ...rest } = payload;
  return rest;
}

/** The token's header and payload re-encoded with changes, the original signature kept. */
function edited(token: string, change: { header?: Record<string, unknown>; payload?: JWTPayload }): string {
  const { header, payload, signature } = jwtParts(token);
  return `${b64url(JSON.stringify({ ...header, ...change.header }))}.${b64url(JSON.stringify({ ...payload, ...change.payload }))}.${signature}`;
}

const ATTACKS: { name: string; forge: Forge }[] = [
  {
    name: 'alg none (none, None, NONE), valid claims',
    forge: async (target) =>
      Object.fromEntries(
        ['none', 'None', 'NONE'].map((alg) => [
          alg,
          `${edited(target.token, { header: { alg } }).split('.').slice(0, 2).join('.')}.`,
        ]),
      ),
  },
  {
    name: 'algorithm confusion: HS256 keyed with the public key (JWK JSON, SPKI PEM, x coordinate)',
    forge: async (target) => {
      const [jwk] = target.jwks;
      const payload = jwtParts(target.token).payload;
      return {
        'JWK JSON': await signHs256(JSON.stringify(jwk), jwk!.kid!, payload),
        PEM: await signHs256(await publicPem(jwk!), jwk!.kid!, payload),
        x: await signHs256(jwk!.x!, jwk!.kid!, payload),
      };
    },
  },
  {
    name: 'alg header switched (ES384, RS256, HS256, EdDSA) over the original signature',
    forge: async (target) =>
      Object.fromEntries(['ES384', 'RS256', 'HS256', 'EdDSA'].map((alg) => [alg, edited(target.token, { header: { alg } })])),
  },
  {
    name: 'signature stripped (empty third part, two parts)',
    forge: async (target) => {
      const [header, payload] = target.token.split('.');
      return { empty: `${header}.${payload}.`, 'two parts': `${header}.${payload}` };
    },
  },
  {
    name: 'signed by another key (random kid, the service kid)',
    forge: async (target, key) => {
      const own = await ownEs256Key();
      return {
        'random kid': await signEs256(own.privateKey, crypto.randomUUID(), claimsOf(target)),
        'service kid': await signEs256(own.privateKey, key.kid, claimsOf(target)),
      };
    },
  },
  {
    name: 'embedded key headers (jwk, jku, x5u) naming an attacker key',
    forge: async (target, key) => {
      const own = await ownEs256Key();
      const sign = (extra: Record<string, unknown>) =>
        new SignJWT(claimsOf(target)).setProtectedHeader({ alg: 'ES256', kid: key.kid, ...extra }).sign(own.privateKey);
      return {
        jwk: await sign({ jwk: own.publicJwk }),
        jku: await sign({ jku: 'https://evil.example/jwks.json' }),
        x5u: await sign({ x5u: 'https://evil.example/cert.pem' }),
      };
    },
  },
  {
    name: 'expired five seconds ago (service key)',
    forge: async (target, key) => ({
      expired: await signEs256(key.privateKey, key.kid, claimsOf(target, { iat: now() - 605, exp: now() - 5 })),
    }),
  },
  {
    name: 'not valid before ten minutes from now: nbf (service key)',
    forge: async (target, key) => ({ nbf: await signEs256(key.privateKey, key.kid, claimsOf(target, { nbf: now() + 600 })) }),
  },
  {
    name: 'issued ten minutes in the future: iat (service key)',
    forge: async (target, key) => ({
      iat: await signEs256(key.privateKey, key.kid, claimsOf(target, { iat: now() + 600, exp: now() + 1200 })),
    }),
  },
  {
    name: 'wrong audience (another API, no trailing slash, the auth URL) (service key)',
    forge: async (target, key) => ({
      'another API': await signEs256(key.privateKey, key.kid, claimsOf(target, { aud: 'https://evil.example/api/' })),
      'no trailing slash': await signEs256(key.privateKey, key.kid, claimsOf(target, { aud: BASE_URL })),
      'auth URL': await signEs256(key.privateKey, key.kid, claimsOf(target, { aud: `${BASE_URL.replace(/\/api$/, '/oauth')}/` })),
    }),
  },
  {
    name: 'wrong issuer (another service, the API) (service key)',
    forge: async (target, key) => ({
      'another service': await signEs256(key.privateKey, key.kid, claimsOf(target, { iss: 'https://evil.example/oauth' })),
      API: await signEs256(key.privateKey, key.kid, claimsOf(target, { iss: BASE_URL })),
    }),
  },
  {
    name: 'unknown kid and no kid (service key)',
    forge: async (target, key) => ({
      'unknown kid': await signEs256(key.privateKey, 'kid-of-no-key', claimsOf(target)),
      'no kid': await signRaw(key, { typ: 'JWT' }, claimsOf(target)),
    }),
  },
  {
    name: 'an unknown critical header (crit) (service key)',
    forge: async (target, key) => ({
      crit: await signRaw(key, { kid: key.kid, crit: ['x-tenant'], 'x-tenant': 'all' }, claimsOf(target)),
    }),
  },
  {
    name: 'required claims missing (exp, sub, scope, jti, iat) or scope not a string (service key)',
    forge: async (target, key) => ({
      ...Object.fromEntries(
        await Promise.all(
          ['exp', 'sub', 'scope', 'jti', 'iat'].map(async (claim): Promise<[string, string]> => [
            `no ${claim}`,
            await signRaw(key, { kid: key.kid }, withoutClaim(claimsOf(target), claim)),
          ]),
        ),
      ),
      'scope array': await signRaw(
        key,
        { kid: key.kid },
        claimsOf(target, { scope: ALL_SCOPES.split(' ') as unknown as string }),
      ),
    }),
  },
  {
    name: 'not a credential: sub of no client (service key)',
    forge: async (target, key) => ({
      sub: await signEs256(key.privateKey, key.kid, claimsOf(target, { sub: 'cli_not_a_credential_00000000' })),
    }),
  },
  {
    name: 'claims edited, signature kept: other merchant, scope escalation, later exp',
    forge: async (target) => {
      const readOnly = await tokenFor(target.request, target.merchant, 'create:token get:charges');
      const intruder = await tokenFor(target.request, await createMerchant('JWTI'));
      const exp = jwtParts(target.token).payload.exp!;
      return {
        merchant: edited(intruder, { payload: { merchant_code: target.merchant.code } }),
        scope: edited(readOnly, { payload: { scope: ALL_SCOPES } }),
        exp: edited(target.token, { payload: { exp: exp + 86_400 } }),
      };
    },
  },
  {
    name: 'malformed (one part, four parts, bad base64, JSON garbage, 12 KiB of noise)',
    forge: async (target) => {
      const [header, payload, signature] = target.token.split('.');
      return {
        'one part': header!,
        'four parts': `${target.token}.${signature}`,
        'bad base64': `${header}.${payload}.${signature!.slice(0, -4)}*%$=`,
        'padded base64': `${header}=.${payload}.${signature}`,
        'JSON garbage': `${b64url('not json')}.${b64url('{"sub":')}.${signature}`,
        huge: `${header}.${b64url(JSON.stringify({ pad: 'x'.repeat(9_000) }))}.${signature}`,
      };
    },
  },
];

async function targetFor(request: APIRequestContext) {
  return { ...(await merchantWithOperations(request, 'JWT')), request, jwks: await serverJwks(request) };
}

test('control: tokens forged with the service key and the right claims are accepted (jose and raw signing)', async ({
  request,
}) => {
  const target = await merchantWithOperations(request, 'JWTC');
  const key = await serverSigningKey();
  expect((await serverJwks(request)).map((jwk) => jwk.kid)).toEqual([key.kid]);
  const claims = claimsFor(target.merchant.code, target.merchant.clientId);
  for (const forged of [
    await signEs256(key.privateKey, key.kid, claims),
    await signRaw(key, { kid: key.kid, typ: 'JWT' }, claims),
  ]) {
    const response = await call(request, endpointsFor(target.merchant.code, target)[1]!, headers(forged));
    expect(response.status(), await response.text()).toBe(200);
  }
});

for (const attack of ATTACKS) {
  test(`refused everywhere: ${attack.name}`, async ({ request }) => {
    const target = await targetFor(request);
    const key = await serverSigningKey();
    for (const [label, token] of Object.entries(await attack.forge(target, key))) {
      await expectRejectedEverywhere(request, target, token, label);
    }
  });
}

test('refused everywhere: a token that expired by itself (credential lifetime 1 s)', async ({ request }) => {
  const target = await merchantWithOperations(request, 'JWTX');
  const shortLived = await operator().issueCredential.mutate({
    owner: { merchantCode: target.merchant.code },
    tokenTtlSeconds: 1,
  });
  const token = await tokenFor(request, { clientId: shortLived.client_id, clientSecret: shortLived.client_secret });
  expect(jwtParts(token).payload.exp).toBe(jwtParts(token).payload.iat! + 1);
  await new Promise((resolve) => setTimeout(resolve, 2_200));
  await expectRejectedEverywhere(request, target, token, 'expired');
});

test('refused everywhere: a token of a credential revoked after issuing it', async ({ request }) => {
  const target = await merchantWithOperations(request, 'JWTR');
  const extra = await operator().issueCredential.mutate({ owner: { merchantCode: target.merchant.code } });
  const token = await tokenFor(request, { clientId: extra.client_id, clientSecret: extra.client_secret });
  await operator().revokeCredential.mutate({ clientId: extra.client_id });
  await expectRejectedEverywhere(request, target, token, 'revoked');
});

test('a token in headers over 16 KiB never reaches the service: the HTTP server answers 431', async () => {
  // Outside the application (Node's header limit), so outside the OpenAPI document: plain fetch.
  const response = await fetch(`${BASE_URL}/refund`, {
    headers: { Authorization: `Bearer ${'a'.repeat(17 * 1024)}`, 'ALG-API-VERSION': '1709847567' },
  });
  expect(response.status).toBe(431);
  expect(await response.text()).not.toMatch(/eyJ|prisma|at \w+ \(/);
});
