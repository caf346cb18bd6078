import type { KnownValues } from '../../src/server/platform/security/secret-scanner';

// Every card number, password and client secret the suites send (e2e/, tests/, the scripts'
// API client and the sandbox's test cards): the secrets scan at the end of a run looks for each
// in every log line and stored value. e2e/support/test-secrets.test.ts fails when a PAN literal
// of those files is missing here.
export const TEST_PANS = [
  '4111111111111111',
  '4111111111111112',
  '4012888888881881',
  '378282246310005',
  '5555555555554444',
  '6011111111111117',
  '36227206271667',
  '9999999999999995',
  '4000000000000002',
  '4000000000009995',
  '4000000000000069',
  '4000000000000127',
  '4000000000000119',
  '4000000000005126',
  // docs/ORCHESTRATION.md 1: failover and 3-D Secure test cards of the sandbox acquirers.
  '4000000000008005',
  '4000000000008013',
  '4000000000008021',
  '4000000000003220',
  '4000000000003063',
  '4000000000003253',
  '4000000000003261',
  // Culqi's test cards (docs.culqi.com/es/documentacion/pagos-online/tarjetas-de-prueba), which
  // its simulator answers as documented.
  '4000020000000000',
  '4000030000000009',
  '4000040000000008',
  '5400000000000005',
  '5400020000000003',
  '370001000000000',
  '370002000000008',
  '36000000000008',
  '36000100000007',
  '36000200000006',
  '4456530000001096',
  '4456530000001005',
  '4456530000001070',
  '4456530000001013',
  // Mercado Pago Peru's test cards (mercadopago.com.pe/developers/en/docs/your-integrations/test/cards).
  '4009175332806176',
] as const;

/** The console passwords the suites sign in with or try. */
export const TEST_PASSWORDS = {
  demo: 'demo-password-1',
  wrong: 'not-the-password',
  /** Every console user the suites create (e2e/support/service.ts createConsoleUser). */
  created: 'e2e-user-password-0001',
} as const;

/** The client secrets the suites know in advance (issued ones are found by their shape). */
export const TEST_CLIENT_SECRETS = { demo: 'demo-secret-change-me-0001' } as const;

/** What the secrets scan looks for as it is (its patterns find the rest). */
export const KNOWN_TEST_SECRETS = {
  PAN: [...TEST_PANS],
  PASSWORD: Object.values(TEST_PASSWORDS),
  CLIENT_SECRET: Object.values(TEST_CLIENT_SECRETS),
} satisfies KnownValues;
