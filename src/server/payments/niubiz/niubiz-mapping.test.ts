import { describe, expect, it } from 'vitest';
import { answered, testContext } from '@tests/support/connector-context';
import { purchaseNumberOf } from './niubiz-client';
import {
  antifraudBody,
  antifraudToken,
  authorizationBody,
  authorizationResult,
  confirmationBody,
  hasStatus,
  qrBody,
  refundBody,
  refundReferenceOf,
  refundResult,
  savedCardAuthorizationBody,
  validityDateOf,
  yapeBody,
  yapeToken,
  type Described,
} from './niubiz-mapping';

// Niubiz's mapping against the documentation's own examples (docs/processors/sources/niubiz-api.md),
// with no simulator: the bodies sent, and what recorded answers mean.

const context = testContext({
  amount: 1050n,
  order: {
    merchantOperationNumber: 'op-1',
    merchantName: 'Tienda',
    description: 'Tienda op-1',
    payer: { email: 'ana@example.pe', firstName: 'Ana', lastName: 'Quispe', phone: null },
  },
});
const described: Described = { card: null, methodDetails: { installments: 0 } };

// research §4.2, the observed sandbox approval ([K-obs], July 2022).
const APPROVAL = {
  header: { ecoreTransactionUUID: 'a5739ba8-3ccc-4721-ba61-333b7e7aaab5', ecoreTransactionDate: 1657671996367, millis: 863 },
  fulfillment: { channel: 'Web', merchantId: '456879852', terminalId: '00000001', captureType: 'manual', countable: true },
  order: {
    tokenId: 'B92B3B67232C417FAB3B67232C117FAC',
    purchaseNumber: '13062024',
    amount: 10.5,
    installment: 0,
    currency: 'PEN',
    authorizedAmount: 10.5,
    authorizationCode: '091800',
    actionCode: '000',
    traceNumber: '60427',
    transactionDate: '220712192635',
    transactionId: '993211570048581',
  },
  dataMap: {
    STATUS: 'Authorized',
    ACTION_DESCRIPTION: 'Aprobado y completado con exito',
    ID_UNICO: '993211570048581',
    AMOUNT: '10.5',
    AUTHORIZATION_CODE: '091800',
    CURRENCY: '0604',
    ACTION_CODE: '000',
    TRANSACTION_ID: '993211570048581',
  },
};

// research §4.3, "Error Response STATUS CODE 400" ([PW-PDF] §7.b.iv).
const DECLINE = {
  errorCode: 400,
  errorMessage: 'Not Authorized',
  header: { ecoreTransactionUUID: '3bfe5a37-570c-49cf-bebd-588d7066a33a', ecoreTransactionDate: 1522528900672, millis: 3867 },
  data: {
    CURRENCY: '0604',
    TRANSACTION_DATE: '180331152444',
    ACTION_CODE: '180',
    CARD: '400310****6160',
    BRAND: 'visa',
    STATUS: 'Not Authorized',
    ACTION_DESCRIPTION: 'Tarjeta no valida',
    ID_UNICO: '991180900182558',
    AMOUNT: '125.34',
    TRANSACTION_ID: '991180900182558',
  },
};

describe('the bodies sent to Niubiz', () => {
  const order = { purchaseNumber: purchaseNumberOf(context.transactionId), amount: 10.5, currency: 'PEN' };

  it('authorizes a token with the documented order: manual capture type, countable unless captured later', () => {
    expect(authorizationBody(context, 'B92B3B67232C417FAB3B67232C117FAC', 'web')).toEqual({
      channel: 'web',
      captureType: 'manual',
      countable: true,
      order: { tokenId: 'B92B3B67232C417FAB3B67232C117FAC', ...order },
    });
    expect(authorizationBody({ ...context, capture: 'manual' }, 't', 'pasarela')).toMatchObject({
      channel: 'pasarela',
      countable: false,
    });
    expect(order.purchaseNumber).toMatch(/^\d{1,9}$/);
  });

  it("registers a customer-initiated card to save, and charges a kept card's token on the recurrent channel without the card ([odoo])", () => {
    const order = { purchaseNumber: purchaseNumberOf(context.transactionId), amount: 10.5, currency: 'PEN' };
    expect(authorizationBody(context, 'B92B3B67232C417FAB3B67232C117FAC', 'web', true)).toEqual({
      channel: 'web',
      captureType: 'manual',
      countable: true,
      order: { tokenId: 'B92B3B67232C417FAB3B67232C117FAC', ...order },
      card: { registerFrequent: true, useFrequent: false },
      cardHolder: { email: 'ana@example.pe' },
    });
    expect(savedCardAuthorizationBody(context, { token: '7000010039525187', processorCustomerId: null })).toEqual({
      channel: 'recurrent',
      captureType: 'manual',
      countable: true,
      order,
      card: { tokenId: '7000010039525187', registerFrequent: false, useFrequent: true },
      cardHolder: { email: 'ana@example.pe' },
    });
  });

  it("names a token's owner, not the charge's payer, on its charges and on the customer's next registration", () => {
    const token = { token: '7000010039525187', processorCustomerId: 'owner@example.pe' };
    expect(savedCardAuthorizationBody(context, token).cardHolder).toEqual({ email: 'owner@example.pe' });
    expect(authorizationBody(context, 'B92B3B67232C417FAB3B67232C117FAC', 'web', true, 'owner@example.pe').cardHolder).toEqual({
      email: 'owner@example.pe',
    });
  });

  it('sends the card to the antifraud only, with the payer and the same order', () => {
    const card = { pan: '4474118355632240', expiry: { month: 3, year: 2028 }, securityCode: '111' };
    expect(antifraudBody(card, context)).toEqual({
      channel: 'web',
      cardHolder: { firstName: 'Ana', lastName: 'Quispe', email: 'ana@example.pe' },
      card: { cardNumber: '4474118355632240', expirationMonth: '03', expirationYear: '2028', cvv2: '111' },
      order,
    });
  });

  it("asks Yape's token with the phone and one-time code, and a dynamic QR with our id as idc", () => {
    expect(yapeBody({ subscriber: '987654321' }, '123456', context)).toEqual({
      channel: 'pasarela',
      captureType: 'manual',
      countable: true,
      order,
      yape: { phoneNumber: '987654321', otp: '123456' },
    });
    const expiresAt = new Date('2026-12-03T04:30:00.000Z');
    expect(qrBody('456879852', context, expiresAt)).toEqual({
      enabled: true,
      param: [
        { name: 'merchantId', value: '456879852' },
        { name: 'transactionCurrency', value: '604' },
        { name: 'transactionAmount', value: '10.50' },
        { name: 'idc', value: context.transactionId },
      ],
      tagType: 'DYNAMIC',
      // 23:30 in Lima on 2 December: valid through the 3rd.
      validityDate: '03122026',
    });
    expect(validityDateOf(new Date('2026-12-03T05:00:00.000Z'))).toBe('04122026');
  });
});

describe("Niubiz's answers", () => {
  it('reads the documented approval: its authorization code and transaction id, which later calls name', () => {
    expect(authorizationResult(answered(200, APPROVAL), described)).toMatchObject({
      outcome: 'approved',
      processorResponse: { authorization_code: '091800', brand_transaction_id: '993211570048581' },
      processorReference: '993211570048581',
    });
  });

  it("keeps the token of an approval that kept the card (the recorded answer's top-level token), and none otherwise", () => {
    const kept = { ...APPROVAL, token: { tokenId: '7000010039525187', ownerId: '5482490d-aaaa', expireOn: '280331235959' } };
    expect(authorizationResult(answered(200, kept), described)).toMatchObject({
      outcome: 'approved',
      cardToken: { token: '7000010039525187', processorCustomerId: '5482490d-aaaa' },
    });
    expect(authorizationResult(answered(200, APPROVAL), described)).not.toHaveProperty('cardToken');
  });

  it('reads the documented 400 "Not Authorized" as a decline with its action code and words', () => {
    expect(authorizationResult(answered(400, DECLINE), described)).toMatchObject({
      outcome: 'declined',
      processorResponse: { result_message: { code: '180', description: 'Tarjeta no valida' } },
      processorReference: '991180900182558',
    });
  });

  it('leaves a lost answer, a 5xx or a 200 it does not understand to the status inquiry; a refused connection moves on', () => {
    for (const answer of [{ kind: 'lost' } as const, answered(502, {}), answered(200, { order: { actionCode: '000' } })]) {
      expect(authorizationResult(answer, described)).toMatchObject({ outcome: 'technical_failure', reason: 'timeout' });
    }
    expect(authorizationResult({ kind: 'refused' }, described)).toMatchObject({ reason: 'connection_refused' });
  });

  it("takes the antifraud's token, and a Yape token's; a Yape call lost is never sent elsewhere", () => {
    expect(antifraudToken(answered(200, { token: { tokenId: 'T1' } }), described)).toEqual({ tokenId: 'T1' });
    expect(antifraudToken({ kind: 'lost' }, described)).toMatchObject({ reason: 'connection_refused' });
    expect(yapeToken(answered(200, { data: { YAPE_TRX_TOKEN: 'Y1' } }), described)).toEqual({ tokenId: 'Y1' });
    expect(yapeToken({ kind: 'lost' }, described)).toMatchObject({ reason: 'processor_error' });
    expect(yapeToken(answered(400, { responseCode: '22', responseMessage: 'OTP inválido' }), described)).toMatchObject({
      outcome: 'declined',
      processorResponse: { result_message: { code: 'YAPE-22', description: 'OTP inválido' } },
    });
  });
});

describe('after the sale: void, confirmation, refund', () => {
  it('confirms the whole sale by its transaction id, and reads "Confirmed" and "Voided" as done (research §5, §6.1)', () => {
    expect(confirmationBody({ transactionId: context.transactionId, amount: 1050n }, '993211570048581')).toEqual({
      channel: 'web',
      captureType: 'manual',
      order: {
        purchaseNumber: purchaseNumberOf(context.transactionId),
        amount: 10.5,
        authorizedAmount: 10.5,
        currency: 'PEN',
        transactionId: '993211570048581',
      },
    });
    expect(hasStatus(answered(200, { dataMap: { STATUS: 'Confirmed' } }), 'confirmed')).toBe(true);
    expect(hasStatus(answered(200, { dataMap: { STATUS: 'Not Confirmed' } }), 'confirmed')).toBe(false);
    // research §6.1: a successful void carries actionCode 400 with STATUS "Voided" ([lg]).
    expect(hasStatus(answered(200, { order: { actionCode: '400' }, dataMap: { STATUS: 'Voided' } }), 'voided')).toBe(true);
  });

  it("refunds a part under our refund's 20-character reference, and reads CODERROR 100 and 945 as registered (research §7)", () => {
    const refundId = '0f9e8d7c-6b5a-4f3e-9d2c-1b0a99887766';
    expect(refundReferenceOf(refundId)).toBe('0f9e8d7c6b5a4f3e9d2c');
    expect(refundBody({ refundId, refundAmount: 500n }, '20123456789')).toEqual({
      ruc: '20123456789',
      comment: `Devolución ${refundId}`,
      externalReferenceId: '0f9e8d7c6b5a4f3e9d2c',
      amount: 5,
    });
    expect(refundBody({ refundId, refundAmount: 500n }, null)).not.toHaveProperty('ruc');
    // The answer as [iub] parses it (research §7).
    const registered = { errorCode: 0, errorMessage: 'OK', data: { CODERROR: '100', DSCERROR: 'OK', CODIGODEVOLUCION: '123' } };
    expect(refundResult(answered(200, registered))).toEqual({ outcome: 'resolved' });
    expect(refundResult(answered(400, { errorCode: 400, data: { CODERROR: '945', DSCERROR: 'Referencia repetida' } }))).toEqual({
      outcome: 'resolved',
    });
    expect(refundResult(answered(400, { errorCode: 400, data: { CODERROR: '201', DSCERROR: 'Monto excedido' } }))).toEqual({
      outcome: 'rejected',
      reason: 'Monto excedido',
    });
    expect(refundResult({ kind: 'lost' })).toEqual({ outcome: 'in_process' });
  });
});
