import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { chargingSettings, merchantSettingsSelect } from '@/server/modules/merchants/merchant-cache';
import type { Principal } from './principal';
import type { CaptureModes } from '@/server/core/domain/money-movements';

export type ActingMerchant = {
  id: string;
  code: string;
  name: string;
  enabledMethods: string[];
  expirySeconds: Record<string, number>;
  /** The methods captured later (docs/DECISIONS.md "Capture later"), and for how many days. */
  captureModes: CaptureModes;
  captureWindowDays: number;
};

/** The merchant columns an ActingMerchant is made of. */
export const actingMerchantSelect = merchantSettingsSelect;

type ActingRow = Prisma.MerchantGetPayload<{ select: typeof actingMerchantSelect }>;

/** A merchant's row as the services take it, its JSON settings read once here. */
export function toActingMerchant(row: ActingRow): ActingMerchant {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    enabledMethods: row.enabledMethods,
    expirySeconds: (row.expirySeconds ?? {}) as Record<string, number>,
    captureModes: (row.captureModes ?? {}) as CaptureModes,
    captureWindowDays: row.captureWindowDays,
  };
}

const forbidden = (message: string) => new AppError('FORBIDDEN', message);

/**
 * The merchant a request names, if the token acts for it (docs/DESIGN.md 3): a merchant token for
 * its own merchant; a facilitator token, which must send payment-facilitator-code, for the
 * merchants linked to it. A sent header must match the facilitator of the token or merchant.
 */
async function actingMerchant(
  prisma: Db,
  principal: Principal,
  merchantCode: string,
  facilitatorHeader: string | null,
): Promise<ActingMerchant> {
  if (principal.merchantCode !== null && principal.merchantCode !== merchantCode) {
    throw forbidden('the token does not act for this merchant');
  }
  if (principal.facilitatorCode !== null && facilitatorHeader === null) {
    throw forbidden('facilitator credentials must send payment-facilitator-code');
  }
  if (principal.facilitatorCode !== null && facilitatorHeader !== principal.facilitatorCode) {
    throw forbidden('payment-facilitator-code does not match the token');
  }
  const merchant = await chargingSettings(prisma, merchantCode);
  if (!merchant) throw forbidden('the token does not act for this merchant');
  const linkedFacilitator = merchant.facilitator?.code ?? null;
  if (principal.facilitatorCode !== null && linkedFacilitator !== principal.facilitatorCode) {
    throw forbidden('the merchant is not linked to this facilitator');
  }
  if (facilitatorHeader !== null && facilitatorHeader !== linkedFacilitator) {
    throw forbidden('payment-facilitator-code does not match the merchant');
  }
  return toActingMerchant(merchant);
}

/**
 * The merchant of a call whose merchant_code may be left out: a merchant token's own; without one,
 * a facilitator token acts for every merchant linked to it (null) and must send its own code.
 */
export async function actingMerchantOf(
  prisma: Db,
  principal: Principal,
  merchantCode: string | undefined,
  facilitatorHeader: string | null,
): Promise<ActingMerchant | null> {
  const code = merchantCode ?? principal.merchantCode;
  if (code !== null) return actingMerchant(prisma, principal, code, facilitatorHeader);
  if (facilitatorHeader !== principal.facilitatorCode) {
    throw forbidden('facilitator credentials must send a matching payment-facilitator-code');
  }
  return null;
}

/** Merchants a token may see in listings: its own, or every merchant linked to its facilitator. */
export async function visibleMerchantIds(prisma: Db, principal: Principal): Promise<string[]> {
  if (principal.merchantCode !== null) {
    const merchant = await prisma.merchant.findUnique({ where: { code: principal.merchantCode }, select: { id: true } });
    return merchant ? [merchant.id] : [];
  }
  if (principal.facilitatorCode !== null) {
    const merchants = await prisma.merchant.findMany({
      where: { facilitator: { code: principal.facilitatorCode } },
      select: { id: true },
    });
    return merchants.map((merchant) => merchant.id);
  }
  return [];
}

/** What a listing reads: the merchant the request names, or every merchant a facilitator naming none is linked to. */
export async function listingScope(
  prisma: Db,
  principal: Principal,
  merchant: ActingMerchant | null,
): Promise<{ merchantIds: string[]; merchantCode: string }> {
  if (merchant) return { merchantIds: [merchant.id], merchantCode: merchant.code };
  return { merchantIds: await visibleMerchantIds(prisma, principal), merchantCode: principal.facilitatorCode ?? '' };
}
