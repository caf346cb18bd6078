import { describe, expect, it, vi } from 'vitest';
import { handlePayerAction } from './payer-action-route';

// Behind server.js (or any proxy) a route handler's request.url is the service's own address,
// http://localhost:PORT: the payer must be sent back on the public origin instead.
vi.stubEnv('PUBLIC_ORIGIN', 'https://pagos.example.pe');

const TOKEN = 'pt_0123456789abcdef0123456789abcdef';

describe('a payer action', () => {
  it.each([
    ['an action that changed nothing', { kind: 'unchanged', state: 'PENDIENTE' }],
    ['an expired payment', { kind: 'expired' }],
    ['an unknown token', { kind: 'not_found' }],
  ] as const)('sends the payer back to the page on PUBLIC_ORIGIN after %s', async (_label, outcome) => {
    const request = new Request(`http://localhost:3300/pay/${TOKEN}/abandon?lang=en`, { method: 'POST', body: new FormData() });
    const answer = await handlePayerAction(request, TOKEN, () => Promise.resolve(outcome));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`https://pagos.example.pe/pay/${TOKEN}?lang=en`);
  });
});
