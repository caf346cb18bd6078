import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { RecentReads } from '@/server/platform/cache/recent-reads';

/** The merchant columns the charging services act on (access/acting-merchant.ts reads them into an ActingMerchant). */
export const merchantSettingsSelect = {
  id: true,
  code: true,
  name: true,
  enabledMethods: true,
  expirySeconds: true,
  captureModes: true,
  captureWindowDays: true,
} as const satisfies Prisma.MerchantSelect;

const storedSelect = {
  ...merchantSettingsSelect,
  facilitator: { select: { code: true } },
} as const satisfies Prisma.MerchantSelect;

export type StoredMerchant = Prisma.MerchantGetPayload<{ select: typeof storedSelect }>;

/** A merchant's charging settings, read at most every 2 s per instance (null: no such merchant). */
const merchants = new RecentReads<StoredMerchant | null>(2_000);

export function chargingSettings(prisma: Db, code: string): Promise<StoredMerchant | null> {
  return merchants.get(code, () => prisma.merchant.findUnique({ where: { code }, select: storedSelect }));
}

/** A change of the merchant's settings or facilitator applies to this instance's next request. */
export function forgetMerchant(code: string): void {
  merchants.forget(code);
}
