import { describe, expect, it } from 'vitest';
import { PAYMENT_METHODS } from '@/server/domain/states';
import { CONNECTORS, connectorFor } from './registry';
import { cardConnector } from './sandbox/card';
import { pagoEfectivoConnector } from './sandbox/pagoefectivo';
import { qrConnector } from './sandbox/qr';
import { bankTransferConnector, cuotealoConnector } from './sandbox/redirect';
import { yapeConnector } from './sandbox/yape';

describe('connectorFor', () => {
  it.each(PAYMENT_METHODS)('returns a %s connector', (method) => {
    expect(connectorFor(method).methods).toContain(method);
  });

  it('maps every method to its sandbox connector', () => {
    expect(connectorFor('CARD')).toBe(cardConnector);
    expect(connectorFor('YAPE')).toBe(yapeConnector);
    expect(connectorFor('BANK_TRANSFER')).toBe(bankTransferConnector);
    expect(connectorFor('CUOTEALO')).toBe(cuotealoConnector);
    expect(connectorFor('PAGOEFECTIVO')).toBe(pagoEfectivoConnector);
    expect(connectorFor('QR')).toBe(qrConnector);
  });
});

describe('CONNECTORS', () => {
  it('names every connector once', () => {
    const ids = CONNECTORS.map((connector) => connector.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      'sandbox-card',
      'sandbox-yape',
      'sandbox-bank-transfer',
      'sandbox-cuotealo',
      'sandbox-pagoefectivo',
      'sandbox-qr',
    ]);
  });
});
