import { describe, expect, it, vi } from 'vitest';
import { PENDING_METHODS } from '@/server/core/domain/expiry';
import { decideCancel, REFUNDABLE_METHODS, type PaymentMethod } from '@/server/core/domain/states';
import { instrumentFromRequest, stringsOf, testContext } from '@tests/support/connector-context';
import { memorySandboxStore } from '@tests/support/memory-sandbox-store';
import type {
  AuthorizeResult,
  ConnectorContext,
  PaymentInstrument,
  ThreeDsAuthentication,
  TransactionReference,
} from '../connector';
import { DECLINE_CLASSES, declineClassOf } from '@/server/core/domain/decline-class';
import { createRegistry } from '../registry';
import { failsFlakily } from './sandbox-connector';

// The sandbox processors' battery: what only they promise (capabilities that follow their one
// method's rules, every request answered alike), their modes (docs/ORCHESTRATION.md 1), their
// records, and the sandbox test cards every sandbox card connector shares. What every connector owes, sandbox or
// real, is the battery of ../connector-contract.test.ts; the tests beside each sandbox processor
// hold its own rules (docs/DESIGN.md 8).

/** Short, so that late answers cost little; the connectors honour it like SANDBOX_TIMEOUT_MS. */
const TIMEOUT_MS = 50;

/** A connector on a store of its own: one test's modes and records never reach another. */
function fresh(id: string, timeoutMs = TIMEOUT_MS) {
  const store = memorySandboxStore();
  const connector = createRegistry(store, { timeoutMs }).byId(id);
  if (!connector) throw new Error(`no connector ${id}`);
  return { store, connector };
}

const CONNECTOR_IDS = createRegistry(memorySandboxStore(), { timeoutMs: TIMEOUT_MS }).connectors.map(({ id }) => id);

const SECURITY_CODE = '987';
const card = (pan: string) => ({ pan, expiry_date: '1230', security_code: SECURITY_CODE });
const URLS = { redirect_url: 'https://shop.test/return', callback_url: 'https://shop.test/cb' };
const YAPE_PHONE = { country_code: '+51', subscriber: '987654321' } as const;
const AUTHENTICATION: ThreeDsAuthentication = {
  version: '2.2.0',
  status: 'Y',
  eci: '05',
  authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
};

// docs/DESIGN.md 8's test cards and docs/ORCHESTRATION.md 1's: the same answer on every card
// connector (the failover cards, whose answers differ per acquirer, are in FAILOVER_PANS).
type Expected = { outcome: AuthorizeResult['outcome']; code: string | null };
const approved: Expected = { outcome: 'approved', code: '00' };
const declined = (code: string): Expected => ({ outcome: 'declined', code });
const processorError: Expected = { outcome: 'technical_failure', code: '96' };
const late: Expected = { outcome: 'technical_failure', code: null };

const SHARED_PANS: Readonly<Record<string, Expected>> = {
  '4111111111111111': approved,
  '4000000000005126': approved,
  '4000000000000002': declined('05'),
  '4000000000009995': declined('51'),
  '4000000000000069': declined('54'),
  '4000000000000127': declined('N7'),
  '4000000000000119': processorError,
  '4000000000003220': approved,
  '4000000000003063': approved,
  '4000000000003253': approved,
  '4000000000003261': declined('65'),
};

const FAILOVER_PANS: Readonly<Record<string, Readonly<Record<string, Expected>>>> = {
  'sandbox-acquirer-a': {
    '4000000000008005': declined('05'),
    '4000000000008013': processorError,
    '4000000000008021': late,
  },
  'sandbox-acquirer-b': {
    '4000000000008005': approved,
    '4000000000008013': approved,
    '4000000000008021': approved,
  },
};

// docs/DESIGN.md 8's Yape rules, the same on every Yape rail.
// (Entries, not an object: six-digit keys would be enumerated in numeric order.)
const YAPE_OTPS: readonly (readonly [string, Expected])[] = [
  ['123456', approved],
  ['000000', declined('Y1')],
  ['111111', declined('51')],
];

/** Valid requests of each method (approvals first, then every sandbox decline and failure). */
const REQUESTS: Record<PaymentMethod, unknown[]> = {
  CARD: [...Object.keys(SHARED_PANS), '4000000000008005', '4000000000008013', '4000000000008021'].map((pan) => ({
    method_name: 'CARD',
    method_details: card(pan),
  })),
  YAPE: YAPE_OTPS.map(([otp]) => ({ method_name: 'YAPE', method_details: { phone: YAPE_PHONE, otp } })),
  BANK_TRANSFER: [{ method_name: 'BANK_TRANSFER', method_details: URLS }],
  CUOTEALO: [{ method_name: 'CUOTEALO', method_details: URLS }],
  PAGOEFECTIVO: [
    { method_name: 'PAGOEFECTIVO', method_details: {} },
    { method_name: 'PAGOEFECTIVO', method_details: URLS },
  ],
  QR: [
    { method_name: 'QR', method_details: {} },
    { method_name: 'QR', method_details: { callback_url: URLS.callback_url } },
  ],
};

/** The request as `POST /charges` validation hands it over. */
function validRequests(method: PaymentMethod): PaymentInstrument[] {
  return REQUESTS[method].map(instrumentFromRequest);
}

function references(method: PaymentMethod, currency: string): TransactionReference[] {
  const base = {
    transactionId: 'b3c1f2de-0000-4000-8000-000000000001',
    method,
    amount: 15_000n,
    currency,
    processorReference: null,
    createdAt: null,
  };
  return [
    { ...base, card: null },
    { ...base, card: { bin: '411111', last4: '1111' } },
    { ...base, card: { bin: '400000', last4: '5126' } },
  ];
}

/** What a processor decided, without the ids it draws afresh for every answer. */
function decision(result: AuthorizeResult) {
  // The network transaction id, like the authorization code, is new at every approval.
  const { processorResponse, ...answer } = result;
  const { networkTransactionId: _nti, ...rest } = answer as AuthorizeResult & { networkTransactionId?: string };
  return { ...rest, resultMessage: processorResponse?.result_message ?? null };
}

function expectWellFormed(result: AuthorizeResult, context: ReturnType<typeof testContext>): void {
  expect(result.stateReason).toEqual(expect.any(String));
  expect(result.stateReason).not.toBe('');
  expect(result.methodDetails).toEqual(expect.any(Object));
  switch (result.outcome) {
    case 'approved':
      expect(result.processorResponse.authorization_code).toMatch(/^\d{6}$/);
      expect(result.processorResponse.brand_transaction_id).toMatch(/^\S+$/);
      expect(result.processorResponse.result_message.code).toBe('00');
      break;
    case 'declined':
      expect(result.processorResponse.result_message.code).not.toBe('00');
      expect(DECLINE_CLASSES).toContain(result.declineClass);
      expect(result.declineClass).toBe(declineClassOf(result.processorResponse.result_message.code));
      break;
    case 'technical_failure':
      expect(['timeout', 'connection_refused', 'processor_error']).toContain(result.reason);
      break;
    case 'challenge':
      expect(new URL(result.challengeUrl).protocol).toMatch(/^https?:$/);
      expect(result.expiresAt.getTime()).toBeGreaterThan(context.now.getTime());
      break;
    case 'pending':
      expect(result.expiresAt.getTime()).toBeGreaterThan(context.now.getTime());
      if (result.continueUrl !== null) expect(new URL(result.continueUrl).protocol).toMatch(/^https?:$/);
      if (result.processorResponse !== null) expect(result.processorResponse.result_message.code).not.toBe('');
      break;
  }
}

describe.each(CONNECTOR_IDS)('connector %s', (id) => {
  const { connector } = fresh(id);
  const contexts = connector.currencies.flatMap((currency) => [
    testContext({ currency }),
    testContext({ currency, amount: 350_001n }),
  ]);

  it('declares reversal and refunds exactly where its methods allow them (docs/DESIGN.md 6, 7)', () => {
    for (const method of connector.methods) {
      expect(connector.capabilities.reversal).toBe(decideCancel('AUTORIZADO', method).kind === 'move');
      expect(connector.capabilities.refunds).toBe(REFUNDABLE_METHODS.includes(method));
    }
  });

  it.each(connector.methods)('answers every valid %s request with a well-formed result', async (method) => {
    for (const context of contexts) {
      for (const request of validRequests(method)) {
        const result = await fresh(id).connector.authorize(request, context);
        expectWellFormed(result, context);
        const pending = (PENDING_METHODS as readonly string[]).includes(method);
        expect(result.outcome === 'pending').toBe(pending);
      }
    }
  });

  it.each(connector.methods)('gives the same decision for the same %s request', async (method) => {
    for (const context of contexts) {
      for (const request of validRequests(method)) {
        const first = await fresh(id).connector.authorize(request, context);
        const second = await fresh(id).connector.authorize(request, context);
        expect(decision(second)).toStrictEqual(decision(first));
      }
    }
  });

  it.each(connector.methods)('answers reverse, refund and status of a %s payment in their typed shapes', async (method) => {
    const { connector } = fresh(id);
    for (const currency of connector.currencies) {
      for (const reference of references(method, currency)) {
        const reversal = await connector.reverse(reference);
        if (!connector.capabilities.reversal) expect(reversal).toStrictEqual({ outcome: 'not_supported', flow: 'reverse' });
        else if (reversal.outcome === 'reversed') expect(reversal.code).toMatch(/^\S+$/);
        else expect(reversal.outcome === 'refused' && reversal.reason !== '').toBe(true);

        const refund = await connector.refund({
          ...reference,
          refundId: 'f0e1d2c3-0000-4000-8000-000000000001',
          refundAmount: reference.amount,
          registeredAt: new Date(),
        });
        if (!connector.capabilities.refunds) expect(refund).toStrictEqual({ outcome: 'not_supported', flow: 'refund' });
        else if (refund.outcome === 'rejected') expect(refund.reason).not.toBe('');
        else expect(['in_process', 'resolved']).toContain(refund.outcome);

        const status = await connector.status(reference);
        expect(['approved', 'declined', 'not_found', 'unknown', 'not_supported']).toContain(status.outcome);
        if (status.outcome === 'approved') expect(status.authorizationCode).toMatch(/^\d{6}$/);
        if (status.outcome === 'declined') expect(status.declineClass).toBe(declineClassOf(status.code));

        expect(await connector.reverse(reference)).toStrictEqual(reversal);
        expect(
          await connector.refund({
            ...reference,
            refundId: 'f0e1d2c3-0000-4000-8000-000000000001',
            refundAmount: reference.amount,
            registeredAt: new Date(),
          }),
        ).toStrictEqual(refund);
        expect(await connector.status(reference)).toStrictEqual(status);
      }
    }
  });

  /** The first valid request of `method`: an approval where the method decides at once. */
  const firstRequest = (method: PaymentMethod) => validRequests(method)[0]!;
  const pending = (method: PaymentMethod) => (PENDING_METHODS as readonly string[]).includes(method);
  const referenceOf = (method: PaymentMethod, transactionId = testContext().transactionId): TransactionReference => ({
    transactionId,
    method,
    amount: 15_000n,
    currency: connector.currencies[0]!,
    card: method === 'CARD' ? { bin: '411111', last4: '1111' } : null,
    processorReference: null,
    createdAt: null,
  });
  const contextOf = (overrides: Partial<ConnectorContext> = {}) =>
    testContext({ currency: connector.currencies[0]!, ...overrides });

  /** Transaction ids `failsFlakily` does (`true`) or does not name. */
  const flakyIds = (fails: boolean, count: number) => {
    const ids: string[] = [];
    for (let index = 0; ids.length < count; index += 1) {
      const transactionId = `b3c1f2de-0000-4000-8000-${String(index).padStart(12, '0')}`;
      if (failsFlakily(transactionId) === fails) ids.push(transactionId);
    }
    return ids;
  };

  describe('modes (docs/ORCHESTRATION.md 1)', () => {
    it.each(connector.methods)('outage: refuses a %s payment at once and records nothing', async (method) => {
      const { store, connector } = fresh(id);
      await store.setMode(id, 'outage');
      for (const request of validRequests(method)) {
        const context = contextOf();
        const result = await connector.authorize(request, context);
        expectWellFormed(result, context);
        expect(result.outcome === 'technical_failure' && result.reason).toBe('connection_refused');
        expect(result.processorResponse).toBeNull();
      }
      expect(await store.find(id, contextOf().transactionId)).toBeNull();
      expect(await connector.status(referenceOf(method))).toStrictEqual({ outcome: 'unknown' });
      await store.setMode(id, 'normal');
      expect(await connector.status(referenceOf(method))).toStrictEqual({ outcome: 'not_found' });
    });

    it.each(connector.methods)(
      'slow: does what a %s payment asks, answers a timeout once the caller gives up, and status finds it',
      async (method) => {
        // A long timeout: only the caller's abort may end this wait.
        const { store, connector } = fresh(id, 60_000);
        await store.setMode(id, 'slow');
        const caller = new AbortController();
        const context = contextOf({ signal: caller.signal });
        let answered = false;
        const answer = connector.authorize(firstRequest(method), context).finally(() => {
          answered = true;
        });
        await vi.waitFor(async () => expect(await store.find(id, context.transactionId)).not.toBeNull(), { interval: 5 });
        expect(answered).toBe(false);
        caller.abort();
        const result = await answer;
        expectWellFormed(result, context);
        expect(result.outcome === 'technical_failure' && result.reason).toBe('timeout');

        const status = await connector.status(referenceOf(method));
        const recorded = await store.find(id, context.transactionId);
        if (pending(method)) {
          expect(recorded).toStrictEqual({ outcome: 'pending' });
          expect(status).toStrictEqual({ outcome: 'unknown' });
        } else {
          if (recorded?.outcome !== 'approved') throw new Error('expected the approval to be recorded');
          expect(status).toStrictEqual({
            outcome: 'approved',
            authorizationCode: recorded.authorizationCode,
            brandTransactionId: recorded.brandTransactionId,
          });
          expect(recorded.authorizationCode).toMatch(/^\d{6}$/);
          expect(recorded.brandTransactionId).toMatch(/^\d{15}$/);
        }
      },
    );

    it.each(connector.methods)('slow: answers a %s payment after timeoutMs when the caller never gives up', async (method) => {
      const { store, connector } = fresh(id);
      await store.setMode(id, 'slow');
      const started = performance.now();
      const result = await connector.authorize(firstRequest(method), contextOf());
      expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(result.outcome === 'technical_failure' && result.reason).toBe('timeout');
    });

    it.each(connector.methods)('flaky: fails exactly the %s payments failsFlakily names, with 96', async (method) => {
      const { store, connector } = fresh(id);
      await store.setMode(id, 'flaky');
      for (const transactionId of flakyIds(true, 3)) {
        const result = await connector.authorize(firstRequest(method), contextOf({ transactionId }));
        expect(result.outcome === 'technical_failure' && result.reason).toBe('processor_error');
        expect(result.processorResponse?.result_message.code).toBe('96');
        expect(await store.find(id, transactionId)).toBeNull();
      }
      for (const transactionId of flakyIds(false, 3)) {
        const result = await connector.authorize(firstRequest(method), contextOf({ transactionId }));
        expect(result.outcome).toBe(pending(method) ? 'pending' : 'approved');
        expect(await store.find(id, transactionId)).not.toBeNull();
      }
    });

    it.each(connector.methods)('declining: declines every %s request 05 (soft) and says so when asked', async (method) => {
      const { store, connector } = fresh(id);
      await store.setMode(id, 'declining');
      for (const [index, request] of validRequests(method).entries()) {
        const transactionId = `b3c1f2de-0000-4000-8000-${String(index).padStart(12, '0')}`;
        const context = contextOf({ transactionId, signal: AbortSignal.abort() });
        const result = await connector.authorize(request, context);
        expectWellFormed(result, context);
        if (result.outcome === 'technical_failure') {
          // A payment the processor answers late is declined too, and the answer still comes late.
          expect(result.reason).toBe('timeout');
        } else {
          expect(result.outcome).toBe('declined');
          expect(result.processorResponse?.result_message.code).toBe('05');
        }
        expect(await connector.status(referenceOf(method, transactionId))).toStrictEqual({
          outcome: 'declined',
          code: '05',
          declineClass: 'soft',
        });
      }
    });
  });

  describe('what it did (docs/ORCHESTRATION.md 3: status after an ambiguous answer)', () => {
    it.each(connector.methods)('finds nothing of a %s payment it never saw, then what it decided', async (method) => {
      const { connector } = fresh(id);
      expect(await connector.status(referenceOf(method))).toStrictEqual({ outcome: 'not_found' });
      const result = await connector.authorize(firstRequest(method), contextOf());
      const status = await connector.status(referenceOf(method));
      if (result.outcome === 'approved') {
        expect(status).toStrictEqual({
          outcome: 'approved',
          authorizationCode: result.processorResponse.authorization_code,
          brandTransactionId: result.processorResponse.brand_transaction_id,
        });
      } else {
        expect(result.outcome).toBe('pending');
        expect(status).toStrictEqual({ outcome: 'unknown' });
      }
    });

    it.each(connector.methods)('reverses only a %s payment it approved', async (method) => {
      const { connector } = fresh(id);
      if (!connector.capabilities.reversal) {
        await connector.authorize(firstRequest(method), contextOf());
        expect(await connector.reverse(referenceOf(method))).toStrictEqual({ outcome: 'not_supported', flow: 'reverse' });
        return;
      }
      const unknown = await connector.reverse(referenceOf(method));
      expect(unknown.outcome === 'refused' && unknown.reason).toEqual(expect.any(String));
      await connector.authorize(firstRequest(method), contextOf());
      expect(await connector.reverse(referenceOf(method))).toStrictEqual({ outcome: 'reversed', code: '00' });

      // Every payment it declined or failed: nothing to reverse.
      for (const [index, request] of validRequests(method).entries()) {
        const transactionId = `b3c1f2de-0000-4000-8000-${String(index + 100).padStart(12, '0')}`;
        const result = await connector.authorize(request, contextOf({ transactionId, signal: AbortSignal.abort() }));
        if (result.outcome === 'approved') continue;
        const reversal = await connector.reverse(referenceOf(method, transactionId));
        expect(reversal.outcome === 'reversed').toBe(
          (await connector.status(referenceOf(method, transactionId))).outcome === 'approved',
        );
      }
      expect((await fresh(id).connector.reverse(referenceOf(method))).outcome).toBe('refused');
    });
  });

  // Only for connectors of these methods (a skipped block would count as skipped tests).
  if (connector.methods.includes('CARD')) {
    describe('the test cards (docs/DESIGN.md 8, docs/ORCHESTRATION.md 1)', () => {
      const cardRequest = (pan: string) => instrumentFromRequest({ method_name: 'CARD', method_details: card(pan) });
      const expectations = { ...SHARED_PANS, ...(FAILOVER_PANS[id] ?? {}) };

      it.each(Object.entries(expectations))('answers %s as expected', async (pan, expected) => {
        const { connector } = fresh(id);
        const result = await connector.authorize(cardRequest(pan), contextOf({ signal: AbortSignal.abort() }));
        expect({ outcome: result.outcome, code: result.processorResponse?.result_message.code ?? null }).toStrictEqual(expected);
        if (expected === late) {
          expect(result.outcome === 'technical_failure' && result.reason).toBe('timeout');
          expect((await connector.status(referenceOf('CARD'))).outcome).toBe('approved');
        }
        if (expected === processorError) expect(result.outcome === 'technical_failure' && result.reason).toBe('processor_error');
      });

      it('knows the failover cards of docs/ORCHESTRATION.md 1', () => {
        expect(Object.keys(FAILOVER_PANS)).toContain(id);
      });

      it('approves 4000000000003261 once the payer is authenticated, and never echoes the authentication value', async () => {
        expect(connector.capabilities.threeDsResult).toBe(true);
        const result = await fresh(id).connector.authorize(
          cardRequest('4000000000003261'),
          contextOf({ authentication: AUTHENTICATION }),
        );
        expect(result.outcome).toBe('approved');
        expect(stringsOf(result).filter((value) => value.includes(AUTHENTICATION.authenticationValue))).toEqual([]);
        const unauthenticated = await fresh(id).connector.authorize(cardRequest('4000000000003261'), contextOf());
        expect(unauthenticated.outcome === 'declined' && unauthenticated.declineClass).toBe('sca_required');
      });
    });
  }

  if (connector.methods.includes('YAPE')) {
    describe('the Yape rules (docs/DESIGN.md 8)', () => {
      it.each(YAPE_OTPS)('answers OTP %s as expected', async (otp, expected) => {
        const request = instrumentFromRequest({ method_name: 'YAPE', method_details: { phone: YAPE_PHONE, otp } });
        const result = await fresh(id).connector.authorize(request, contextOf());
        expect({ outcome: result.outcome, code: result.processorResponse?.result_message.code ?? null }).toStrictEqual(expected);
      });

      it('declines more than 3 500.00 PEN with 61', async () => {
        const result = await fresh(id).connector.authorize(firstRequest('YAPE'), contextOf({ amount: 350_001n }));
        expect(result.processorResponse?.result_message.code).toBe('61');
      });
    });
  }
});
