import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '@/server/core/domain/money';
import { PENDING_METHODS } from '@/server/core/domain/expiry';
import { PAYMENT_METHODS, type PaymentMethod } from '@/server/core/domain/states';
import { DECLINE_CLASSES } from '@/server/core/domain/decline-class';
import type {
  AuthorizeResult,
  ConnectorContext,
  PaymentConnector,
  PaymentInstrument,
  TransactionReference,
} from '@/server/payments';
import { stringsOf, testContext } from './connector-context';
import { ANY_METHOD_REQUEST, type Harness } from './connector-harnesses';

// One battery for every connector (docs/ORCHESTRATION.md 1), sandbox or real, as Hyperswitch runs
// one against all its connectors: what any processor's integration owes whatever its processor.
// The real ones run against their processors' simulators (tests/simulators), which they cannot
// tell from the processors. Each harness (tests/support/connector-harnesses.ts) gives a fresh
// connector, its processor's faults, valid requests and its processor's documented declines; the
// sandbox's own rules and modes are sandbox/sandbox-contract.test.ts's.

/** Registers the battery for each harness, and closes them after the file's tests. */
export function connectorBattery(harnesses: Harness[]): void {
  afterAll(async () => {
    await Promise.all(harnesses.map((harness) => harness.close()));
  });

  const isPending = (method: PaymentMethod) => (PENDING_METHODS as readonly string[]).includes(method);

  /** A context of its own (every attempt is a new transaction), given up after the harness's timeout. */
  function contextFor(
    harness: Harness,
    connector: PaymentConnector,
    overrides: Partial<ConnectorContext> = {},
  ): ConnectorContext {
    return testContext({
      now: new Date(),
      transactionId: randomUUID(),
      currency: connector.currencies[0]!,
      signal: AbortSignal.timeout(harness.timeoutMs),
      ...overrides,
    });
  }

  function referenceOf(context: ConnectorContext, method: PaymentMethod, result?: AuthorizeResult): TransactionReference {
    const card = result && 'card' in result && result.card ? { bin: result.card.bin, last4: result.card.last_pan } : null;
    return {
      transactionId: context.transactionId,
      method,
      amount: context.amount,
      currency: context.currency,
      card,
      processorReference: (result && 'processorReference' in result ? result.processorReference : undefined) ?? null,
      createdAt: context.now,
    };
  }

  /** No card number, security code or one-time code of the request anywhere in the answer. */
  function expectNoCardData(instrument: PaymentInstrument, result: AuthorizeResult): void {
    const strings = stringsOf(result);
    // Neither under its own name nor as a value.
    expect(strings).not.toContain('pan');
    expect(strings).not.toContain('security_code');
    if (instrument.method === 'CARD') {
      expect(strings.filter((value) => value.includes(instrument.pan))).toEqual([]);
      expect(strings).not.toContain(instrument.securityCode);
    }
    if (instrument.method === 'YAPE') expect(strings).not.toContain(instrument.otp);
  }

  function expectWellFormed(result: AuthorizeResult, context: ConnectorContext): void {
    expect(result.stateReason).toEqual(expect.any(String));
    expect(result.stateReason).not.toBe('');
    expect(result.methodDetails).toEqual(expect.any(Object));
    switch (result.outcome) {
      case 'approved':
        expect(result.processorResponse.authorization_code).toMatch(/^\S+$/);
        expect(result.processorResponse.brand_transaction_id).toMatch(/^\S+$/);
        expect(result.processorResponse.result_message.code).toBe('00');
        break;
      case 'declined':
        expect(result.processorResponse.result_message.code).not.toBe('00');
        expect(result.processorResponse.result_message.description).not.toBe('');
        expect(DECLINE_CLASSES).toContain(result.declineClass);
        break;
      case 'technical_failure':
        expect(['timeout', 'connection_refused', 'processor_error']).toContain(result.reason);
        break;
      case 'challenge':
        expect(new URL(result.challengeUrl).protocol).toMatch(/^https?:$/);
        break;
      case 'pending':
        expect(result.expiresAt.getTime()).toBeGreaterThan(context.now.getTime());
        if (result.continueUrl !== null) expect(new URL(result.continueUrl).protocol).toMatch(/^https?:$/);
        break;
    }
  }

  describe.each(harnesses.map((harness) => [harness.name, harness] as const))('connector %s', (_name, harness) => {
    const open = () => harness.open();
    const requestOf = (method: PaymentMethod): PaymentInstrument => {
      const request = harness.approved[method];
      if (!request) throw new Error(`the ${harness.name} harness has no ${method} request`);
      return request;
    };

    it('declares its id, name, methods, currencies, capabilities and timeout', async () => {
      const { connector } = await open();
      expect(connector.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(connector.name.trim()).not.toBe('');
      expect(connector.methods.length).toBeGreaterThan(0);
      for (const method of connector.methods) {
        expect(PAYMENT_METHODS).toContain(method);
        expect(harness.approved[method]).toBeDefined();
      }
      expect(connector.currencies.length).toBeGreaterThan(0);
      for (const currency of connector.currencies) expect(Object.keys(CURRENCIES)).toContain(currency);
      expect(Object.keys(connector.capabilities).sort()).toEqual([
        'captureHoldDays',
        'cardWithoutCode',
        'instalments',
        'partialCapture',
        'partialRefund',
        'refunds',
        'reversal',
        'savedCards',
        'separateCapture',
        'threeDsResult',
      ]);
      expect(Object.keys(connector.capabilities.savedCards).sort()).toEqual([
        'deleteToken',
        'mitWithNti',
        'tokenWithoutCode',
        'tokenize',
        'zeroAmountVerify',
      ]);
      for (const flag of Object.values(connector.capabilities.savedCards)) expect(typeof flag).toBe('boolean');
      // A token it charges without the code is a token it keeps.
      const { tokenize, tokenWithoutCode } = connector.capabilities.savedCards;
      expect(!tokenWithoutCode || tokenize).toBe(true);
      // A part is a kind of the whole: partial capture needs separate capture, a partial refund refunds.
      if (connector.capabilities.partialCapture) expect(connector.capabilities.separateCapture).toBe(true);
      if (connector.capabilities.partialRefund) expect(connector.capabilities.refunds).toBe(true);
      const { captureHoldDays, savedCards: _savedCards, ...flags } = connector.capabilities;
      for (const capability of Object.values(flags)) expect(typeof capability).toBe('boolean');
      // A processor that holds an authorization for less than the longest window (29 days) says how long.
      if (captureHoldDays !== null)
        expect(Number.isInteger(captureHoldDays) && captureHoldDays >= 1 && captureHoldDays < 29).toBe(true);
      if (!connector.capabilities.separateCapture) expect(captureHoldDays).toBeNull();
      expect(Number.isInteger(connector.timeoutMs) && connector.timeoutMs > 0).toBe(true);
    });

    it('approves (or leaves to its payer) a valid request of each of its methods, well formed, and never echoes card data', async () => {
      const { connector } = await open();
      for (const method of connector.methods) {
        const context = contextFor(harness, connector);
        const request = requestOf(method);
        const result = await connector.authorize(request, context);
        expectWellFormed(result, context);
        expect(result.outcome).toBe(isPending(method) ? 'pending' : 'approved');
        expectNoCardData(request, result);
      }
    });

    it('charges a saved card by MIT with the initial network transaction id, where it declares mitWithNti', async () => {
      const { connector } = await open();
      if (!connector.capabilities.savedCards.mitWithNti) return;
      const card = requestOf('CARD');
      if (card.method !== 'CARD') throw new Error('a card request');
      const first = await connector.authorize(
        { ...card, storedCredential: { initiator: 'CUSTOMER', usage: 'FIRST', reason: 'RECURRING', initialNti: null } },
        contextFor(harness, connector),
      );
      if (first.outcome !== 'approved') throw new Error(`expected the saving charge approved, got ${first.outcome}`);
      const { securityCode: _securityCode, ...withoutCode } = card;
      const mit = {
        ...withoutCode,
        storedCredential: {
          initiator: 'MERCHANT',
          usage: 'SUBSEQUENT',
          reason: 'RECURRING',
          initialNti: first.networkTransactionId ?? null,
        },
      } as const;
      const context = contextFor(harness, connector);
      const result = await connector.authorize(mit, context);
      expectWellFormed(result, context);
      expect(result.outcome).toBe('approved');
      expectNoCardData(mit, result);
    });

    it('keeps a token of its own from a customer-initiated approval of a saved card, charges it and deletes it, where it declares tokenize', async () => {
      const { connector } = await open();
      const { tokenize, deleteToken } = connector.capabilities.savedCards;
      if (!tokenize) {
        const instrument = { method: 'CARD' as const, pan: '4111111111111111', expiry: '1230', securityCode: '123' };
        expect(await connector.provisionCardToken(instrument, contextFor(harness, connector))).toStrictEqual({
          outcome: 'not_supported',
          flow: 'provision_token',
        });
        expect(await connector.deleteCardToken({ token: 'tok_none', processorCustomerId: null })).toStrictEqual(
          deleteToken ? { outcome: 'deleted' } : { outcome: 'not_supported', flow: 'delete_token' },
        );
        return;
      }
      const card = requestOf('CARD');
      if (card.method !== 'CARD') throw new Error('a card request');
      const saving = {
        ...card,
        storedCredential: { initiator: 'CUSTOMER', usage: 'FIRST', reason: 'RECURRING', initialNti: null },
      } as const;
      const firstContext = contextFor(harness, connector);
      const first = await connector.authorize(saving, firstContext);
      if (first.outcome !== 'approved') throw new Error(`expected an approval, got ${first.outcome}`);
      // The token comes with the approval (Izipay's REGISTER_PAY) or is made after it (Culqi's and Mercado Pago's cards).
      const provisioned = first.cardToken ? null : await connector.provisionCardToken(saving, firstContext);
      const cardToken = first.cardToken ?? (provisioned?.outcome === 'provisioned' ? provisioned.token : null);
      if (!cardToken) throw new Error(`expected a token, got ${JSON.stringify(provisioned)}`);
      expect(stringsOf(cardToken).filter((value) => value.includes(card.pan))).toEqual([]);
      const { securityCode: _securityCode, ...withoutCode } = card;
      // An MIT where its token carries one; else a one-click charge with the code captured again.
      const mit = connector.capabilities.savedCards.tokenWithoutCode
        ? ({
            ...withoutCode,
            storedCredential: {
              initiator: 'MERCHANT',
              usage: 'SUBSEQUENT',
              reason: 'RECURRING',
              initialNti: first.networkTransactionId ?? null,
              processorToken: cardToken,
            },
          } as const)
        : ({
            ...card,
            storedCredential: {
              initiator: 'CUSTOMER',
              usage: 'SUBSEQUENT',
              reason: null,
              initialNti: first.networkTransactionId ?? null,
              processorToken: cardToken,
            },
          } as const);
      const context = contextFor(harness, connector);
      const charged = await connector.authorize(mit, context);
      expectWellFormed(charged, context);
      expect(charged.outcome).toBe('approved');
      expect(charged.outcome === 'approved' && charged.cardToken).toBeFalsy();
      expect(await connector.deleteCardToken(cardToken)).toStrictEqual(
        deleteToken ? { outcome: 'deleted' } : { outcome: 'not_supported', flow: 'delete_token' },
      );
      if (!deleteToken) return;
      // Deleted: the processor no longer charges it. The card is not at fault (the vault still holds
      // it), so the answer is a technical failure that lets routing carry the card elsewhere.
      const after = await connector.authorize(mit, contextFor(harness, connector));
      expect(after).toMatchObject({ outcome: 'technical_failure', reason: 'processor_error' });
    });

    it('verifies a card for a zero amount where it declares zeroAmountVerify, and says not_supported elsewhere', async () => {
      const { connector } = await open();
      const card = connector.methods.includes('CARD') ? requestOf('CARD') : null;
      const instrument = card?.method === 'CARD' ? card : { method: 'CARD' as const, pan: '4111111111111111', expiry: '1230' };
      const result = await connector.verifyCard(instrument, { ...contextFor(harness, connector), amount: 0n });
      if (!connector.capabilities.savedCards.zeroAmountVerify) {
        expect(result).toStrictEqual({ outcome: 'not_supported', flow: 'verify' });
        return;
      }
      expect(result.outcome).toBe('verified');
      expect(stringsOf(result).filter((value) => value.includes(instrument.pan))).toEqual([]);
    });

    it('authorizes a typed card without its code after a challenge: as it is where it declares cardWithoutCode, else by a token it held before', async () => {
      const { connector } = await open();
      const card = connector.methods.includes('CARD') ? requestOf('CARD') : null;
      const typed =
        card?.method === 'CARD'
          ? card
          : { method: 'CARD' as const, pan: '4111111111111111', expiry: '1230', securityCode: '123' };
      const { securityCode: _securityCode, ...withoutCode } = typed;
      const held = await connector.holdCard(typed, contextFor(harness, connector));
      if (!card || connector.capabilities.cardWithoutCode) {
        // Nothing to hold where the card goes without its code, or no card goes at all.
        expect(held).toStrictEqual({ outcome: 'not_supported', flow: 'hold_card' });
        if (!card) return;
        const context = contextFor(harness, connector);
        const result = await connector.authorize(withoutCode, context);
        expectWellFormed(result, context);
        expect(result.outcome).toBe('approved');
        return;
      }
      // Routing sends a processor that can do neither no card after a challenge (complete-challenge.ts).
      if (held.outcome === 'not_supported') return;
      if (held.outcome !== 'held') throw new Error(`expected the card held, got ${held.outcome}`);
      expect(held.expiresAt.getTime()).toBeGreaterThan(Date.now());
      expect(stringsOf(held).filter((value) => value.includes(typed.pan))).toEqual([]);
      const context = contextFor(harness, connector);
      const result = await connector.authorize({ ...withoutCode, heldToken: held.token }, context);
      expectWellFormed(result, context);
      expect(result.outcome).toBe('approved');
      expectNoCardData(typed, result);
      // One use: the same token charges nothing twice.
      const again = await connector.authorize({ ...withoutCode, heldToken: held.token }, contextFor(harness, connector));
      expect(again.outcome).not.toBe('approved');
    });

    it('finds what it approved when asked, and nothing of a payment it never saw', async () => {
      const { connector } = await open();
      for (const method of connector.methods.filter((each) => !isPending(each))) {
        const context = contextFor(harness, connector);
        const result = await connector.authorize(requestOf(method), context);
        if (result.outcome !== 'approved') throw new Error(`expected an approval, got ${result.outcome}`);
        // Asked by our transaction alone, as after a lost answer: the processor's id is not known then.
        const status = await connector.status({ ...referenceOf(context, method), processorReference: null });
        expect(status).toMatchObject({
          outcome: 'approved',
          authorizationCode: result.processorResponse.authorization_code,
          brandTransactionId: result.processorResponse.brand_transaction_id,
        });
        // The processor's id, when it has one, so that what follows names the payment directly.
        if (status.outcome === 'approved' && result.processorReference)
          expect(status.processorReference).toBe(result.processorReference);
        // Never seen: not found once the attempt is old enough to be sure; just made, unknown is the careful answer too.
        const old = contextFor(harness, connector, { now: new Date(Date.now() - 3_600_000) });
        expect(await connector.status(referenceOf(old, method))).toStrictEqual({ outcome: 'not_found' });
        expect(['not_found', 'unknown']).toContain(
          (await connector.status(referenceOf(contextFor(harness, connector), method))).outcome,
        );
      }
    });

    it.each(harness.declines.map((decline) => [decline.name, decline] as const))(
      'declines %s with its processor code and class, without card data, and never reports it approved',
      async (_decline, decline) => {
        const { connector } = await open();
        const context = contextFor(harness, connector, decline.context);
        const result = await connector.authorize(decline.request, context);
        expectWellFormed(result, context);
        expectNoCardData(decline.request, result);
        expect(result.outcome === 'declined' && [result.processorResponse.result_message.code, result.declineClass]).toEqual([
          decline.code,
          decline.declineClass,
        ]);
        const status = await connector.status(referenceOf(context, decline.method, result));
        expect(['declined', 'not_found', 'unknown']).toContain(status.outcome);
        if (status.outcome === 'declined') expect(status.code).toBe(decline.code);
      },
    );

    it('reverses what it approved, answers reversed when asked again, and refuses a payment it declined', async () => {
      const { connector } = await open();
      for (const method of connector.methods) {
        const context = contextFor(harness, connector);
        const result = await connector.authorize(requestOf(method), context);
        const reference = referenceOf(context, method, result);
        const first = await connector.reverse(reference);
        const second = await connector.reverse(reference);
        if (first.outcome === 'not_supported') {
          expect(second).toStrictEqual(first);
          continue;
        }
        expect(first.outcome).toBe('reversed');
        expect(second.outcome).toBe('reversed');
      }
      const declined = harness.declines.find((decline) => connector.methods.includes(decline.method));
      if (declined) {
        const context = contextFor(harness, connector, declined.context);
        const result = await connector.authorize(declined.request, context);
        expect(['refused', 'not_supported']).toContain(
          (await connector.reverse(referenceOf(context, declined.method, result))).outcome,
        );
      }
    });

    it('refunds an approved card or Yape payment whole, and answers the same when asked again', async () => {
      const { connector } = await open();
      for (const method of connector.methods.filter((each) => each === 'CARD' || each === 'YAPE')) {
        const context = contextFor(harness, connector);
        const result = await connector.authorize(requestOf(method), context);
        const reference = referenceOf(context, method, result);
        const request = { ...reference, refundId: randomUUID(), refundAmount: reference.amount, registeredAt: new Date() };
        const first = await connector.refund(request);
        expect(['resolved', 'in_process']).toContain(first.outcome);
        expect(await connector.refund(request)).toStrictEqual(first);
      }
    });

    it('refunds an approved card or Yape payment in parts, when it declares partial refunds', async () => {
      const { connector, refunded } = await open();
      if (!connector.capabilities.partialRefund) return;
      for (const method of connector.methods.filter((each) => each === 'CARD' || each === 'YAPE')) {
        const context = contextFor(harness, connector);
        const result = await connector.authorize(requestOf(method), context);
        const reference = referenceOf(context, method, result);
        for (const refundAmount of [5_000n, 4_000n]) {
          const request = { ...reference, refundAmount, refundId: randomUUID(), registeredAt: new Date() };
          const answer = await connector.refund(request);
          expect(['resolved', 'in_process']).toContain(answer.outcome);
          expect(await connector.refund(request)).toStrictEqual(answer);
        }
        if (refunded) expect(await refunded(reference.processorReference!)).toBe(9_000n);
      }
    });

    it('makes a refund in parts whose answer was lost once, when asked again', async () => {
      const harnessed = await open();
      const { connector, refunded } = harnessed;
      if (!connector.capabilities.partialRefund) return;
      for (const method of connector.methods.filter((each) => each === 'CARD' || each === 'YAPE')) {
        const context = contextFor(harness, connector);
        const reference = referenceOf(context, method, await connector.authorize(requestOf(method), context));
        const part = { ...reference, refundAmount: 5_000n, refundId: randomUUID(), registeredAt: new Date() };
        await harnessed.setFault('slow');
        const lost = await connector.refund(part);
        await harnessed.setFault('normal');
        // A processor that answers late has made it by now.
        await new Promise((resolve) => setTimeout(resolve, harness.timeoutMs * 2));
        expect(['resolved', 'in_process']).toContain(lost.outcome);
        expect(['resolved', 'in_process']).toContain((await connector.refund(part)).outcome);
        expect(['resolved', 'in_process']).toContain((await connector.refund(part)).outcome);
        if (refunded) expect(await refunded(reference.processorReference!)).toBe(5_000n);
        // All the rest can still be refunded: the lost one was not made twice.
        const rest = { ...reference, refundAmount: reference.amount - 5_000n, refundId: randomUUID(), registeredAt: new Date() };
        expect(['resolved', 'in_process']).toContain((await connector.refund(rest)).outcome);
        if (refunded) expect(await refunded(reference.processorReference!)).toBe(reference.amount);
      }
    });

    it('captures an authorization made to be captured later, once, all or part, when it declares separate capture', async () => {
      const { connector } = await open();
      if (!connector.capabilities.separateCapture) {
        const context = contextFor(harness, connector);
        const method = connector.methods[0]!;
        expect(await connector.capture({ ...referenceOf(context, method), captureAmount: context.amount })).toStrictEqual({
          outcome: 'not_supported',
          flow: 'capture',
        });
        return;
      }
      const part = connector.capabilities.partialCapture ? 9_000n : 15_000n;
      const context = contextFor(harness, connector, { capture: 'manual' });
      const result = await connector.authorize(requestOf('CARD'), context);
      expect(result.outcome).toBe('approved');
      const reference = referenceOf(context, 'CARD', result);
      expect(await connector.status(reference)).toMatchObject({ outcome: 'approved', capturedAmount: null });
      expect(await connector.capture({ ...reference, captureAmount: part })).toStrictEqual({ outcome: 'captured' });
      // Asked again (its answer lost), the same capture answers the same; another is refused.
      expect(await connector.capture({ ...reference, captureAmount: part })).toStrictEqual({ outcome: 'captured' });
      expect((await connector.capture({ ...reference, captureAmount: part - 1n })).outcome).toBe('refused');
      expect(await connector.status(reference)).toMatchObject({ outcome: 'approved', capturedAmount: part });
      // An authorization captured with its payment is never captured again: refused, or (a processor
      // that cannot tell its own capture from an earlier one) answered as captured, with nothing more taken.
      const automatic = contextFor(harness, connector);
      const paidReference = referenceOf(automatic, 'CARD', await connector.authorize(requestOf('CARD'), automatic));
      expect(['refused', 'captured']).toContain((await connector.capture({ ...paidReference, captureAmount: part })).outcome);
      expect((await connector.capture({ ...paidReference, captureAmount: part - 1n })).outcome).toBe('refused');
      const paid = await connector.status(paidReference);
      if (paid.outcome === 'approved' && paid.capturedAmount !== undefined) expect(paid.capturedAmount).toBe(automatic.amount);
    });

    it('releases an uncaptured authorization when reversed: it cannot be captured after', async () => {
      const { connector } = await open();
      if (!connector.capabilities.separateCapture) return;
      const context = contextFor(harness, connector, { capture: 'manual' });
      const reference = referenceOf(context, 'CARD', await connector.authorize(requestOf('CARD'), context));
      expect((await connector.reverse(reference)).outcome).toBe('reversed');
      expect((await connector.capture({ ...reference, captureAmount: context.amount })).outcome).toBe('refused');
      // Nothing captured: still an authorization the processor never captured, or a reserve it cancelled.
      const status = await connector.status(reference);
      expect(
        status.outcome === 'declined' || (status.outcome === 'approved' && status.capturedAmount === null),
        status.outcome,
      ).toBe(true);
    });

    it.skipIf(!harness.wire)(
      'sends card data only where its processor documents, amounts in its units, its headers',
      async () => {
        const wire = harness.wire!;
        const { connector } = await open();
        const instrument = requestOf('CARD');
        if (instrument.method !== 'CARD') throw new Error('a card request');
        const context = contextFor(harness, connector);
        const from = wire.requests().length;
        expect((await connector.authorize(instrument, context)).outcome).toBe('approved');
        const sent = wire.requests().slice(from);
        const withCard = sent.filter((request) => `${request.query} ${request.body}`.includes(instrument.pan));
        expect(withCard.map((request) => [request.host, request.path])).toEqual([[wire.cardData.host, wire.cardData.path]]);
        expect(JSON.parse(withCard[0]!.body)).toMatchObject(wire.cardData.fields);
        // As a JSON string value: three bare digits could sit inside any id of another body.
        const securityCode = JSON.stringify(instrument.securityCode);
        expect(sent.filter((request) => request.body.includes(securityCode)).map((request) => request.path)).toEqual([
          wire.cardData.path,
        ]);
        const payment = sent.find((request) => request.method === 'POST' && request.path === wire.amount.path);
        expect(
          wire.amount.field
            .split('.')
            .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], JSON.parse(payment!.body)),
        ).toBe(wire.amount.value);
        for (const request of sent) expect(request.headers).toMatchObject(wire.headers);
      },
    );

    it('refuses a request of a method it does not carry, as a programming error', async () => {
      const { connector } = await open();
      const other = PAYMENT_METHODS.find((method) => !connector.methods.includes(method));
      if (!other) return;
      const request = ANY_METHOD_REQUEST[other];
      await expect(connector.authorize(request, contextFor(harness, connector))).rejects.toThrow(
        `cannot authorize a ${other} request`,
      );
    });

    it(harness.notifies ? 'refuses a notification nobody can verify' : 'sends no notifications', async () => {
      const { connector } = await open();
      const result = await connector.notification({
        headers: new Headers({ 'content-type': 'application/json' }),
        query: new URLSearchParams('data.id=123&type=payment'),
        body: JSON.stringify({ object: 'event', id: 'evt_test_notarealevent0000', type: 'order.status.changed', data: '{}' }),
        receivedAt: new Date(),
      });
      expect(result.outcome).toBe(harness.notifies ? 'refused' : 'not_supported');
    });

    describe('faults: never a failure that hides an approval', () => {
      it.each(['outage', 'slow'] as const)(
        '%s: fails without a decision; an approval found later was answered as in doubt',
        async (fault) => {
          const harnessed = await open();
          const { connector } = harnessed;
          for (const method of connector.methods.filter((each) => !isPending(each))) {
            await harnessed.setFault(fault);
            const context = contextFor(harness, connector);
            const result = await connector.authorize(requestOf(method), context);
            await harnessed.setFault('normal');
            expect(result.outcome).toBe('technical_failure');
            // Let a slow processor finish what it was asked.
            await new Promise((resolve) => setTimeout(resolve, harness.timeoutMs * 2));
            const status = await connector.status(referenceOf(context, method));
            // A payment the processor approved may only have been answered `timeout`: the one answer
            // after which the service asks before going anywhere else (docs/ORCHESTRATION.md 3).
            if (status.outcome === 'approved') expect(result.outcome === 'technical_failure' && result.reason).toBe('timeout');
          }
        },
      );
    });
  });
}
