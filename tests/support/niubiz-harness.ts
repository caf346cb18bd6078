import { randomBytes, randomInt } from 'node:crypto';
import { processorConnector } from '@/server/payments';
import { startNiubizSimulator, type NiubizSimulator } from '../simulators/niubiz/niubiz-simulator';
import { card, endpointsOf, pending, testAccount, TIMEOUT_MS, yape, type Harness } from './connector-harnesses';

// Niubiz's connector on new accounts at one Niubiz simulator (tests/simulators/niubiz/README.md),
// for the connectors' contract battery. Test data: docs/processors/sources/niubiz-api.md §13.

/** A new account as Niubiz provisions one: a merchant code (nine digits), an API user (email) and its password (research §1.2). */
export function niubizKeys() {
  return {
    merchantId: String(randomInt(100_000_000, 1_000_000_000)),
    user: `integraciones+${randomBytes(4).toString('hex')}@niubiz.test`,
    password: randomBytes(9).toString('base64url'),
  };
}

export async function niubizHarness(): Promise<Harness> {
  const simulator: NiubizSimulator = await startNiubizSimulator();
  const endpoints = endpointsOf({ niubizApi: { test: simulator.url, live: 'http://127.0.0.1:9' } });
  // The merchant code is in every path (research §1.2): the wire's paths follow the account last opened.
  let merchantId = '000000000';
  return {
    name: 'niubiz',
    timeoutMs: TIMEOUT_MS,
    // Research §4.4.1: the card goes to the antifraud API only (the authorization charges its
    // token); amounts as JSON numbers of soles, "####.##" (§1.3: 150.00 is 150); no header beyond
    // the token is documented (§1.3), so none is asserted.
    wire: {
      requests: () => simulator.requests,
      cardData: {
        host: 'api',
        get path() {
          return `/api.antifraud/v1/antifraud/ecommerce/${merchantId}`;
        },
        fields: { card: { expirationMonth: '12', expirationYear: '2030' } },
      },
      amount: {
        get path() {
          return `/api.authorization/v3/authorization/ecommerce/${merchantId}`;
        },
        // Nested: the battery must read it as a path (see the report: connector-battery.ts).
        field: 'order.amount',
        value: 150,
      },
      headers: {},
    },
    async open() {
      const keys = niubizKeys();
      merchantId = keys.merchantId;
      simulator.addAccount(keys);
      const account = testAccount('niubiz', simulator.url, {
        publicKey: keys.merchantId,
        secretKey: keys.password,
        apiUser: keys.user,
      });
      return {
        connector: processorConnector(account, endpoints),
        setFault: async (fault) => simulator.setMode(fault, { key: keys.merchantId, delayMs: TIMEOUT_MS * 2 }),
        // Niubiz documents no query of a sale's refunds (research §7): the simulator's own record.
        refunded: async (transactionId) => {
          const answer = await fetch(`${simulator.url}/__simulator/sales/${transactionId}`);
          if (answer.status !== 200) throw new Error(`no sale ${transactionId}`);
          return BigInt(((await answer.json()) as { refunded: string }).refunded);
        },
      };
    },
    approved: {
      CARD: card('4919148107859067'),
      YAPE: yape('969929157', '557454'),
      QR: pending('QR'),
    },
    declines: [
      // Listed "Denegado" ([PW-PDF] §7.b.vi); its code is not documented: the PDF's decline example's 180.
      { name: 'listed decline card', method: 'CARD', request: card('4444333322221111'), code: '180', declineClass: 'hard' },
      {
        name: 'antifraud reject (reject@cybersource.com)',
        method: 'CARD',
        request: card('4919148107859067'),
        context: {
          order: {
            merchantOperationNumber: 'op-reject',
            merchantName: 'Shop TEST',
            description: 'Shop TEST op-reject',
            payer: { email: 'reject@cybersource.com', firstName: 'Ana', lastName: 'Quispe', phone: null },
          },
        },
        code: '670',
        declineClass: 'hard',
      },
    ],
    notifies: true,
    close: () => simulator.close(),
  };
}
