import { NO_CAPTURE, NO_SAVED_CARDS } from '@/server/core/domain/capabilities';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testContext } from '@tests/support/connector-context';
import { memorySandboxStore } from '@tests/support/memory-sandbox-store';
import { instrumentFor, type PaymentInstrument, type CardFields, type TransactionReference } from '../connector';
import { cardOutcome, DO_NOT_HONOUR } from './card-outcome';
import { failsFlakily, sandboxConnector, type SandboxProcessor } from './sandbox-connector';

// The modes, records and timeout every sandbox processor shares (docs/ORCHESTRATION.md 1), on
// a processor of test rules: a CARD "card" whose PAN picks the answer.

const CARD: CardFields = {
  bin: '411111',
  last_pan: '1111',
  masked_pan: '411111******1111',
  brand: 'VISA',
  card_type: 'CREDIT',
  card_country: 'US',
  issuer: 'SANDBOX BANK',
};
const DETAILS = { masked_pan: CARD.masked_pan };
const TIMEOUT_MS = 60;

const rules: SandboxProcessor = {
  id: 'sandbox-test',
  name: 'Sandbox test processor',
  methods: ['CARD'],
  currencies: ['604'],
  capabilities: {
    ...NO_CAPTURE,
    instalments: false,
    threeDsResult: false,
    cardWithoutCode: false,
    reversal: true,
    refunds: true,
    partialRefund: true,
    savedCards: NO_SAVED_CARDS,
  },
  async authorize(instrument) {
    const { pan } = instrumentFor(instrument, 'CARD');
    return cardOutcome(pan === '4000000000000002' ? DO_NOT_HONOUR : null, CARD, DETAILS);
  },
  answersLate: (instrument) => instrument.method === 'CARD' && instrument.pan === '4000000000008021',
};

const pendingRules: SandboxProcessor = {
  ...rules,
  id: 'sandbox-test-pending',
  methods: ['QR'],
  capabilities: {
    ...NO_CAPTURE,
    instalments: false,
    threeDsResult: false,
    cardWithoutCode: false,
    reversal: false,
    refunds: false,
    partialRefund: false,
    savedCards: NO_SAVED_CARDS,
  },
  async authorize(instrument, context) {
    instrumentFor(instrument, 'QR');
    return {
      outcome: 'pending',
      stateReason: 'Esperando',
      processorResponse: null,
      expiresAt: new Date(context.now.getTime() + 60_000),
      continueUrl: context.payerPageUrl,
      methodDetails: { callback_url: 'https://shop.test/cb' },
    };
  },
};

const cardRequest = (pan = '4111111111111111'): PaymentInstrument => ({
  method: 'CARD',
  pan,
  expiry: '1230',
  securityCode: '123',
});
const QR: PaymentInstrument = { method: 'QR' };

function setUp(processor: SandboxProcessor = rules, timeoutMs = TIMEOUT_MS) {
  const store = memorySandboxStore();
  return { store, connector: sandboxConnector(processor, store, timeoutMs) };
}

function reference(transactionId = testContext().transactionId): TransactionReference {
  return {
    transactionId,
    method: 'CARD',
    amount: 15_000n,
    currency: '604',
    card: { bin: '411111', last4: '1111' },
    processorReference: null,
    createdAt: null,
  };
}

/** Transaction ids `failsFlakily` does (`true`) or does not name. */
function flakyIds(fails: boolean, count: number): string[] {
  const ids: string[] = [];
  for (let index = 0; ids.length < count; index += 1) {
    const id = `b3c1f2de-0000-4000-8000-${String(index).padStart(12, '0')}`;
    if (failsFlakily(id) === fails) ids.push(id);
  }
  return ids;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('failsFlakily', () => {
  it('names about a third of transaction ids, always the same ones', () => {
    const ids = Array.from({ length: 3000 }, (_, index) => `b3c1f2de-0000-4000-8000-${String(index).padStart(12, '0')}`);
    const failing = ids.filter(failsFlakily).length;
    expect(failing / ids.length).toBeGreaterThan(0.3);
    expect(failing / ids.length).toBeLessThan(0.37);
    expect(ids.map(failsFlakily)).toStrictEqual(ids.map(failsFlakily));
  });
});

describe('sandboxConnector', () => {
  it('keeps the processor identity and takes the timeout it is given', () => {
    const { connector } = setUp();
    expect(connector).toMatchObject({
      id: 'sandbox-test',
      name: 'Sandbox test processor',
      methods: ['CARD'],
      currencies: ['604'],
      capabilities: rules.capabilities,
      timeoutMs: TIMEOUT_MS,
    });
  });

  describe('normal', () => {
    it('answers the rules and records approvals, declines and pending payments', async () => {
      const { store, connector } = setUp();
      const approved = await connector.authorize(cardRequest(), testContext({ transactionId: 'approved-1' }));
      if (approved.outcome !== 'approved') throw new Error('expected approved');
      expect(await store.find('sandbox-test', 'approved-1')).toStrictEqual({
        outcome: 'approved',
        authorizationCode: approved.processorResponse.authorization_code,
        brandTransactionId: approved.processorResponse.brand_transaction_id,
      });
      await connector.authorize(cardRequest('4000000000000002'), testContext({ transactionId: 'declined-1' }));
      expect(await store.find('sandbox-test', 'declined-1')).toStrictEqual({ outcome: 'declined', code: '05' });

      const pending = setUp(pendingRules);
      expect((await pending.connector.authorize(QR, testContext({ transactionId: 'pending-1' }))).outcome).toBe('pending');
      expect(await pending.store.find('sandbox-test-pending', 'pending-1')).toStrictEqual({ outcome: 'pending' });
    });

    it('keeps the first decision for a reference', async () => {
      const { store, connector } = setUp();
      const first = await connector.authorize(cardRequest(), testContext());
      await connector.authorize(cardRequest('4000000000000002'), testContext());
      if (first.outcome !== 'approved') throw new Error('expected approved');
      expect(await connector.status(reference())).toStrictEqual({
        outcome: 'approved',
        authorizationCode: first.processorResponse.authorization_code,
        brandTransactionId: first.processorResponse.brand_transaction_id,
      });
      expect((await store.find('sandbox-test', testContext().transactionId))?.outcome).toBe('approved');
    });

    it('throws on a request of another method before reading its mode', async () => {
      const { store, connector } = setUp();
      const modeOf = vi.spyOn(store, 'modeOf');
      await expect(connector.authorize(QR, testContext())).rejects.toThrow('cannot authorize a QR request');
      expect(modeOf).not.toHaveBeenCalled();
    });
  });

  describe('outage', () => {
    it('refuses the connection at once and records nothing', async () => {
      const { store, connector } = setUp();
      await store.setMode('sandbox-test', 'outage');
      expect(await connector.authorize(cardRequest(), testContext())).toStrictEqual({
        outcome: 'technical_failure',
        reason: 'connection_refused',
        stateReason: 'El procesador no está disponible',
        processorResponse: null,
        card: CARD,
        methodDetails: DETAILS,
      });
      expect(await store.find('sandbox-test', testContext().transactionId)).toBeNull();
    });

    it('refuses reversals, keeps refunds in process and cannot tell a status until it is back', async () => {
      const { store, connector } = setUp();
      await connector.authorize(cardRequest(), testContext());
      await store.setMode('sandbox-test', 'outage');
      expect(await connector.reverse(reference())).toStrictEqual({
        outcome: 'refused',
        reason: 'El procesador no está disponible',
      });
      expect(
        await connector.refund({ ...reference(), refundId: 'r-1', refundAmount: 1_000n, registeredAt: new Date() }),
      ).toStrictEqual({ outcome: 'in_process' });
      expect(await connector.status(reference())).toStrictEqual({ outcome: 'unknown' });
      await store.setMode('sandbox-test', 'normal');
      expect(await connector.reverse(reference())).toStrictEqual({ outcome: 'reversed', code: '00' });
      expect((await connector.status(reference())).outcome).toBe('approved');
    });
  });

  describe('slow', () => {
    it('decides and records, then answers a timeout when the caller aborts', async () => {
      // A long timeout: only the caller's abort may end this wait.
      const { store, connector } = setUp(rules, 60_000);
      await store.setMode('sandbox-test', 'slow');
      const caller = new AbortController();
      let settled = false;
      const answer = connector.authorize(cardRequest(), testContext({ signal: caller.signal })).finally(() => {
        settled = true;
      });
      await vi.waitFor(async () => expect(await store.find('sandbox-test', testContext().transactionId)).not.toBeNull(), {
        interval: 5,
      });
      expect(settled).toBe(false);
      caller.abort();
      expect(await answer).toStrictEqual({
        outcome: 'technical_failure',
        reason: 'timeout',
        stateReason: 'El procesador no respondió a tiempo',
        processorResponse: null,
        card: CARD,
        methodDetails: DETAILS,
      });
      const recorded = await store.find('sandbox-test', testContext().transactionId);
      if (recorded?.outcome !== 'approved') throw new Error('expected the approval to be recorded');
      expect(await connector.status(reference())).toStrictEqual({
        outcome: 'approved',
        authorizationCode: recorded.authorizationCode,
        brandTransactionId: recorded.brandTransactionId,
      });
      expect(await connector.reverse(reference())).toStrictEqual({ outcome: 'reversed', code: '00' });
    });

    it('answers when its own timeout passes if the caller never aborts', async () => {
      vi.useFakeTimers();
      const { store, connector } = setUp();
      await store.setMode('sandbox-test', 'slow');
      let settled = false;
      const answer = connector.authorize(cardRequest(), testContext()).finally(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 1);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await answer).outcome).toBe('technical_failure');
    });

    it('answers at once when the caller had already given up', async () => {
      const { store, connector } = setUp();
      await store.setMode('sandbox-test', 'slow');
      const result = await connector.authorize(cardRequest('4000000000000002'), testContext({ signal: AbortSignal.abort() }));
      expect(result.outcome === 'technical_failure' && result.reason).toBe('timeout');
      expect(await connector.status(reference())).toStrictEqual({ outcome: 'declined', code: '05', declineClass: 'soft' });
    });

    it('is the mode of a payment the processor answers late, in normal mode', async () => {
      const { connector } = setUp();
      const result = await connector.authorize(cardRequest('4000000000008021'), testContext({ signal: AbortSignal.abort() }));
      expect(result.outcome === 'technical_failure' && result.reason).toBe('timeout');
      expect((await connector.status(reference())).outcome).toBe('approved');
    });
  });

  describe('flaky', () => {
    it('fails with 96 exactly the payments failsFlakily names, recording nothing for them', async () => {
      const { store, connector } = setUp();
      await store.setMode('sandbox-test', 'flaky');
      for (const transactionId of flakyIds(true, 5)) {
        expect(await connector.authorize(cardRequest(), testContext({ transactionId }))).toStrictEqual({
          outcome: 'technical_failure',
          reason: 'processor_error',
          stateReason: 'Error del procesador',
          processorResponse: { result_message: { code: '96', description: 'Error del procesador' } },
          card: CARD,
          methodDetails: DETAILS,
        });
        expect(await connector.status(reference(transactionId))).toStrictEqual({ outcome: 'not_found' });
      }
      for (const transactionId of flakyIds(false, 5)) {
        expect((await connector.authorize(cardRequest(), testContext({ transactionId }))).outcome).toBe('approved');
        expect((await connector.status(reference(transactionId))).outcome).toBe('approved');
      }
    });
  });

  describe('declining', () => {
    it('declines everything 05 and records the decline', async () => {
      const { store, connector } = setUp();
      await store.setMode('sandbox-test', 'declining');
      expect(await connector.authorize(cardRequest(), testContext())).toStrictEqual({
        outcome: 'declined',
        stateReason: 'Denegada por el emisor',
        processorResponse: { result_message: { code: '05', description: 'Denegada por el emisor' } },
        declineClass: 'soft',
        card: CARD,
        methodDetails: DETAILS,
      });
      expect(await connector.status(reference())).toStrictEqual({ outcome: 'declined', code: '05', declineClass: 'soft' });
      expect(await connector.reverse(reference())).toStrictEqual({
        outcome: 'refused',
        reason: 'El procesador no aprobó este pago',
      });
    });

    it('declines a pending method too, without a card', async () => {
      const { store, connector } = setUp(pendingRules);
      await store.setMode('sandbox-test-pending', 'declining');
      expect(await connector.authorize(QR, testContext())).toStrictEqual({
        outcome: 'declined',
        stateReason: 'Denegada por el emisor',
        processorResponse: { result_message: { code: '05', description: 'Denegada por el emisor' } },
        declineClass: 'soft',
        card: null,
        methodDetails: { callback_url: 'https://shop.test/cb' },
      });
    });
  });

  describe('after authorization', () => {
    it('reverses only what it approved', async () => {
      const { connector } = setUp();
      expect(await connector.reverse(reference())).toStrictEqual({
        outcome: 'refused',
        reason: 'El procesador no registra este pago',
      });
      await connector.authorize(cardRequest(), testContext());
      expect(await connector.reverse(reference())).toStrictEqual({ outcome: 'reversed', code: '00' });
      const other = setUp({ ...rules, id: 'sandbox-other' });
      expect((await other.connector.reverse(reference())).outcome).toBe('refused');
    });

    it('answers status from its record: not found, approved, declined, unknown while pending', async () => {
      const { connector } = setUp();
      expect(await connector.status(reference())).toStrictEqual({ outcome: 'not_found' });
      await connector.authorize(cardRequest('4000000000000002'), testContext());
      expect(await connector.status(reference())).toStrictEqual({ outcome: 'declined', code: '05', declineClass: 'soft' });
      const pending = setUp(pendingRules);
      await pending.connector.authorize(QR, testContext());
      expect(await pending.connector.status({ ...reference(), method: 'QR', card: null })).toStrictEqual({ outcome: 'unknown' });
    });

    it('refunds by the processor rule, resolved without one, not_supported without the capability', async () => {
      const rejecting = setUp({ ...rules, refund: async () => ({ outcome: 'rejected', reason: 'no' }) });
      expect(
        await rejecting.connector.refund({ ...reference(), refundId: 'r-1', refundAmount: 1_000n, registeredAt: new Date() }),
      ).toStrictEqual({
        outcome: 'rejected',
        reason: 'no',
      });
      expect(
        await setUp().connector.refund({ ...reference(), refundId: 'r-1', refundAmount: 1_000n, registeredAt: new Date() }),
      ).toStrictEqual({ outcome: 'resolved' });
      const pending = setUp(pendingRules).connector;
      expect(
        await pending.refund({ ...reference(), refundId: 'r-1', refundAmount: 1_000n, registeredAt: new Date() }),
      ).toStrictEqual({
        outcome: 'not_supported',
        flow: 'refund',
      });
      expect(await pending.reverse(reference())).toStrictEqual({ outcome: 'not_supported', flow: 'reverse' });
    });
  });
});
