import { toActingMerchant } from '@/server/modules/access/acting-merchant';
import { afterAll, beforeAll, inject } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openPglite, type DatabaseHandle } from '@/server/platform/db/adapter';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { appRouter } from '@/server/api/routers/app-router';
import { toAppError } from '@/server/api/errors/to-app-error';
import { createCallerFactory } from '@/server/api/trpc';

// Shared by the console procedure tests: a fresh embedded database, a caller per session, and
// the kind of error a call was refused with.
/** Opening the database and applying the migrations can take a while on a busy machine. */
export const SETUP_TIMEOUT = 60_000;

export type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

/** An embedded database of its own, every migration applied: loaded from the run's template (pglite-template.ts). */
export function openMigratedPglite(): Promise<DatabaseHandle> {
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('no migrated template: run the unit tests with vitest.config.ts (its global setup makes one)');
  return openPglite(undefined, { template });
}

export async function openTestDatabase() {
  const handle = await openMigratedPglite();
  const prisma = new PrismaClient({ adapter: handle.factory });
  return {
    prisma,
    caller: (session?: ConsoleSession) => consoleCallerOf(prisma, session),
    close: async () => {
      await prisma.$disconnect();
      await handle.close();
    },
  };
}

/** A caller of the app's procedures as a console user (or signed out), in-process. */
export function consoleCallerOf(prisma: PrismaClient, session?: ConsoleSession) {
  return createCallerFactory(appRouter)({ headers: new Headers(), requestId: 't', prisma, session });
}

export function sessionAs(role: ConsoleSession['role'], merchantId: string | null = null): ConsoleSession {
  return { userId: `user-${role}`, email: `${role.toLowerCase()}@test.pe`, role, merchantId };
}

/** 'allowed', or the error kind the call failed with (as the HTTP answer maps it: VALIDATION is 400). */
export async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'allowed';
  } catch (error) {
    return toAppError(error).kind;
  }
}

/** A merchant as the API services take it (enabled methods, no expiry overrides). */
export async function testMerchant(prisma: PrismaClient, code: string, name = `Shop ${code}`): Promise<ActingMerchant> {
  const merchant = await prisma.merchant.create({ data: { code, name } });
  return toActingMerchant(merchant);
}

/**
 * A test file's embedded database with one merchant in it: opened before the file's tests and
 * closed after them. Its fields are set once the file's beforeAll has run: read them in tests and hooks.
 */
export function withTestMerchant(code: string, name?: string): { db: TestDatabase; merchant: ActingMerchant } {
  const fixture = withTestDatabase() as { db: TestDatabase; merchant: ActingMerchant };
  beforeAll(async () => {
    fixture.merchant = await testMerchant(fixture.db.prisma, code, name);
  }, SETUP_TIMEOUT);
  return fixture;
}

/** The file's embedded database, opened before its tests and closed after them: tests read `fixture.db`. */
export function withTestDatabase(): { db: TestDatabase } {
  const fixture = {} as { db: TestDatabase };
  beforeAll(async () => {
    fixture.db = await openTestDatabase();
  }, SETUP_TIMEOUT);
  afterAll(() => fixture.db?.close());
  return fixture;
}

type Person = ChargeRequest['payment_details']['customer'];
const ANA: Person = { first_name: 'Ana', email: 'ana.quispe@example.pe' };

/** A POST /charges body: CARD of S/ 150.00 (approved unless `pan` says otherwise) or QR of S/ 25.00 (pending). */
export function chargeRequest(
  merchant: string,
  number: string,
  method: 'CARD' | 'QR' | 'YAPE',
  options: { pan?: string; otp?: string; callbackUrl?: string; customer?: Person } = {},
): ChargeRequest {
  const callback = options.callbackUrl ? { callback_url: options.callbackUrl } : {};
  const customer = options.customer ?? ANA;
  return {
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: merchant,
    merchant_operation_number: number,
    payment_method:
      method === 'CARD'
        ? {
            method_name: 'CARD',
            method_details: { pan: options.pan ?? '4111111111111111', expiry_date: '1230', security_code: '123', ...callback },
          }
        : method === 'YAPE'
          ? {
              method_name: 'YAPE',
              method_details: { phone: { country_code: '+51', subscriber: '987654321' }, otp: options.otp ?? '123456' },
            }
          : { method_name: 'QR', method_details: callback },
    payment_details: {
      amount: method === 'QR' ? '2500' : '15000',
      currency: '604',
      billing: customer,
      shipping: customer,
      customer,
      product_details: [],
    },
  };
}
