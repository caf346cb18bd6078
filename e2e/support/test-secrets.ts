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
  '4000000000001109',
  '4000000000001208',
  '4000000000001307',
  '4000000000001406',
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
  // Izipay's test cards (docs/processors/sources/izipay-api.md 10), and one that fails Luhn on purpose.
  '375900000000016',
  '375900000010007',
  '375900000010015',
  '4002913238833267',
  '4003331978380689',
  '4004412132480232',
  '4008069640361357',
  '4014818108389710',
  '4019138210019096',
  '4970100000000014',
  '4970100000000022',
  '4970100000000055',
  '4970110000000021',
  '4970110000000401',
  '4970110000001003',
  '4970110000001029',
  '4970115000002117',
  '5100010000000049',
  '5100010000000106',
  '5100010000000114',
  '5100010000002045',
  '5102495814688105',
  '5102546179105000',
  '5103225852930567',
  '5106659582128224',
  '5112929646850374',
  '5114803122406407',
  '5204740000001127',
  '5970100300000026',
  '4970100000000056',
  // Niubiz's test cards (docs/processors/sources/niubiz-api.md 13.1).
  '4919148107859067',
  '4500340090000016',
  '4072210290536663',
  '4551708161768059',
  '4280820087569434',
  '4634020606098014',
  '4110905000721943',
  '4474118355632240',
  '4444333322221111',
  '5160030000000317',
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
