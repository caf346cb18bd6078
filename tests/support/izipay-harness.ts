import { randomBytes, randomInt } from 'node:crypto';
import { processorConnector } from '@/server/payments';
import { basicAuthorization } from '@/server/payments/izipay/izipay-client';
import { startIzipaySimulator } from '../simulators/izipay/izipay-simulator';
import { card, endpointsOf, testAccount, TIMEOUT_MS, type Harness } from './connector-harnesses';

// Izipay's connector at one Izipay simulator, for the connectors' battery. One shop for the whole
// harness (its Basic credentials are what every request must carry: `wire.headers`); each `open()`
// is a new connector on it, and every attempt a new order (our transaction id).

/** A shop id and REST password of the shapes Izipay issues (research §1.1). */
export function izipayKeys() {
  const shopId = String(randomInt(10_000_000, 100_000_000));
  return { shopId, password: `testpassword_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}` };
}

export async function izipayHarness(): Promise<Harness> {
  const simulator = await startIzipaySimulator();
  const keys = izipayKeys();
  simulator.addAccount(keys);
  const endpoints = endpointsOf({ izipayApi: simulator.url });
  return {
    name: 'izipay',
    timeoutMs: TIMEOUT_MS,
    // Research §1.1, §2.2, §11: card data only in Charge/CreatePayment (`paymentForms[]`, two-digit
    // month and year as strings), amounts as integer cents, `Authorization: Basic shop:password`
    // and a JSON body on every request.
    wire: {
      requests: () => simulator.requests,
      cardData: {
        host: 'api',
        path: '/api-payment/V4/Charge/CreatePayment',
        fields: { paymentForms: [{ paymentMethodType: 'CARD', expiryMonth: '12', expiryYear: '30' }] },
      },
      amount: { path: '/api-payment/V4/Charge/CreatePayment', field: 'amount', value: 15000 },
      headers: { authorization: basicAuthorization(keys.shopId, keys.password), 'content-type': 'application/json' },
    },
    async open() {
      const account = testAccount('izipay', simulator.url, { publicKey: keys.shopId, secretKey: keys.password });
      return {
        connector: processorConnector(account, endpoints),
        setFault: async (fault) => simulator.setMode(fault, { key: keys.shopId, delayMs: TIMEOUT_MS * 2 }),
        refunded: async (uuid) => {
          const transaction = simulator.transaction(uuid);
          if (!transaction) throw new Error(`no transaction ${uuid}`);
          const details = transaction.transactionDetails as { cardDetails: { captureResponse: { refundAmount: number } } };
          return BigInt(details.cardDetails.captureResponse.refundAmount);
        },
      };
    },
    // Research §10.1 (accepted, 3DS2 challenge), §10.2 (Izipay's sandbox decline cards).
    approved: { CARD: card('4970100000000055') },
    declines: [
      { name: 'insufficient funds (51)', method: 'CARD', request: card('4003331978380689'), code: '51', declineClass: 'soft' },
      { name: 'lost card (41)', method: 'CARD', request: card('4014818108389710'), code: '41', declineClass: 'hard' },
      { name: 'expired card (54)', method: 'CARD', request: card('4008069640361357'), code: '54', declineClass: 'hard' },
      {
        name: 'over the withdrawal limit (61)',
        method: 'CARD',
        request: card('5114803122406407'),
        code: '61',
        declineClass: 'soft',
      },
      {
        name: '3-D Secure challenge demanded',
        method: 'CARD',
        request: card('4970110000001003'),
        code: '3DS_CHALLENGE',
        declineClass: 'sca_required',
      },
    ],
    notifies: true,
    close: () => simulator.close(),
  };
}
