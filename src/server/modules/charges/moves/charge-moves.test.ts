import { describe, expect, it } from 'vitest';
import type { TransactionRow } from '@/server/modules/charges/transaction-view';
import { transactionRow } from '@tests/support/transaction-row';
import { chargeMoves } from './charge-moves';

const at = new Date('2026-11-21T15:04:05.123Z');
const row = (states: TransactionRow['state'][]) => transactionRow(states, at);
const audience = { merchantId: 'm-1', merchantCode: 'SHOP', merchantOperationNumber: 'op-1' };

describe('chargeMoves', () => {
  it('gives each first move its lifecycle entry and its event, the transaction as it was then', () => {
    const moves = chargeMoves(row(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']), audience);
    expect(moves.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(moves.events.map((event) => event.type)).toEqual([
      'transaction.registered',
      'transaction.pending',
      'transaction.authorized',
    ]);
    const second = moves.events[1]!.payload as { transaction: { state: string; lifecycle: unknown[] } };
    expect([second.transaction.state, second.transaction.lifecycle.length]).toEqual(['PENDIENTE', 2]);
  });

  it('refuses first moves the table does not have', () => {
    expect(() => chargeMoves(row(['REGISTRADO', 'AUTORIZADO']), audience)).toThrow(
      'transaction move REGISTRADO -> AUTORIZADO is not allowed',
    );
    expect(() => chargeMoves(row(['PENDIENTE']), audience)).toThrow('transaction move NONE -> PENDIENTE is not allowed');
  });
});
