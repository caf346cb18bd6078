import { expect, test } from '../support/contract';
import { type APIRequestContext } from '@playwright/test';
import { charge, chargeBody, headers, operationNumber, tokenFor, ALL_SCOPES } from '../support/api-client';
import { API_VERSION, BASE_URL, createMerchant, operatorConsole, storedOperation } from '../support/service';
import {
  b64url,
  call,
  createFacilitator,
  endpointsFor,
  expectError,
  challengeOf,
  expectUnauthenticated,
  expectUnchanged,
  merchantWithOperations,
  withoutAuthorization,
  type Charged,
  type Endpoint,
} from './auth-helpers';

// Who may call what (docs/DESIGN.md 3 and 5): tokens, scopes, merchants and facilitators.

test.describe('merchants and scopes', () => {
  test("another merchant's token is 403 21 on every endpoint and changes nothing", async ({ request }) => {
    const target = await merchantWithOperations(request, 'AZV');
    const intruder = await createMerchant('AZI');
    const intruderToken = await tokenFor(request, intruder);
    const fresh = operationNumber('fresh');
    for (const endpoint of endpointsFor(target.merchant.code, target, fresh)) {
      const response = await call(request, endpoint, headers(intruderToken));
      await test.step(endpoint.name, async () => {
        await expectError(response, 403, '21', endpoint.success);
        // Not a scope failure: no challenge (RFC 6750 3.1 names insufficient_scope only).
        expect(response.headers()['www-authenticate']).toBeUndefined();
      });
    }
    await expectUnchanged(target, fresh);
    // Nor may it reach the target's operations through its own merchant code.
    const own = await call(
      request,
      {
        name: 'GET own path, foreign operation',
        method: 'GET',
        url: `${BASE_URL}/charges/${intruder.code}/${target.authorized.number}/${target.authorized.transactionId}`,
        scope: 'get:charges',
        success: 'boolean',
      },
      headers(intruderToken),
    );
    await expectError(own, 404, '30', 'boolean');
  });

  test('a token without the needed scope is 403 21 on every endpoint and changes nothing', async ({ request }) => {
    const target = await merchantWithOperations(request, 'AZS');
    const fresh = operationNumber('fresh');
    const scopes = ['post:charges', 'get:charges', 'delete:charges'] as const;
    const tokens = Object.fromEntries(
      await Promise.all(
        scopes.map(async (missing) => {
          const others = scopes.filter((scope) => scope !== missing).join(' ');
          return [missing, await tokenFor(request, target.merchant, `create:token ${others}`)] as const;
        }),
      ),
    ) as Record<(typeof scopes)[number], string>;
    const onlyCreate = await tokenFor(request, target.merchant, 'create:token');
    for (const endpoint of endpointsFor(target.merchant.code, target, fresh)) {
      for (const [label, token] of [
        [`without ${endpoint.scope}`, tokens[endpoint.scope]],
        ['create:token only', onlyCreate],
      ] as const) {
        const response = await call(request, endpoint, headers(token));
        await test.step(`${endpoint.name} ${label}`, async () => {
          const body = await expectError(response, 403, '21', endpoint.success);
          expect(JSON.stringify(body.errors)).toContain(endpoint.scope);
          // RFC 6750 3.1: insufficient_scope names the scope the request needs.
          expect(challengeOf(response.headers()['www-authenticate'])).toEqual({
            scheme: 'Bearer',
            realm: 'pay',
            error: 'insufficient_scope',
            error_description: `token lacks the scope ${endpoint.scope}`,
            scope: endpoint.scope,
          });
        });
      }
    }
    await expectUnchanged(target, fresh);
  });

  test('a token with exactly the mapped scope is accepted on every endpoint', async ({ request }) => {
    const target = await merchantWithOperations(request, 'AZP');
    const fresh = operationNumber('fresh');
    const endpoints = endpointsFor(target.merchant.code, target, fresh);
    // DELETE last: it reverses the operation the GET reads.
    const ordered = [
      ...endpoints.filter((endpoint) => endpoint.method !== 'DELETE'),
      ...endpoints.filter((e) => e.method === 'DELETE'),
    ];
    for (const endpoint of ordered) {
      const token = await tokenFor(request, target.merchant, `create:token ${endpoint.scope}`);
      const response = await call(request, endpoint, headers(token));
      await test.step(endpoint.name, async () => {
        expect(response.status(), await response.text()).toBe(200);
        const body = (await response.json()) as { success: unknown; meta: { status: { code: string } } };
        expect(body.success).toBe(endpoint.success === 'string' ? 'true' : true);
        expect(body.meta.status.code).toBe('00');
      });
    }
    const stored = await storedOperation(target.merchant.code, target.authorized.number);
    expect(stored.transactions.map((row) => row.state)).toEqual(['EXTORNADO']);
    expect((await storedOperation(target.merchant.code, target.settled.number)).refunds.map((row) => row.state)).toEqual([
      'REGISTERED',
    ]);
    expect((await storedOperation(target.merchant.code, fresh)).transactions.map((row) => row.state)).toEqual(['AUTORIZADO']);
  });
});

// Forged, expired and revoked tokens: jwt-attacks.spec.ts.
test.describe('authentication', () => {
  test('no bearer token is 401 20 with WWW-Authenticate: Bearer realm="pay" and no error code on every endpoint', async ({
    request,
  }) => {
    const target = await merchantWithOperations(request, 'AZN');
    const fresh = operationNumber('fresh');
    for (const endpoint of endpointsFor(target.merchant.code, target, fresh)) {
      for (const [label, extra] of [
        ['no Authorization', {}],
        ['empty Bearer', { Authorization: 'Bearer ' }],
        ['Basic scheme', { Authorization: `Basic ${b64url(`${target.merchant.clientId}:${target.merchant.clientSecret}`)}` }],
        ['bare token', { Authorization: target.token }],
      ] as const) {
        const response = await call(request, endpoint, { ...withoutAuthorization(), ...extra });
        await test.step(`${endpoint.name}: ${label}`, async () => {
          await expectUnauthenticated(response, endpoint.success, false);
        });
      }
    }
    await expectUnchanged(target, fresh);
  });
});

test.describe('payment facilitators', () => {
  async function facilitatorSetup(request: APIRequestContext) {
    const facilitator = await createFacilitator('AZF');
    const other = await createFacilitator('AZF2');
    const linked = await createMerchant('AZL', undefined, { facilitatorCode: facilitator.code });
    const linkedToken = await tokenFor(request, linked);
    const unlinked = await createMerchant('AZU');
    const unlinkedToken = await tokenFor(request, unlinked);
    const [linkedCharge, unlinkedCharge] = await Promise.all([
      chargeOf(request, linkedToken, linked.code),
      chargeOf(request, unlinkedToken, unlinked.code),
    ]);
    const facilitatorToken = await tokenFor(request, facilitator);
    return { facilitator, other, linked, linkedToken, unlinked, unlinkedToken, linkedCharge, unlinkedCharge, facilitatorToken };
  }

  async function chargeOf(request: APIRequestContext, token: string, merchantCode: string): Promise<Charged> {
    const number = operationNumber('fac');
    const response = await charge(request, token, chargeBody(merchantCode, number, 'CARD'));
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { transaction: { transaction_id: string } };
    return { number, transactionId: body.transaction.transaction_id, amount: '15000', body: {} };
  }

  const transactionUrl = (merchantCode: string, charged: Charged) =>
    `${BASE_URL}/charges/${merchantCode}/${charged.number}/${charged.transactionId}`;

  test('a facilitator token acts for a linked merchant only with its own payment-facilitator-code', async ({ request }) => {
    const setup = await facilitatorSetup(request);
    const url = transactionUrl(setup.linked.code, setup.linkedCharge);

    const ok = await request.get(url, {
      headers: headers(setup.facilitatorToken, { 'payment-facilitator-code': setup.facilitator.code }),
    });
    expect(ok.status(), await ok.text()).toBe(200);
    const body = (await ok.json()) as {
      success: boolean;
      merchant_code: string;
      operation: { merchant_operation_number: string };
    };
    expect(body.success).toBe(true);
    expect(body.merchant_code).toBe(setup.linked.code);
    expect(body.operation.merchant_operation_number).toBe(setup.linkedCharge.number);

    await expectError(await request.get(url, { headers: headers(setup.facilitatorToken) }), 403, '21', 'boolean');
    await expectError(
      await request.get(url, { headers: headers(setup.facilitatorToken, { 'payment-facilitator-code': setup.other.code }) }),
      403,
      '21',
      'boolean',
    );
    await expectError(
      await request.get(url, { headers: headers(setup.facilitatorToken, { 'payment-facilitator-code': setup.linked.code }) }),
      403,
      '21',
      'boolean',
    );
  });

  test('a facilitator token cannot act for a merchant that is not linked to it', async ({ request }) => {
    const setup = await facilitatorSetup(request);
    const response = await request.get(transactionUrl(setup.unlinked.code, setup.unlinkedCharge), {
      headers: headers(setup.facilitatorToken, { 'payment-facilitator-code': setup.facilitator.code }),
    });
    await expectError(response, 403, '21', 'boolean');
    const cancel = await request.delete(`${BASE_URL}/charges/${setup.unlinked.code}/${setup.unlinkedCharge.number}`, {
      headers: headers(setup.facilitatorToken, { 'payment-facilitator-code': setup.facilitator.code }),
    });
    await expectError(cancel, 403, '21', 'boolean');
    const stored = await storedOperation(setup.unlinked.code, setup.unlinkedCharge.number);
    expect(stored.transactions.map((row) => row.state)).toEqual(['AUTORIZADO']);
  });

  test("a merchant token with a payment-facilitator-code that is not its merchant's facilitator is 403", async ({ request }) => {
    const setup = await facilitatorSetup(request);
    const linkedUrl = transactionUrl(setup.linked.code, setup.linkedCharge);
    // Its own facilitator's code is accepted.
    const matching = await request.get(linkedUrl, {
      headers: headers(setup.linkedToken, { 'payment-facilitator-code': setup.facilitator.code }),
    });
    expect(matching.status(), await matching.text()).toBe(200);
    await expectError(
      await request.get(linkedUrl, { headers: headers(setup.linkedToken, { 'payment-facilitator-code': setup.other.code }) }),
      403,
      '21',
      'boolean',
    );
    // A merchant without a facilitator sending one.
    await expectError(
      await request.get(transactionUrl(setup.unlinked.code, setup.unlinkedCharge), {
        headers: headers(setup.unlinkedToken, { 'payment-facilitator-code': setup.facilitator.code }),
      }),
      403,
      '21',
      'boolean',
    );
    // A mismatching header on a cancellation changes nothing.
    await expectError(
      await request.delete(`${BASE_URL}/charges/${setup.linked.code}/${setup.linkedCharge.number}`, {
        headers: headers(setup.linkedToken, { 'payment-facilitator-code': setup.other.code }),
      }),
      403,
      '21',
      'boolean',
    );
    const stored = await storedOperation(setup.linked.code, setup.linkedCharge.number);
    expect(stored.transactions.map((row) => row.state)).toEqual(['AUTORIZADO']);
  });

  test('a facilitator with its header can query, refund and cancel for a linked merchant', async ({ request }) => {
    const facilitator = await createFacilitator('AZFF');
    const linked = await createMerchant('AZFL', undefined, { facilitatorCode: facilitator.code });
    const linkedToken = await tokenFor(request, linked);
    const settled = await chargeOf(request, linkedToken, linked.code);
    await operatorConsole().platform.settleNow.mutate({ merchantCode: linked.code });
    const authorized = await chargeOf(request, linkedToken, linked.code);
    const token = await tokenFor(request, facilitator, ALL_SCOPES);
    const endpoints = endpointsFor(linked.code, { settled, authorized }).filter((endpoint) => endpoint.name !== 'POST /charges');
    const ordered: Endpoint[] = [
      ...endpoints.filter((e) => e.method !== 'DELETE'),
      ...endpoints.filter((e) => e.method === 'DELETE'),
    ];
    for (const endpoint of ordered) {
      const response = await call(request, endpoint, headers(token, { 'payment-facilitator-code': facilitator.code }));
      await test.step(endpoint.name, async () => {
        expect(response.status(), await response.text()).toBe(200);
        const body = (await response.json()) as { merchant_code: string };
        expect(body.merchant_code).toBe(linked.code);
      });
      const without = await call(request, endpoint, headers(token));
      await test.step(`${endpoint.name} without the header`, async () => {
        // POST /refund was registered above: a retry without the header must be refused first.
        await expectError(without, 403, '21', endpoint.success);
      });
    }
    expect((await storedOperation(linked.code, settled.number)).refunds).toHaveLength(1);
    expect((await storedOperation(linked.code, authorized.number)).transactions.map((row) => row.state)).toEqual(['EXTORNADO']);
  });

  test('a facilitator may leave ALG-API-VERSION out (the default), and an unknown one is 400 11', async ({ request }) => {
    const setup = await facilitatorSetup(request);
    const headers = { Authorization: `Bearer ${setup.facilitatorToken}`, 'payment-facilitator-code': setup.facilitator.code };
    const served = await request.get(transactionUrl(setup.linked.code, setup.linkedCharge), { headers });
    expect(served.status(), await served.text()).toBe(200);
    const refused = await request.get(transactionUrl(setup.linked.code, setup.linkedCharge), {
      headers: { ...headers, 'ALG-API-VERSION': '1709847568' },
    });
    await expectError(refused, 400, '11', 'boolean');
    expect(API_VERSION).toBe('1709847567');
  });
});
