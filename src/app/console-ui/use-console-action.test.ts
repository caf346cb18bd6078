import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import en from '@/messages/en.json';
import { describeFailure, FormProblem } from './use-console-action';

// What a console action shows when the service refuses it: the kinds every action can meet come
// from the catalogue (the service's own text is English), a refused action's own text otherwise.
const t = ((key: keyof typeof en.ui.consoleAction) => en.ui.consoleAction[key]) as Parameters<typeof describeFailure>[1];

const refusal = (kind: string, message: string, code = kind.toLowerCase()) =>
  TRPCClientError.from({ error: { message, code: -32603, data: { kind, errors: [{ code, message }] } } });

describe('describeFailure', () => {
  it('says in the catalogue that the service is busy, limited, or failed, whatever the service wrote', () => {
    const busy = refusal('UNAVAILABLE', 'The service is at capacity; retry after Retry-After seconds');
    expect(describeFailure(busy, t, {})).toBe('The service is busy right now: try again in a few seconds.');
    expect(describeFailure(refusal('RATE_LIMITED', 'Too many requests'), t, {})).toBe(
      'Too many requests in a row: wait a few seconds and try again.',
    );
    expect(describeFailure(refusal('INTERNAL', 'Unexpected error'), t, {})).toBe('The action could not be completed.');
  });

  it("shows a refused action's own text, a form's expected text first, and a form's own problem as it is", () => {
    const conflict = refusal('STATE_CONFLICT', 'the operation is settled', 'not_cancellable');
    expect(describeFailure(conflict, t, {})).toBe('the operation is settled');
    expect(describeFailure(conflict, t, { not_cancellable: 'Ya no se puede anular.' })).toBe('Ya no se puede anular.');
    expect(describeFailure(new FormProblem('Monto inválido'), t, {})).toBe('Monto inválido');
    expect(describeFailure(new Error('network'), t, {})).toBe('The action could not be completed.');
  });
});
