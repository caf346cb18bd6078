import { createPayClient, type ChargeRequest, type FetchLike, type PayClientOptions, type RefundRequest } from '../src/index.js';
import { AUTH_URL, BASE_URL, fakeService } from './fake-service.js';

/** A client on a fake service, with a clock the test moves and waits that only get recorded. */
export function clientOnFake(
  options: Partial<PayClientOptions> & { tokenTtlSeconds?: number; wrapFetch?: (fetch: FetchLike) => FetchLike } = {},
) {
  const service = fakeService({ tokenTtlSeconds: options.tokenTtlSeconds });
  const clock = { now: 1_800_000_000_000 };
  const waits: number[] = [];
  const client = createPayClient({
    baseUrl: BASE_URL,
    authUrl: AUTH_URL,
    clientId: 'client-1',
    clientSecret: 'secret-1',
    fetch: options.wrapFetch ? options.wrapFetch(service.fetch) : service.fetch,
    now: () => clock.now,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, service, clock, waits };
}

export const chargeBody: ChargeRequest = {
  action: 'authorize',
  channel: 'ecommerce',
  merchant_code: 'DEMO001',
  merchant_operation_number: 'ord-1',
  payment_method: {
    method_name: 'CARD',
    method_details: { pan: '4111111111111111', expiry_date: '1230', security_code: '123' },
  },
  payment_details: {
    amount: '15000',
    currency: '604',
    billing: { first_name: 'Ana' },
    shipping: { first_name: 'Ana' },
    customer: { first_name: 'Ana' },
    product_details: [],
  },
};

export const refundBody: RefundRequest = {
  merchant_code: 'DEMO001',
  operations: [
    {
      type: 'TOTAL',
      merchant_operation_number: 'ord-1',
      transaction_id: null,
      refund_amount: '15000',
      additional_fields: { canal: 'web', reason: 'cliente', description: 'talla' },
    },
  ],
};
