import type * as Crypto from 'node:crypto';
import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeCard } from '@/server/core/domain/card';
import { technicalFailure } from '../outcomes';
import { cardOutcome, randomDigits } from './card-outcome';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return { ...actual, randomInt: vi.fn(actual.randomInt) };
});

/** Makes randomInt return the given digits in turn. */
function scriptDigits(digits: string): void {
  const queue = [...digits].map(Number);
  vi.mocked(randomInt).mockImplementation((max: number) => {
    expect(max).toBe(10);
    const next = queue.shift();
    if (next === undefined) throw new Error('no scripted digit left');
    return next;
  });
}

afterEach(() => {
  vi.mocked(randomInt).mockReset();
});

describe('randomDigits', () => {
  it('joins one randomInt(10) per digit, keeping leading zeros', () => {
    scriptDigits('0012');
    expect(randomDigits(4)).toBe('0012');
  });
});

describe('cardOutcome', () => {
  const card = describeCard('4000000000000002');
  const details = { masked_pan: card.masked_pan };

  it('approves with a 6-digit authorization code and a 15-digit brand transaction id', () => {
    scriptDigits('123456' + '987654321012345');
    expect(cardOutcome(null, card, details)).toStrictEqual({
      outcome: 'approved',
      stateReason: 'Transacción aprobada',
      processorResponse: {
        authorization_code: '123456',
        brand_transaction_id: '987654321012345',
        result_message: { code: '00', description: 'Aprobado' },
      },
      card,
      methodDetails: details,
    });
  });

  it('declines with only the result message and its description as reason', () => {
    expect(cardOutcome({ code: '51', description: 'Fondos insuficientes' }, card, details)).toStrictEqual({
      outcome: 'declined',
      stateReason: 'Fondos insuficientes',
      processorResponse: { result_message: { code: '51', description: 'Fondos insuficientes' } },
      declineClass: 'soft',
      card,
      methodDetails: details,
    });
    expect(randomInt).not.toHaveBeenCalled();
  });
});

describe('technicalFailure', () => {
  const card = describeCard('4000000000000119');
  const details = { masked_pan: card.masked_pan };

  it('carries the processor 96 for a processor error', () => {
    expect(technicalFailure('processor_error', card, details)).toStrictEqual({
      outcome: 'technical_failure',
      reason: 'processor_error',
      stateReason: 'Error del procesador',
      processorResponse: { result_message: { code: '96', description: 'Error del procesador' } },
      card,
      methodDetails: details,
    });
  });

  it.each([
    ['timeout', 'El procesador no respondió a tiempo'],
    ['connection_refused', 'El procesador no está disponible'],
  ] as const)('carries no processor answer for %s', (reason, stateReason) => {
    expect(technicalFailure(reason, null, {})).toStrictEqual({
      outcome: 'technical_failure',
      reason,
      stateReason,
      processorResponse: null,
      card: null,
      methodDetails: {},
    });
    expect(randomInt).not.toHaveBeenCalled();
  });
});
