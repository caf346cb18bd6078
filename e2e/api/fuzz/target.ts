import type { APIRequestContext } from '@playwright/test';
import { tokenFor, cancel } from '../../support/api-client';
import { authCsrf, sessionCookie } from '../../support/console-sign-in';
import { contractOf, expect } from '../../support/contract';
import {
  createConsoleUser,
  createMerchant,
  operatorConsole,
  operatorToken,
  settleNow,
  uniqueCode,
  type ConsoleRole,
} from '../../support/service';
import { AUDIENCE, chargeOne } from '../auth-helpers';
import type { RestTarget } from './rest-requests';

// What the fuzz aims at: its own merchant (an operation of each kind its bad requests must leave
// alone) with an API credential, console users of every role signed in, and the operator token.

export type FuzzTarget = RestTarget & {
  /** The x-operator-token of the service (a platform admin). */
  operatorToken: string;
  /** The Cookie header of a signed-in user of each role (merchant roles: users of the fuzz merchant). */
  sessions: Record<ConsoleRole, string>;
  /** The Cookie header of a session whose user was disabled after signing in. */
  disabledSession: string;
  /** A next-auth CSRF cookie and its token. */
  csrf: { cookie: string; token: string };
  /** Payer-page tokens of the merchant: a PENDIENTE payment (never sent itself) and a CANCELADO one. */
  payer: { pending: string; cancelled: string };
  /** No merchant or facilitator code starts with it: the unknown codes the fuzz names do. */
  unknownPrefix: string;
};

const PAYER_TOKEN = /\/pay\/([A-Za-z0-9_-]+)$/;

async function payerToken(request: APIRequestContext, token: string, merchantCode: string, cancelled: boolean): Promise<string> {
  const charged = await chargeOne(request, token, merchantCode, 'BANK_TRANSFER');
  const continueUrl = (charged.body as { transaction: { continue_url: string } }).transaction.continue_url;
  if (cancelled) expect((await cancel(request, token, merchantCode, charged.number)).status).toBe(200);
  return PAYER_TOKEN.exec(continueUrl)![1]!;
}

async function signedInSessions(merchantCode: string): Promise<Record<ConsoleRole, string>> {
  const roles: ConsoleRole[] = ['PLATFORM_ADMIN', 'SUPPORT', 'MERCHANT_ADMIN', 'MERCHANT_VIEWER'];
  const cookies = await Promise.all(
    roles.map(async (role) => {
      const user = await createConsoleUser(role, role.startsWith('MERCHANT') ? merchantCode : undefined, `fuzz ${role}`);
      return sessionCookie(user.email, user.password);
    }),
  );
  return Object.fromEntries(roles.map((role, index) => [role, cookies[index]!])) as Record<ConsoleRole, string>;
}

async function disabledUserSession(merchantCode: string): Promise<string> {
  const user = await createConsoleUser('MERCHANT_VIEWER', merchantCode, 'fuzz disabled');
  const cookie = await sessionCookie(user.email, user.password);
  await operatorConsole().settings.setUserDisabled.mutate({ userId: user.id, disabled: true });
  return cookie;
}

/** The REST fuzz's merchant: a credential, a LIQUIDADO operation, and another merchant to name. */
export async function restTarget(request: APIRequestContext, prefix: string): Promise<RestTarget> {
  // Its own credential without a practical rate limit: the fuzz tests validation, not the limiter.
  const merchant = await createMerchant(prefix, undefined, { rateLimitPerSecond: 100_000 });
  const token = await tokenFor(request, merchant);
  const settled = await chargeOne(request, token, merchant.code, 'CARD');
  expect(await settleNow(merchant.code)).toBe(1);
  const other = await createMerchant(`${prefix}O`);
  return {
    contract: await contractOf(),
    merchantCode: merchant.code,
    otherMerchantCode: other.code,
    token,
    audience: AUDIENCE,
    settled: { number: settled.number, transactionId: settled.transactionId, amount: settled.amount },
  };
}

export async function fuzzTarget(request: APIRequestContext, prefix: string): Promise<FuzzTarget> {
  const rest = await restTarget(request, prefix);
  const [sessions, disabledSession, pending, cancelled, csrf] = await Promise.all([
    signedInSessions(rest.merchantCode),
    disabledUserSession(rest.merchantCode),
    payerToken(request, rest.token, rest.merchantCode, false),
    payerToken(request, rest.token, rest.merchantCode, true),
    authCsrf(),
  ]);
  return {
    ...rest,
    operatorToken: operatorToken(),
    sessions,
    disabledSession,
    csrf,
    payer: { pending, cancelled },
    unknownPrefix: uniqueCode('FZNONE'),
  };
}
