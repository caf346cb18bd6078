import type { Prisma } from '@/generated/prisma/client';
import { randomBytes, randomUUID } from 'node:crypto';
import { env } from '@/env';
import type { Db, Tx } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import type { PaymentMethod } from '@/server/core/domain/states';
import { checkProcessorAccount, PROCESSOR_INTEGRATIONS, type Processor } from '@/server/payments';
import { assertInScope, merchantInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';
import type { KeyRing } from '@/server/platform/security/sealed-box';
import { processorSecretKeys, sealedColumns, sealSecrets, secretHint } from './account-secrets';
import { callsOf } from './bulkheads';
import { accountConfig, accountConfigSelect, accountFields, forgetAccount, notificationUrlOf } from './connectors';

// A merchant's own processor accounts (docs/processors/README.md): a merchant admin (or a platform
// admin for any merchant) connects one with its keys, tests the connection, chooses the methods
// it carries, and names it in routing rules by its connector id. Secrets are sealed at once and
// never shown again; Culqi's webhook credentials are made here and shown once, to be set on the
// webhook in CulqiPanel.

/** Accounts a merchant may have. */
export const MAX_ACCOUNTS = 10;

const view = {
  ...accountFields,
  secretHint: true,
  enabled: true,
  checkedAt: true,
  checkOk: true,
  checkMessage: true,
  createdAt: true,
  merchantId: true,
} as const satisfies Prisma.ProcessorAccountSelect;

type Row = Prisma.ProcessorAccountGetPayload<{ select: typeof view }>;

export type AccountView = ReturnType<typeof describe>;

function describe(row: Row) {
  const { merchantId: _merchant, ...shown } = row;
  return {
    ...shown,
    processor: row.processor as Processor,
    processorName: PROCESSOR_INTEGRATIONS[row.processor as Processor].name ?? row.processor,
    notificationUrl: notificationUrlOf(row.processor, row.id),
    checkedAt: row.checkedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    // This instance's calls in flight to the account's processor (its bulkhead: docs/ORCHESTRATION.md 4).
    calls: callsOf({ id: row.connectorId, timeoutMs: env().PROCESSOR_TIMEOUT_MS }),
  };
}

async function accountInScope(prisma: Db, scope: MerchantScope, id: string): Promise<Row> {
  const row = await prisma.processorAccount.findUnique({ where: { id }, select: view });
  if (!row) throw new AppError('NOT_FOUND', 'no such processor account');
  assertInScope(scope, row.merchantId, 'processor account');
  return row;
}

/** The processors a merchant can connect, with the methods each carries. */
export const PROCESSOR_CHOICES = (Object.keys(PROCESSOR_INTEGRATIONS) as Processor[]).map((id) => ({
  id,
  name: PROCESSOR_INTEGRATIONS[id].name,
  methods: [...PROCESSOR_INTEGRATIONS[id].methods],
}));

export async function listAccounts(prisma: Db, scope: MerchantScope, merchantCode?: string) {
  const merchant = await merchantInScope(prisma, scope, merchantCode);
  const rows = await prisma.processorAccount.findMany({
    where: { merchantId: merchant.id },
    select: view,
    orderBy: { createdAt: 'asc' },
  });
  return { merchantCode: merchant.code, accounts: rows.map(describe), processors: PROCESSOR_CHOICES };
}

export type AccountKeys = {
  publicKey: string;
  secretKey: string;
  webhookSecret?: string | undefined;
  /** Niubiz's API user. */
  apiUser?: string | undefined;
  /** The merchant's RUC, which Niubiz's refunds carry. */
  taxId?: string | undefined;
};

export type ConnectInput = AccountKeys & {
  processor: Processor;
  name: string;
  environment: 'test' | 'live';
  methods: PaymentMethod[];
};

function checkMethods(processor: Processor, methods: readonly string[]): void {
  const carried = PROCESSOR_INTEGRATIONS[processor].methods as readonly string[];
  const unknown = methods.filter((method) => !carried.includes(method));
  if (methods.length === 0 || unknown.length > 0) {
    throw new AppError('VALIDATION', `${PROCESSOR_INTEGRATIONS[processor].name} carries ${carried.join(', ')}`, {
      errors: [{ field: 'methods', code: 'invalid_methods', message: `choose among ${carried.join(', ')}` }],
    });
  }
}

/**
 * A live account's keys move real money: they are sealed only under keys kept outside the
 * database (PROCESSOR_SECRET_KEYS), never under the generated key a database dump would carry.
 */
function liveNeedsConfiguredKeys(environment: 'test' | 'live'): void {
  if (environment === 'live' && !env().PROCESSOR_SECRET_KEYS) {
    throw new AppError('STATE_CONFLICT', 'live accounts need PROCESSOR_SECRET_KEYS configured (docs/processors/README.md)', {
      errors: [{ field: 'environment', code: 'live_needs_keys', message: 'the service has no PROCESSOR_SECRET_KEYS configured' }],
    });
  }
}

/**
 * The keys that belong to the other environment: Culqi's name theirs (`pk_test_`, `sk_live_`),
 * Izipay's REST password too (`testpassword_`, `prodpassword_`); the others' keys do not say.
 */
export function keyEnvironmentMismatches(
  processor: string,
  environment: string,
  keys: { publicKey: string; secretKey: string },
): ('publicKey' | 'secretKey')[] {
  if (processor === 'culqi') {
    return (['publicKey', 'secretKey'] as const).filter((field) => !keys[field].includes(`_${environment}_`));
  }
  if (processor === 'izipay') {
    const prefix = environment === 'live' ? 'prodpassword_' : 'testpassword_';
    return keys.secretKey.startsWith(prefix) ? [] : ['secretKey'];
  }
  return [];
}

/** Keys of the other environment are refused. */
function keysOfEnvironment(processor: Processor, environment: string, keys: AccountKeys): void {
  const [field] = keyEnvironmentMismatches(processor, environment, keys);
  if (field) {
    throw new AppError('VALIDATION', `this is a ${environment} account`, {
      errors: [{ field, code: 'wrong_environment', message: `must be a ${environment} key` }],
    });
  }
}

/** The account's row, locked until the caller's transaction ends: a change of its seal is not lost to another. */
async function lockAccount(tx: Tx, id: string) {
  await tx.$queryRaw`SELECT id FROM processor_accounts WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.processorAccount.findUniqueOrThrow({ where: { id }, select: accountConfigSelect });
}

/** Culqi's webhook credentials (HTTP Basic, set on the webhook in CulqiPanel): made here, shown once. */
function webhookCredentials() {
  return { username: `pagos-${randomBytes(4).toString('hex')}`, password: randomBytes(24).toString('base64url') };
}

/** The secrets to seal for keys, and the Culqi webhook password to show once (null for Mercado Pago). */
function secretsOf(processor: Processor, keys: AccountKeys, culqiPassword: string | null) {
  return { secretKey: keys.secretKey, webhookSecret: processor === 'culqi' ? culqiPassword : (keys.webhookSecret ?? null) };
}

export async function connectAccount(
  prisma: Db,
  scope: MerchantScope,
  merchantCode: string | undefined,
  input: ConnectInput,
  actor: string,
) {
  const merchant = await merchantInScope(prisma, scope, merchantCode);
  checkMethods(input.processor, input.methods);
  liveNeedsConfiguredKeys(input.environment);
  const id = randomUUID();
  const culqi = input.processor === 'culqi' ? webhookCredentials() : null;
  const sealed = sealSecrets(await processorSecretKeys(prisma), id, secretsOf(input.processor, input, culqi?.password ?? null));
  const created = await prisma.$transaction(async (tx) => {
    // The merchant's row lock orders concurrent connects, so the count cannot go stale before the insert.
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchant.id}::uuid FOR UPDATE`;
    if ((await tx.processorAccount.count({ where: { merchantId: merchant.id } })) >= MAX_ACCOUNTS) {
      throw new AppError('STATE_CONFLICT', `a merchant has at most ${MAX_ACCOUNTS} processor accounts`);
    }
    return tx.processorAccount.create({
      data: {
        id,
        merchantId: merchant.id,
        processor: input.processor,
        connectorId: `${input.processor}-${id.replaceAll('-', '').slice(0, 10)}`,
        name: input.name,
        environment: input.environment,
        publicKey: input.publicKey,
        apiUser: input.processor === 'niubiz' ? (input.apiUser ?? null) : null,
        taxId: input.processor === 'niubiz' ? (input.taxId ?? null) : null,
        secretHint: secretHint(input.secretKey),
        ...sealedColumns(sealed),
        webhookUsername: culqi?.username ?? null,
        methods: input.methods,
        createdBy: actor,
      },
      select: view,
    });
  });
  return { account: describe(created), webhook: culqi };
}

export async function updateAccount(
  prisma: Db,
  scope: MerchantScope,
  id: string,
  input: { name?: string | undefined; methods?: PaymentMethod[] | undefined; enabled?: boolean | undefined },
) {
  const account = await accountInScope(prisma, scope, id);
  if (input.methods) checkMethods(account.processor as Processor, input.methods);
  const updated = await prisma.processorAccount.update({
    where: { id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.methods ? { methods: input.methods } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    },
    select: view,
  });
  forgetAccount(account.connectorId);
  return describe(updated);
}

/** New keys for an account (the processor rotated them): sealed under the current key, the connection not yet tested. */
export async function replaceKeys(prisma: Db, scope: MerchantScope, id: string, processor: Processor, keys: AccountKeys) {
  const account = await accountInScope(prisma, scope, id);
  if (account.processor !== processor) {
    throw new AppError('VALIDATION', `this is a ${PROCESSOR_INTEGRATIONS[account.processor as Processor].name} account`);
  }
  keysOfEnvironment(processor, account.environment, keys);
  const ring = await processorSecretKeys(prisma);
  const updated = await prisma.$transaction(async (tx) => {
    const current = await accountConfig(tx, await lockAccount(tx, id), ring);
    // Culqi's webhook password stays what CulqiPanel has; Mercado Pago's secret is the one given.
    const sealed = sealSecrets(ring, id, secretsOf(processor, keys, current.webhook.secret));
    return tx.processorAccount.update({
      where: { id },
      data: {
        publicKey: keys.publicKey,
        ...(processor === 'niubiz' ? { apiUser: keys.apiUser ?? null, taxId: keys.taxId ?? null } : {}),
        secretHint: secretHint(keys.secretKey),
        ...sealedColumns(sealed),
        checkedAt: null,
        checkOk: null,
        checkMessage: null,
      },
      select: view,
    });
  });
  forgetAccount(account.connectorId);
  return describe(updated);
}

/** New Culqi webhook credentials, shown once: the old ones stop verifying at once. */
export async function renewWebhookCredentials(prisma: Db, scope: MerchantScope, id: string) {
  const account = await accountInScope(prisma, scope, id);
  if (account.processor !== 'culqi') {
    throw new AppError(
      'METHOD_RULE',
      `${PROCESSOR_INTEGRATIONS[account.processor as Processor].name} has no webhook credentials the service makes`,
    );
  }
  const culqi = webhookCredentials();
  const ring = await processorSecretKeys(prisma);
  const updated = await prisma.$transaction(async (tx) => {
    const current = await accountConfig(tx, await lockAccount(tx, id), ring);
    const sealed = sealSecrets(ring, id, { secretKey: current.secretKey, webhookSecret: culqi.password });
    return tx.processorAccount.update({
      where: { id },
      data: { webhookUsername: culqi.username, ...sealedColumns(sealed) },
      select: view,
    });
  });
  forgetAccount(account.connectorId);
  return { account: describe(updated), webhook: culqi };
}

/** Asks the processor whether it takes the account's keys, and keeps the verdict. */
export async function testAccount(prisma: Db, scope: MerchantScope, id: string) {
  await accountInScope(prisma, scope, id);
  const config = await accountConfig(
    prisma,
    await prisma.processorAccount.findUniqueOrThrow({ where: { id }, select: accountConfigSelect }),
  );
  const verdict = await checkProcessorAccount(config);
  const updated = await prisma.processorAccount.update({
    where: { id },
    data: { checkedAt: new Date(), checkOk: verdict.ok, checkMessage: verdict.message.slice(0, 300) },
    select: view,
  });
  return describe(updated);
}

/**
 * Removes an account nothing was ever sent to. One that carried payments stays (its reversals,
 * refunds and inquiries go to it): disable it instead, so that routing passes it by.
 */
export async function removeAccount(prisma: Db, scope: MerchantScope, id: string) {
  const account = await accountInScope(prisma, scope, id);
  await prisma.$transaction(async (tx) => {
    // The merchant's lock orders this against rule saves and publishes, which take it too.
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${account.merchantId}::uuid FOR UPDATE`;
    await lockAccount(tx, id);
    // Attempts in flight (charge_claims) count: an account carrying a payment now stays.
    const where = { where: { connectorId: account.connectorId } };
    const carried = (await tx.transaction.count(where)) + (await tx.chargeClaim.count(where));
    if (carried > 0) {
      throw new AppError('STATE_CONFLICT', `this account carried ${carried} payments: disable it instead of removing it`);
    }
    const [named] = await tx.$queryRaw<{ method: string; status: string }[]>`
      SELECT method::text, status::text FROM routing_rules
      WHERE merchant_id = ${account.merchantId}::uuid AND status IN ('DRAFT', 'PUBLISHED')
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(routes) route WHERE route->>'connector' = ${account.connectorId})
      LIMIT 1`;
    if (named) {
      throw new AppError(
        'STATE_CONFLICT',
        `the ${named.status.toLowerCase()} ${named.method} routing rule names this account: change it first`,
      );
    }
    await tx.processorNotification.deleteMany({ where: { accountId: id } });
    await tx.processorAccount.delete({ where: { id } });
  });
  forgetAccount(account.connectorId);
  return { removed: true };
}

/**
 * Seals every account's secrets again under the current key of PROCESSOR_SECRET_KEYS (after a
 * new key was put first), so the old key can be dropped; how many were sealed again.
 */
export async function resealAccounts(prisma: Db, keys?: KeyRing): Promise<{ resealed: number; current: number }> {
  const ring = keys ?? (await processorSecretKeys(prisma));
  const rows = await prisma.processorAccount.findMany({ select: accountConfigSelect });
  let resealed = 0;
  for (const row of rows) {
    if (row.secretKeyId === ring.current.kid) continue;
    const config = await accountConfig(prisma, row, ring);
    const sealed = sealSecrets(ring, row.id, { secretKey: config.secretKey, webhookSecret: config.webhook.secret });
    // Only the row still sealed under the old key: a concurrent change keeps its own seal.
    const { count } = await prisma.processorAccount.updateMany({
      where: { id: row.id, secretKeyId: row.secretKeyId },
      data: sealedColumns(sealed),
    });
    resealed += count;
    forgetAccount(row.connectorId);
  }
  return { resealed, current: rows.length - resealed };
}
