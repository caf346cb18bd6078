import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { DEFAULT_EXPIRY_SECONDS, expiryOverrides, PENDING_METHODS, type PendingMethod } from '@/server/core/domain/expiry';
import { PAYMENT_METHODS } from '@/server/core/domain/states';
import { updateMerchant } from '@/server/modules/merchants/merchants';
import { merchantCodeIn, type MerchantScope } from '@/server/modules/access/merchant-scope';

// A merchant's settings in the console: what /settings and a platform admin's merchant page show
// and change. Changes go through the operator's updateMerchant, the one way to change a merchant.
export type MerchantSettingsView = {
  code: string;
  name: string;
  supportEmail: string | null;
  facilitator: { code: string; name: string } | null;
  enabledMethods: string[];
  expiries: { method: PendingMethod; defaultSeconds: number; overrideSeconds: number | null }[];
  createdAt: string;
};

export async function merchantSettings(prisma: Db, scope: MerchantScope, requested?: string): Promise<MerchantSettingsView> {
  const code = await merchantCodeIn(prisma, scope, requested);
  const merchant = await prisma.merchant.findUnique({
    where: { code },
    select: {
      code: true,
      name: true,
      supportEmail: true,
      enabledMethods: true,
      expirySeconds: true,
      createdAt: true,
      facilitator: { select: { code: true, name: true } },
    },
  });
  if (!merchant) throw new AppError('NOT_FOUND', 'no such merchant');
  const overrides = expiryOverrides(merchant.expirySeconds);
  return {
    code: merchant.code,
    name: merchant.name,
    supportEmail: merchant.supportEmail,
    facilitator: merchant.facilitator,
    enabledMethods: PAYMENT_METHODS.filter((method) => merchant.enabledMethods.includes(method)),
    expiries: PENDING_METHODS.map((method) => ({
      method,
      defaultSeconds: DEFAULT_EXPIRY_SECONDS[method],
      overrideSeconds: overrides[method] ?? null,
    })),
    createdAt: merchant.createdAt.toISOString(),
  };
}

export type SettingsChange = {
  merchantCode?: string;
  name?: string;
  supportEmail?: string | null;
  enabledMethods?: string[];
  /** Whole minutes per pending method; null: back to the method's default. */
  expiryMinutes?: Partial<Record<PendingMethod, number | null>>;
};

export async function changeMerchantSettings(prisma: Db, scope: MerchantScope, change: SettingsChange) {
  const { merchantCode, expiryMinutes, ...rest } = change;
  const code = await merchantCodeIn(prisma, scope, merchantCode);
  const expirySeconds = expiryMinutes
    ? Object.fromEntries(
        Object.entries(expiryMinutes)
          .filter((entry) => entry[1] !== undefined)
          .map(([method, minutes]) => [method, minutes === null ? null : minutes * 60]),
      )
    : undefined;
  await updateMerchant(prisma, { code, ...rest, expirySeconds });
  return merchantSettings(prisma, scope, code);
}
