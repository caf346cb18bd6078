import { z } from 'zod';
import { PAYMENT_METHODS } from '@/server/core/domain/states';
import { ofMerchant, merchantName } from '../console-fields';

// Inputs of the processor account procedures (docs/processors/README.md). The keys' shapes are
// the processors' own: Culqi's `pk_test_…`/`sk_live_…` (docs.culqi.com, the official libraries
// refuse any other prefix), Mercado Pago's public key and access token
// (mercadopago.com.pe/developers/…/your-integrations/credentials). A key's environment must be
// the account's: a live key in a test account is a mistake caught here, not at the first payment.

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

/** Culqi's keys name their environment; Mercado Pago's do not (both prefixes serve test users). */
function keysMatch(
  value: { processor: string; environment: string; secretKey: string; publicKey: string },
  context: z.RefinementCtx,
) {
  if (value.processor !== 'culqi') return;
  for (const field of ['publicKey', 'secretKey'] as const) {
    if (!value[field].includes(`_${value.environment}_`)) {
      context.addIssue({ code: 'custom', path: [field], message: `must be a ${value.environment} key` });
    }
  }
}

const common = { name: merchantName, environment, methods };

export const connectAccountInput = z
  .discriminatedUnion('processor', [
    ofMerchant.extend({ processor: z.literal('culqi'), ...common, ...culqiKeys.shape }),
    ofMerchant.extend({ processor: z.literal('mercadopago'), ...common, ...mercadoPagoKeys.shape }),
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
]);
