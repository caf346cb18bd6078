import { EVERY_CAPABILITY } from '@/server/core/domain/capabilities';
import type { ConnectorFacts, PaymentFacts } from './routes';

// Facts the orchestration tests share: a VISA credit card payment of S/ 100.00 and the sandbox's
// connectors as routing sees them.

export function cardPayment(overrides: Partial<PaymentFacts> = {}): PaymentFacts {
  return {
    method: 'CARD',
    amount: 10_000n,
    currency: '604',
    brand: 'VISA',
    bin: '400000',
    cardType: 'CREDIT',
    cardCountry: 'PE',
    instalments: 1,
    captureLater: false,
    stableKey: 'merchant-1/op-1',
    ...overrides,
  };
}

export function yapePayment(overrides: Partial<PaymentFacts> = {}): PaymentFacts {
  return {
    method: 'YAPE',
    amount: 5_000n,
    currency: '604',
    brand: null,
    bin: null,
    cardType: null,
    cardCountry: null,
    instalments: 1,
    captureLater: false,
    stableKey: 'merchant-1/op-2',
    ...overrides,
  };
}

export function connector(id: string, overrides: Partial<ConnectorFacts> = {}): ConnectorFacts {
  return { id, methods: ['CARD'], currencies: ['604', '840'], capabilities: EVERY_CAPABILITY, enabled: true, ...overrides };
}

export const SANDBOX_CONNECTORS: readonly ConnectorFacts[] = [
  connector('sandbox-acquirer-a'),
  connector('sandbox-acquirer-b', { capabilities: { ...EVERY_CAPABILITY, instalments: false } }),
  connector('sandbox-yape', { methods: ['YAPE'], currencies: ['604'] }),
  connector('sandbox-yape-b', { methods: ['YAPE'], currencies: ['604'] }),
  connector('sandbox-qr', { methods: ['QR'], currencies: ['604'] }),
  connector('sandbox-pagoefectivo', { methods: ['PAGOEFECTIVO'] }),
];
