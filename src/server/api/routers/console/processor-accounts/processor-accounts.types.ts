import { z } from 'zod';
import { PAYMENT_METHODS } from '@/server/core/domain/states';
import { keyEnvironmentMismatches } from '@/server/modules/processors/processor-accounts';
import { ofMerchant, merchantName } from '../console-fields';

// Inputs of the processor account procedures (docs/processors/README.md). The keys' shapes are
// the processors' own: Culqi's `pk_test_…`/`sk_live_…` (docs.culqi.com, the official libraries
// refuse any other prefix), Mercado Pago's public key and access token
// (mercadopago.com.pe/developers/…/your-integrations/credentials), Niubiz's merchant code (up to
// nine digits), API user and password (docs/processors/sources/niubiz-api.md 1.2), Izipay's shop
// id and REST password `testpassword_…`/`prodpassword_…` (izipay-api.md 1.1). A key's environment
// must be the account's: a live key in a test account is a mistake caught here, not at the first
// payment.

export const accountId = z.strictObject({ id: z.uuid() });

const methods = z.array(z.enum(PAYMENT_METHODS)).min(1, 'choose at least one method').max(PAYMENT_METHODS.length);
const environment = z.enum(['test', 'live']);

// Each key's length bound is explicit too: the fuzz suite generates strings within maxLength.
const culqiKeys = z.strictObject({
  publicKey: z
    .string()
    .max(80)
    .regex(/^pk_(test|live)_[A-Za-z0-9]{8,64}$/, 'must be a Culqi public key: pk_test_… or pk_live_…'),
  secretKey: z
    .string()
    .max(80)
    .regex(/^sk_(test|live)_[A-Za-z0-9]{8,64}$/, 'must be a Culqi secret key: sk_test_… or sk_live_…'),
});

const mercadoPagoKeys = z.strictObject({
  publicKey: z
    .string()
    .max(64)
    .regex(/^(APP_USR|TEST)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a Mercado Pago public key'),
  secretKey: z
    .string()
    .max(128)
    .regex(/^(APP_USR|TEST)-\d{6,20}-\d{6}-[0-9a-f]{32}-\d{6,20}$/, 'must be a Mercado Pago access token'),
  webhookSecret: z
    .string()
    .max(256)
    .regex(/^[\x21-\x7e]{16,256}$/, 'must be the webhook secret as Mercado Pago shows it (16 to 256 characters, no spaces)'),
});

const niubizKeys = z.strictObject({
  publicKey: z
    .string()
    .max(9)
    .regex(/^\d{1,9}$/, 'must be the Niubiz merchant code (up to 9 digits)'),
  apiUser: z
    .string()
    .max(100)
    .regex(/^[^\s:]+@[^\s:]+$/, 'must be the API user Niubiz gave (an email)'),
  // Optional: Niubiz's refunds carry the merchant's RUC (docs/processors/sources/niubiz-api.md 7).
  taxId: z
    .string()
    .max(11)
    .regex(/^(10|15|16|17|20)\d{9}$/, 'must be the merchant’s RUC (11 digits)')
    .optional(),
  secretKey: z
    .string()
    .max(100)
    .regex(/^[\x21-\x7e]{1,100}$/, 'must be the API password Niubiz gave (no spaces)'),
});

const izipayKeys = z.strictObject({
  publicKey: z
    .string()
    .max(8)
    .regex(/^\d{8}$/, 'must be the Izipay shop id (8 digits)'),
  secretKey: z
    .string()
    .max(160)
    .regex(/^(test|prod)password_[A-Za-z0-9]{8,140}$/, 'must be an Izipay REST password: testpassword_… or prodpassword_…'),
});

/** Culqi's and Izipay's keys name their environment; the others' do not. */
function keysMatch(
  value: { processor: string; environment: string; secretKey: string; publicKey: string },
  context: z.RefinementCtx,
) {
  for (const field of keyEnvironmentMismatches(value.processor, value.environment, value)) {
    context.addIssue({ code: 'custom', path: [field], message: `must be a ${value.environment} key` });
  }
}

const common = { name: merchantName, environment, methods };

export const connectAccountInput = z
  .discriminatedUnion('processor', [
    ofMerchant.extend({ processor: z.literal('culqi'), ...common, ...culqiKeys.shape }),
    ofMerchant.extend({ processor: z.literal('mercadopago'), ...common, ...mercadoPagoKeys.shape }),
    ofMerchant.extend({ processor: z.literal('niubiz'), ...common, ...niubizKeys.shape }),
    ofMerchant.extend({ processor: z.literal('izipay'), ...common, ...izipayKeys.shape }),
  ])
  .superRefine(keysMatch);

export const updateAccountInput = accountId.extend({
  name: merchantName.optional(),
  methods: methods.optional(),
  enabled: z.boolean().optional(),
});

export const replaceKeysInput = z.discriminatedUnion('processor', [
  accountId.extend({ processor: z.literal('culqi'), ...culqiKeys.shape }),
  accountId.extend({ processor: z.literal('mercadopago'), ...mercadoPagoKeys.shape }),
  accountId.extend({ processor: z.literal('niubiz'), ...niubizKeys.shape }),
  accountId.extend({ processor: z.literal('izipay'), ...izipayKeys.shape }),
]);
