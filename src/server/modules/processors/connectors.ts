import type { Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import { RecentReads } from '@/server/platform/cache/recent-reads';
import type { Db, Tx } from '@/server/platform/db/client';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { ConnectorFacts } from '@/server/core/orchestration';
import type { ConnectorCapabilities } from '@/server/core/domain/capabilities';
import {
  PROCESSOR_INTEGRATIONS,
  processorConnector,
  registryFor,
  sandboxStoreFor,
  type PaymentConnector,
  type Processor,
  type ProcessorAccountConfig,
} from '@/server/payments';
import type { KeyRing } from '@/server/platform/security/sealed-box';
import { openSecrets, processorSecretKeys } from './account-secrets';

// Every connector the service can reach: the platform's sandbox processors (payments/registry)
// and merchants' own processor accounts, whose connectors are built from their rows (secrets
// opened in memory only) and kept per instance for a second, like routing rules; a change made
// through this instance applies at once (forgetAccount), other instances within 1 s.

const accounts = new RecentReads<PaymentConnector | null>(1_000);

export function forgetAccount(connectorId: string): void {
  accounts.forget(connectorId);
}

/** Where a processor account's notifications reach the service. */
export function notificationUrlOf(processor: string, accountId: string): string {
  return `${env().baseUrl}/notifications/${processor}/${accountId}`;
}

/** What the console shows of an account and its connector is built from, secrets aside. */
export const accountFields = {
  id: true,
  connectorId: true,
  name: true,
  processor: true,
  environment: true,
  publicKey: true,
  apiUser: true,
  taxId: true,
  webhookUsername: true,
  methods: true,
} as const satisfies Prisma.ProcessorAccountSelect;

export const accountConfigSelect = {
  ...accountFields,
  secretKeyId: true,
  secretIv: true,
  secretCiphertext: true,
  secretTag: true,
} as const satisfies Prisma.ProcessorAccountSelect;

type AccountRow = Prisma.ProcessorAccountGetPayload<{ select: typeof accountConfigSelect }>;

/** An account's row as its connector takes it, its secrets opened. */
export async function accountConfig(db: Db | Tx, row: AccountRow, keys?: KeyRing): Promise<ProcessorAccountConfig> {
  const secrets = openSecrets(keys ?? (await processorSecretKeys(db)), row.id, row);
  return {
    accountId: row.id,
    connectorId: row.connectorId,
    name: row.name,
    processor: row.processor as Processor,
    environment: row.environment === 'live' ? 'live' : 'test',
    methods: row.methods as PaymentMethod[],
    publicKey: row.publicKey,
    secretKey: secrets.secretKey,
    apiUser: row.apiUser,
    taxId: row.taxId,
    webhook: { username: row.webhookUsername, secret: secrets.webhookSecret },
    notificationUrl: notificationUrlOf(row.processor, row.id),
  };
}

/**
 * The connector of `id`: a sandbox processor, or a merchant's processor account (enabled or not: its
 * payments still need it). Not inside a transaction: a read of the account is shared with whoever
 * else asks at that moment (recent-reads.ts), and on the embedded database a read outside would
 * wait for the connection a transaction holds.
 */
export async function connectorById(db: Db, id: string): Promise<PaymentConnector | undefined> {
  const sandbox = registryFor(db).byId(id);
  if (sandbox) return sandbox;
  const account = await accounts.get(id, async () => {
    const row = await db.processorAccount.findUnique({ where: { connectorId: id }, select: accountConfigSelect });
    return row ? processorConnector(await accountConfig(db, row)) : null;
  });
  return account ?? undefined;
}

/**
 * The connector that carried a stored transaction, which its reversal, refunds and status
 * inquiries go to; a transaction stored before connectors were recorded (`connectorId` null)
 * was carried by its method's first sandbox connector.
 */
export async function connectorForTransaction(db: Db, transaction: { connectorId: string | null; method: PaymentMethod }) {
  if (transaction.connectorId === null) return registryFor(db).forTransaction(transaction);
  const connector = await connectorById(db, transaction.connectorId);
  if (!connector) throw new Error(`No connector ${transaction.connectorId}`);
  return connector;
}

/**
 * What the connector that carried a stored transaction can do, read in the caller's database
 * transaction (no connector is built, no secret opened): a sandbox processor's declaration, or
 * the one every account of a processor shares.
 */
export async function capabilitiesForTransaction(
  db: Db | Tx,
  transaction: { connectorId: string | null; method: PaymentMethod },
): Promise<ConnectorCapabilities> {
  const registry = registryFor(db);
  const sandbox =
    transaction.connectorId === null ? registry.forTransaction(transaction) : registry.byId(transaction.connectorId);
  if (sandbox) return sandbox.capabilities;
  const account = await db.processorAccount.findUnique({
    where: { connectorId: transaction.connectorId! },
    select: { processor: true },
  });
  if (!account) throw new Error(`No connector ${transaction.connectorId}`);
  return PROCESSOR_INTEGRATIONS[account.processor as Processor].capabilities;
}

/** A merchant's processor account as routing sees it (read with its routing rule: routing-config.ts). */
export type AccountFacts = { connectorId: string; processor: string; methods: string[]; enabled: boolean };

/** Currencies and capabilities of a processor's connectors: the same for every account. */
function processorFacts(account: AccountFacts): ConnectorFacts {
  const { methods, currencies, capabilities } = PROCESSOR_INTEGRATIONS[account.processor as Processor];
  return {
    id: account.connectorId,
    methods: account.methods.filter((method) => methods.includes(method as PaymentMethod)) as PaymentMethod[],
    currencies,
    capabilities,
    enabled: account.enabled,
  };
}

/** The platform's connectors as routing and rule validation see them: what each carries and whether it is enabled. */
export async function platformConnectorFacts(db: Db | Tx): Promise<ConnectorFacts[]> {
  const registry = registryFor(db);
  const store = sandboxStoreFor(db);
  return Promise.all(
    registry.connectors.map(async (connector) => ({
      id: connector.id,
      methods: connector.methods,
      currencies: connector.currencies,
      capabilities: connector.capabilities,
      enabled: (await store.modeOf(connector.id)).enabled,
    })),
  );
}

/** Every connector one merchant's routes may name: the platform's and its own accounts. */
export async function merchantConnectorFacts(db: Db | Tx, merchantAccounts: readonly AccountFacts[]): Promise<ConnectorFacts[]> {
  return [...(await platformConnectorFacts(db)), ...merchantAccounts.map(processorFacts)];
}

/** A merchant's accounts as routing sees them, read apart from a charge (the console's rule editor). */
export async function accountFactsOf(db: Db | Tx, merchantId: string): Promise<AccountFacts[]> {
  return db.processorAccount.findMany({
    where: { merchantId },
    select: { connectorId: true, processor: true, methods: true, enabled: true },
    orderBy: { createdAt: 'asc' },
  });
}
