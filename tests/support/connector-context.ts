import { paymentMethodRequest } from '@/server/core/interface/charge-request';
import { instrumentOf } from '@/server/modules/charges/attempts/payment-instrument';
import type { ConnectorContext, PaymentInstrument } from '@/server/payments';
import type { ProcessorAnswer } from '@/server/payments/processor-http';

/** A connector context for tests: 2026-11-21T15:04:05.123Z, 150.00 PEN, captured with its authorization, a signal never aborted. */
export function testContext(overrides: Partial<ConnectorContext> = {}): ConnectorContext {
  return {
    now: new Date('2026-11-21T15:04:05.123Z'),
    transactionId: 'b3c1f2de-0000-4000-8000-000000000001',
    amount: 15_000n,
    currency: '604',
    order: {
      merchantOperationNumber: 'op-0001',
      merchantName: 'Shop TEST',
      description: 'Shop TEST op-0001',
      payer: {
        email: 'ana.quispe@example.pe',
        firstName: 'Ana',
        lastName: 'Quispe',
        phone: '+51987654321',
        address: { line: 'Av. Larco 345', city: 'Lima', country: 'PE' },
      },
    },
    payerPageUrl: 'https://pay.example.test/pay/b3c1f2de-0000-4000-8000-000000000001',
    signal: new AbortController().signal,
    capture: 'automatic',
    ...overrides,
  };
}

/** Every key and string of a connector's answer, to find card data anywhere in it. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object' || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, member]) => [key, ...stringsOf(member)]);
}

/** A `payment_method` as `POST /charges` validates it and the charges module hands it to a connector. */
export const instrumentFromRequest = (paymentMethod: unknown): PaymentInstrument =>
  instrumentOf(paymentMethodRequest.parse(paymentMethod), null, 'sandbox-acquirer-a', null);

/** A processor's HTTP answer with `status` and a JSON `body`, as a connector's client hands it over. */
export const answered = (status: number, body: unknown): Extract<ProcessorAnswer, { kind: 'answered' }> => ({
  kind: 'answered',
  status,
  body,
  text: JSON.stringify(body),
  headers: new Headers(),
});
