import { PrismaClient } from '@/generated/prisma/client';
import { openPglite } from '@/server/db/adapter';
import { deployMigrations } from '@/server/db/migrations';
import type { ConsoleSession } from '@/server/auth/console-session';
import type { ActingMerchant } from '@/server/auth/acting-merchant';
import type { ChargeRequest } from '@/server/schemas/charge-request';
import { toAppError } from '../../to-app-error';
import { appRouter } from '../app-router';
import { createCallerFactory } from '../../trpc';

// What the console's procedure tests share: a fresh embedded database, merchants, charges in
// the shape of the API, and callers signed in as any role.
export type TestDb = { prisma: PrismaClient; close: () => Promise<void> };

export async function openTestDb(): Promise<TestDb> {
  const handle = await openPglite(undefined);
  await deployMigrations(handle.factory);
  const prisma = new PrismaClient({ adapter: handle.factory });
  return {
    prisma,
    close: async () => {
      await prisma.$disconnect();
      await handle.close();
    },
  };
}

export async function testMerchant(prisma: PrismaClient, code: string, name = `Shop ${code}`): Promise<ActingMerchant> {
  const merchant = await prisma.merchant.create({ data: { code, name } });
  return { ...merchant, expirySeconds: {} };
}

type Person = ChargeRequest['payment_details']['customer'];
const ANA: Person = { first_name: 'Ana', email: 'ana.quispe@example.pe' };

/** A charge body: CARD of S/ 150.00 (approved unless `pan` says otherwise) or QR of S/ 25.00 (pending). */
export function chargeBody(
  merchant: string,
  number: string,
  method: 'CARD' | 'QR',
  options: { pan?: string; callbackUrl?: string; customer?: Person } = {},
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
        : { method_name: 'QR', method_details: callback },
    payment_details: {
      amount: method === 'CARD' ? '15000' : '2500',
      currency: '604',
      billing: customer,
      shipping: customer,
      customer,
      product_details: [],
    },
  };
}

export function callerOf(prisma: PrismaClient) {
  const factory = createCallerFactory(appRouter);
  return (session?: ConsoleSession) => factory({ headers: new Headers(), requestId: 't', prisma, session });
}

export function sessionAs(role: ConsoleSession['role'], merchantId: string | null = null): ConsoleSession {
  return { userId: `user-${role}`, email: `${role.toLowerCase()}@test.pe`, role, merchantId };
}

/** The kind of error a call is refused with, as the HTTP answer would say it (VALIDATION, FORBIDDEN...), or 'allowed'. */
export async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'allowed';
  } catch (error) {
    return toAppError(error).kind;
  }
}
