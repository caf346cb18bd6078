import { z } from 'zod';
import { trustedProxies } from '@/server/platform/http/client-address';
import { parseAdmissionLimits } from '@/server/platform/http/admission';
import { parseCallLimits } from '@/server/core/orchestration/bulkhead';

// The only reader of process.env: configuration is validated once, on first use.
const urlWithoutTrailingSlash = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));

// `kid:base64 of 32 bytes`, comma-separated: the first encrypts, every one decrypts.
const sealingKeysSetting = z
  .string()
  .optional()
  .transform((value, context) => {
    if (!value) return undefined;
    const parsed = parseSealingKeys(value);
    if (typeof parsed !== 'string') return parsed;
    context.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  });

/** A `name=count,…` setting, read by `parse` (which returns what is wrong with it as a string). */
function countsSetting<T extends object>(parse: (value: string) => T | string) {
  return z
    .string()
    .default('')
    .transform((value, context) => {
      const parsed = parse(value);
      if (typeof parsed !== 'string') return parsed;
      context.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    });
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Descriptors of the listening socket, each accepting one connection per turn of the event loop
  // (server.js reads it before this file is loaded; validated here all the same).
  LISTEN_DESCRIPTORS: z.coerce.number().int().min(1).max(64).default(16),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PGLITE_DIR: z.string().min(1).default('.data/pglite'),
  PUBLIC_BASE_URL: urlWithoutTrailingSlash.optional(),
  PUBLIC_AUTH_URL: urlWithoutTrailingSlash.optional(),
  PUBLIC_ORIGIN: urlWithoutTrailingSlash.optional(),
  // The proxies whose X-Forwarded-For is believed (platform/http/client-address.ts): addresses,
  // CIDRs, loopback, linklocal, uniquelocal. Empty, the client is the connection's peer.
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .superRefine((value, context) => {
      try {
        trustedProxies(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  // Callbacks and webhook endpoints may reach private, loopback and other non-public addresses
  // only when an operator says so (docs/DEPLOYMENT.md): the demo and the test suites, whose
  // receivers run on this machine. Off, such a destination is refused when it is given.
  CALLBACKS_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  // How long every sandbox processor may take to answer (its connector's timeoutMs): `slow` mode
  // and the late test PAN answer only after it (docs/ORCHESTRATION.md 1). Short in tests.
  SANDBOX_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  DEMO_MERCHANT_CODE: z.string().min(1).default('DEMO001'),
  DEMO_CLIENT_ID: z.string().min(8).default('demo-client'),
  DEMO_CLIENT_SECRET: z.string().min(16).default('demo-secret-change-me-0001'),
  DEMO_PASSWORD: z.string().min(10).default('demo-password-1'),
  SERVICE_FILE: z.string().min(1).default('.data/service.json'),
  BUSINESS_TIME_ZONE: z
    .string()
    .default('America/Lima')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone'),
  // A private EC P-256 JWK (JSON, with kid) to sign tokens with; without it a key is made on
  // first start and kept in the database.
  TOKEN_SIGNING_JWK: z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      try {
        const jwk = JSON.parse(value) as { kty?: string; crv?: string; d?: string; kid?: string };
        if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.d && jwk.kid) return jwk;
      } catch {
        // reported below
      }
      context.addIssue({ code: 'custom', message: 'must be a private EC P-256 JWK with kid' });
      return z.NEVER;
    }),
  // Admission control (platform/http/admission.ts): the requests in service each class always
  // admits, `class=count` comma-separated over the defaults there (classes charges, reads, token,
  // console, payer, notifications); past it, one more while the service's own queues keep up
  // (platform/http/service-pressure.ts): the event loop's and the database's standing delay, and
  // the longest request in service, under ADMISSION_WAIT_MS, the heap under 90 % of its limit;
  // else (a burst's allowance spent) 503 code 02 with Retry-After at once.
  ADMISSION_LIMITS: countsSetting(parseAdmissionLimits),
  ADMISSION_WAIT_MS: z.coerce.number().int().min(1).max(60_000).default(25),
  API_RATE_PER_SECOND: z.coerce.number().int().min(1).default(100),
  TOKEN_RATE_PER_CLIENT: z.coerce.number().int().min(1).default(5),
  TOKEN_RATE_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  // Background work (src/server/jobs): inside the service, and/or `npm run worker` on PostgreSQL.
  WORKER_IN_SERVICE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  WORKER_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(500),
  // How long a stop waits for the requests under way before it closes what is still open
  // (server.js): inside Kubernetes' 30 s default grace.
  DRAIN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  SETTLEMENT_DELAY_SECONDS: z.coerce.number().int().min(0).default(86_400),
  REFUND_PROCESSING_DELAY_SECONDS: z.coerce.number().int().min(0).default(60),
  // Tests only: the capture window in seconds instead of each merchant's days (refused in production).
  CAPTURE_WINDOW_SECONDS: z.coerce.number().int().min(1).optional(),
  CALLBACK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  CALLBACK_RETRY_SECONDS: z
    .string()
    .default('60,300,1800,7200,21600,86400')
    .transform((value) => value.split(',').map(Number))
    .refine((delays) => delays.every((delay) => Number.isFinite(delay) && delay >= 0), 'comma-separated seconds'),
  CALLBACK_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  CALLBACK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),
  // Deliveries in flight to one destination (a callback URL's origin), across every worker.
  CALLBACK_DESTINATION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // A webhook endpoint whose deliveries all failed for this long is disabled (fractions for tests).
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().positive().max(365).default(3),
  // How long a callback host's name may take to resolve, within CALLBACK_TIMEOUT_MS.
  CALLBACK_DNS_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2_000),
  // PKCS#8 PEM of the RSA key that signs callbacks; without it one is made on first start.
  CALLBACK_SIGNING_KEY_PEM: z.string().optional(),
  // Console sessions (next-auth): the signing secret is made on first start and kept in the
  // database unless NEXTAUTH_SECRET is set; sessions last CONSOLE_SESSION_HOURS.
  NEXTAUTH_SECRET: z.string().min(32).optional(),
  CONSOLE_SESSION_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 30)
    .default(8),
  // One JSON log line per API request (request id, route, status, milliseconds).
  LOG_REQUESTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  // GET /api/bench/baseline: the benchmark's bare route (npm run bench sets it); 404 otherwise.
  BENCH_ROUTES: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  // Key-encryption keys of the vault (docs/DECISIONS.md "The vault": saved cards, and the cards of
  // payments waiting for their 3-D Secure challenge): `kid:base64 of 32 bytes`, comma-separated;
  // the first wraps each card's data key, every one unwraps. Never kept in the database:
  // without it they are kept in VAULT_KEY_FILE (made on first start, one machine's only), and
  // `npm run cli -- rotate-vault-key` adds a new first key there or prints one to put first here.
  VAULT_KEYS: sealingKeysSetting,
  // The key of saved cards' fingerprints (HMAC-SHA-256 of the PAN), 32 bytes in base64. It is not
  // rotated: a new one would make every saved PAN look new. Without it, in VAULT_KEY_FILE.
  VAULT_FINGERPRINT_KEY: z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const key = /^[A-Za-z0-9+/]{43}=$/.test(value.trim()) ? Buffer.from(value.trim(), 'base64') : null;
      if (key?.length === 32) return key;
      context.addIssue({ code: 'custom', message: 'must be 32 bytes in base64 (openssl rand -base64 32)' });
      return z.NEVER;
    }),
  VAULT_KEY_FILE: z.string().min(1).default('.data/vault-keys.json'),
  // Keys of merchants' processor secrets (docs/processors/README.md), in the same form and with
  // the same rotation; without it a key is made on first start and kept in the database. Re-seal
  // every account under the first key with `npm run cli -- reseal-processor-secrets`.
  PROCESSOR_SECRET_KEYS: sealingKeysSetting,
  // Keys of webhook endpoints' signing secrets (Standard Webhooks), in the same form and with the
  // same rotation; without it a key is made on first start and kept in the database.
  WEBHOOK_SECRET_KEYS: sealingKeysSetting,
  // Peppers of API client secrets' keyed hash (HMAC-SHA-256), in the same form: the first hashes,
  // every one verifies, and a secret verified under another is hashed again under the first on
  // its next token request. Without it a pepper is made on first start and kept in the database.
  CLIENT_SECRET_PEPPERS: sealingKeysSetting,
  // The processors' APIs (docs/processors/): the real hosts by default; a simulator's origin in
  // tests and the local demo (tests/simulators/). Nothing else tells a connector it talks to one.
  CULQI_API_URL: urlWithoutTrailingSlash.default('https://api.culqi.com'),
  CULQI_SECURE_URL: urlWithoutTrailingSlash.default('https://secure.culqi.com'),
  MERCADOPAGO_API_URL: urlWithoutTrailingSlash.default('https://api.mercadopago.com'),
  // Niubiz's test host (docs/processors/sources/niubiz-api.md 1.1: the one its refunds, QR Manager
  // and encrypted-payment pages name) and its production host.
  NIUBIZ_TEST_API_URL: urlWithoutTrailingSlash.default('https://apitestenv.vnforapps.com'),
  NIUBIZ_LIVE_API_URL: urlWithoutTrailingSlash.default('https://apiprod.vnforapps.com'),
  IZIPAY_API_URL: urlWithoutTrailingSlash.default('https://api.micuentaweb.pe'),
  // How long a merchant's processor account may take to answer before the attempt counts as a
  // technical failure (docs/ORCHESTRATION.md 3); short in tests.
  PROCESSOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Calls in flight per connector (its bulkhead, core/orchestration/bulkhead.ts), `connector=count`
  // comma-separated; a connector not named is sized from its timeout and the heap.
  PROCESSOR_CALL_LIMITS: countsSetting(parseCallLimits),
  // Bearer token that /api/metrics requires; without it the metrics are open outside production
  // and refused in production.
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export type SealingKey = { kid: string; key: Buffer };

/**
 * `kid:base64,kid:base64,…` as keys, or what is wrong with it (never the key itself). Each key
 * is 32 bytes in standard base64 (`openssl rand -base64 32`); ids are short and unique.
 */
export function parseSealingKeys(value: string): SealingKey[] | string {
  const keys: SealingKey[] = [];
  for (const [index, entry] of value.split(',').entries()) {
    const match = /^([A-Za-z0-9._-]{1,32}):([A-Za-z0-9+/]{43}=)$/.exec(entry.trim());
    const key = match ? Buffer.from(match[2]!, 'base64') : null;
    if (!match || key?.length !== 32) {
      return `entry ${index + 1} must be kid:key, the kid 1 to 32 letters, digits, ".", "_" or "-", the key 32 bytes in base64`;
    }
    if (keys.some((each) => each.kid === match[1])) return `entry ${index + 1} repeats the key id ${match[1]}`;
    keys.push({ kid: match[1]!, key });
  }
  return keys;
}

export type Env = z.infer<typeof schema> & { baseUrl: string; authUrl: string; origin: string };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a production start with these settings would be unsafe, in one line; null when it is not
 * (docs/DEPLOYMENT.md, "Security-relevant settings"). Production facing the public is a
 * NODE_ENV=production start with a PUBLIC_ORIGIN that is not this machine's: the demo and the
 * suites run `node server.js` on localhost and keep their conveniences.
 */
export function unsafeProduction(values: z.infer<typeof schema>): string | null {
  if (values.NODE_ENV !== 'production' || !values.PUBLIC_ORIGIN) return null;
  const origin = new URL(values.PUBLIC_ORIGIN);
  // RFC 6761: localhost and its subdomains are this machine (the rehearsal's payer pages use one).
  if (LOCAL_HOSTS.has(origin.hostname) || origin.hostname.endsWith('.localhost')) return null;
  if (origin.protocol !== 'https:')
    return `PUBLIC_ORIGIN ${values.PUBLIC_ORIGIN} is not https: payer pages and tokens would travel in clear`;
  if (values.CALLBACKS_ALLOW_PRIVATE_NETWORKS) {
    return 'CALLBACKS_ALLOW_PRIVATE_NETWORKS=true on a public origin: merchants could make the callbacks read this network';
  }
  if (values.SEED_DEMO) return 'SEED_DEMO=true on a public origin: the demo users and credentials would be live';
  if (/(^|,)\s*(0\.0\.0\.0\/0|::\/0)\s*(,|$)/.test(values.TRUSTED_PROXIES)) {
    return 'TRUSTED_PROXIES trusts every address: any client could pick the address its limits count against';
  }
  if (!values.METRICS_TOKEN) return 'METRICS_TOKEN is not set: /api/metrics would refuse every scrape';
  if (!values.VAULT_KEYS || !values.VAULT_FINGERPRINT_KEY) {
    return 'VAULT_KEYS or VAULT_FINGERPRINT_KEY is not set: saved cards would be encrypted under a key file of one machine';
  }
  if (values.CAPTURE_WINDOW_SECONDS !== undefined) {
    return 'CAPTURE_WINDOW_SECONDS is set: every uncaptured authorization would be voided within seconds';
  }
  return null;
}

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const unsafe = unsafeProduction(values);
  if (unsafe) throw new Error(`Unsafe configuration for production: ${unsafe}`);
  const origin = values.PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`;
  cached = {
    ...values,
    origin,
    baseUrl: values.PUBLIC_BASE_URL ?? `${origin}/api`,
    authUrl: values.PUBLIC_AUTH_URL ?? `${origin}/oauth`,
  };
  return cached;
}

/**
 * The console sessions' signing secret as next-auth uses it. next-auth 4 reads NEXTAUTH_SECRET
 * and NEXTAUTH_URL from process.env itself, and the proxy, the route handlers and the start run
 * in bundles that share nothing but the process, so start hands the secret (configured or kept
 * in the database) over through process.env here, and readers take it back with
 * `sessionSecret()`. It is not part of `env()`, which is read before start has it.
 */
export function publishSessionSecret(secret: string): void {
  process.env.NEXTAUTH_SECRET = secret;
  process.env.NEXTAUTH_URL ??= env().origin;
}

export function sessionSecret(): string | undefined {
  return process.env.NEXTAUTH_SECRET;
}
