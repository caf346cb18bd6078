import { readFileSync } from 'node:fs';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src/server/api/routers/app-router';
import type { Scope } from '../../src/server/core/domain/scopes';
import { TEST_PASSWORDS } from './test-secrets';

export const PORT = Number(process.env.E2E_PORT ?? 3210);
/** The asynchronous suite's service (short delays: see playwright.config.ts). */
export const ASYNC_PORT = PORT + 1;
export const ORIGIN = `http://localhost:${PORT}`;
export const ASYNC_ORIGIN = `http://localhost:${ASYNC_PORT}`;
export const BASE_URL = `${ORIGIN}/api`;
export const AUTH_URL = `${ORIGIN}/oauth`;
export const API_VERSION = '1709847567';
/** The services' /api/metrics bearer token (playwright.config.ts gives it to both). */
export const METRICS_TOKEN = 'e2e-metrics-token-0123456789';

/** A service's data directory (its embedded database, service file and log), rebuilt at each start. */
export const serviceDataDir = (port: number) => `.data/e2e-${port}`;
/** Everything the service wrote to stdout and stderr during the run: kept for CI, scanned at the end. */
export const serviceLogFile = (port: number) => `${serviceDataDir(port)}/service.log`;

/** One sample of the Prometheus text of a service (0 when the series is absent). */
export function metricValue(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const OPERATOR_CALL_TIMEOUT_MS = 30_000;

/** The operator token of the service under test (from its service file): a platform admin's header. */
export function operatorToken(port = PORT): string {
  return (JSON.parse(readFileSync(`${serviceDataDir(port)}/service.json`, 'utf8')) as { operatorToken: string }).operatorToken;
}

/** The operator's tRPC client of the service under test: a platform admin. */
function operatorClient(port = PORT) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `http://localhost:${port}/api/trpc`,
        headers: { 'x-operator-token': operatorToken(port) },
        // A call that hangs fails with its own name instead of the test's timeout.
        fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(OPERATOR_CALL_TIMEOUT_MS) }),
      }),
    ],
  });
}

/** The operator's admin procedures. */
export function operator(port = PORT) {
  return operatorClient(port).admin;
}

/** The console procedures as the operator (a platform admin): to read what a page changed. */
export function operatorConsole(port = PORT) {
  return operatorClient(port).console;
}

/**
 * Every transaction and refund of a merchant, as the operator (a platform admin) sees them in
 * the console's procedures: what a refused request must leave unchanged.
 */
export async function merchantFootprint(merchantCode: string, port = PORT) {
  const procedures = operatorClient(port).console;
  const transactions = [];
  let cursor: string | undefined;
  do {
    const page = await procedures.operations.query({ merchantCode, sort: 'oldest', limit: 200, cursor });
    transactions.push(
      ...page.rows.map((row) => ({ id: row.transactionId, number: row.merchantOperationNumber, state: row.state })),
    );
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const refunds = await procedures.refunds.query({ merchant_code: merchantCode });
  return { transactions, refunds: refunds.operations_count };
}

/**
 * A merchant's console settings, people and API credentials, as the operator sees them: what a
 * refused console request must leave unchanged (with merchantFootprint, its payments).
 */
export async function consoleFootprint(merchantCode: string, port = PORT) {
  const procedures = operatorClient(port).console;
  const [settings, users, credentials] = await Promise.all([
    procedures.settings.merchant.query({ merchantCode }),
    procedures.settings.users.query({ merchantCode }),
    procedures.credentials.query({ merchantCode }),
  ]);
  return { settings, users, credentials };
}

/** Merchants and facilitators whose code starts with `prefix` (the platform directory, as the operator sees it). */
export async function platformCodesStartingWith(prefix: string, port = PORT): Promise<string[]> {
  const procedures = operatorClient(port).console.platform;
  const [merchants, facilitators] = await Promise.all([
    procedures.merchants.query({ search: prefix }),
    procedures.facilitators.query(),
  ]);
  return [...merchants.rows, ...facilitators].map((row) => row.code).filter((code) => code.startsWith(prefix));
}

export function uniqueCode(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`.toUpperCase().slice(0, 40);
}

export type TestMerchant = { code: string; clientId: string; clientSecret: string };

/** A new merchant with a credential for every scope (or the given ones). */
export async function createMerchant(
  prefix = 'M',
  scopes?: Scope[],
  options: { tokenTtlSeconds?: number; rateLimitPerSecond?: number; facilitatorCode?: string; port?: number } = {},
): Promise<TestMerchant> {
  const admin = operator(options.port);
  const code = uniqueCode(prefix);
  await operatorConsole(options.port).platform.createMerchant.mutate({
    code,
    name: `Test ${code}`,
    facilitatorCode: options.facilitatorCode,
  });
  const credential = await admin.issueCredential.mutate({
    owner: { merchantCode: code },
    scopes,
    tokenTtlSeconds: options.tokenTtlSeconds,
    rateLimitPerSecond: options.rateLimitPerSecond,
  });
  return { code, clientId: credential.client_id, clientSecret: credential.client_secret };
}

/** Every stored row of one operation (the database as the service wrote it). */
export async function storedOperation(merchantCode: string, merchantOperationNumber: string, port = PORT) {
  return (await operator(port).inspectOperation.query({ merchantCode, merchantOperationNumber })) as StoredOperation;
}

export type StoredOperation = {
  id: string;
  merchantOperationNumber: string;
  transactions: (Record<string, unknown> & {
    id: string;
    state: string;
    attempt: number;
    amount: string;
    /** The connector that carried the attempt (docs/ORCHESTRATION.md 3). */
    connectorId: string | null;
    lifecycle: { state: string; at: string }[];
  })[];
  refunds: (Record<string, unknown> & { id: string; state: string; lifecycle: { state: string; at: string }[] })[];
  events: {
    id: string;
    type: string;
    aggregateId: string;
    status: string;
    deliveries: { number: number; statusCode: number | null; manual: boolean }[];
  }[];
  /** What a sandbox processor recorded of each attempt it carried. */
  sandboxRecords: { reference: string; outcome: string; uncaptured: boolean; capturedAmount: string | null; voided: boolean }[];
};

/** A settlement cut-off now for the merchant, or only for the named transactions (others' tests keep theirs). */
export async function settleNow(merchantCode: string, transactionIds?: string[]): Promise<number> {
  return (await operatorConsole().platform.settleNow.mutate({ merchantCode, transactionIds })).settled;
}

export type ConsoleRole = 'PLATFORM_ADMIN' | 'SUPPORT' | 'MERCHANT_ADMIN' | 'MERCHANT_VIEWER';

/** A new console user (the operator's create-user): its email (a fresh one unless given) and password, to sign in with. */
export async function createConsoleUser(
  role: ConsoleRole,
  merchantCode?: string,
  name?: string,
  email = `${uniqueCode('user').toLowerCase()}@test.pe`,
) {
  const password = TEST_PASSWORDS.created;
  const { id } = await operator().createUser.mutate({ email, password, role, merchantCode, name });
  return { id, email, password };
}
