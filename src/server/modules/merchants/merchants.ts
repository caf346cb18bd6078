import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { forgetMerchant } from './merchant-cache';
import { AppError } from '@/server/core/domain/errors';

const duplicate = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

export async function createFacilitator(prisma: Db, input: { code: string; name: string }) {
  try {
    return await prisma.facilitator.create({ data: input, select: { id: true, code: true, name: true } });
  } catch (error) {
    if (duplicate(error)) throw new AppError('CONFLICT', `facilitator ${input.code} already exists`);
    throw error;
  }
}

export async function createMerchant(prisma: Db, input: { code: string; name: string; facilitatorCode?: string }) {
  const facilitator = input.facilitatorCode ? await findFacilitator(prisma, input.facilitatorCode) : null;
  try {
    const merchant = await prisma.merchant.create({
      data: { code: input.code, name: input.name, facilitatorId: facilitator?.id ?? null },
      select: { id: true, code: true, name: true },
    });
    forgetMerchant(merchant.code);
    return merchant;
  } catch (error) {
    if (duplicate(error)) throw new AppError('CONFLICT', `merchant ${input.code} already exists`);
    throw error;
  }
}

export async function linkMerchant(prisma: Db, input: { facilitatorCode: string; merchantCode: string }) {
  const facilitator = await findFacilitator(prisma, input.facilitatorCode);
  const merchant = await findMerchant(prisma, input.merchantCode);
  await prisma.merchant.update({ where: { id: merchant.id }, data: { facilitatorId: facilitator.id } });
  forgetMerchant(merchant.code);
  return { merchant_code: merchant.code, facilitator_code: facilitator.code };
}

export async function findMerchant(prisma: Db, code: string) {
  const merchant = await prisma.merchant.findUnique({ where: { code }, select: { id: true, code: true, name: true } });
  if (!merchant) throw new AppError('NOT_FOUND', `no merchant ${code}`);
  return merchant;
}

export async function findFacilitator(prisma: Db, code: string) {
  const facilitator = await prisma.facilitator.findUnique({ where: { code }, select: { id: true, code: true } });
  if (!facilitator) throw new AppError('NOT_FOUND', `no facilitator ${code}`);
  return facilitator;
}

export type MerchantSettings = {
  code: string;
  name?: string;
  supportEmail?: string | null;
  enabledMethods?: string[];
  /** Per-method overrides in seconds; null clears one (the method's default applies again); others are kept. */
  expirySeconds?: Partial<Record<string, number | null>>;
};

/** Profile, enabled methods and per-method expiry overrides (seconds) of a merchant. */
export async function updateMerchant(prisma: Db, input: MerchantSettings) {
  const merchant = await findMerchant(prisma, input.code);
  const updated = await prisma.$transaction(async (tx) => {
    // The row lock makes concurrent expiry edits merge instead of overwriting each other.
    const [locked] = await tx.$queryRaw<{ expiry_seconds: unknown }[]>`
      SELECT expiry_seconds FROM merchants WHERE id = ${merchant.id}::uuid FOR UPDATE`;
    return tx.merchant.update({
      where: { id: merchant.id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.supportEmail !== undefined ? { supportEmail: input.supportEmail } : {}),
        ...(input.enabledMethods !== undefined ? { enabledMethods: input.enabledMethods } : {}),
        ...(input.expirySeconds !== undefined
          ? { expirySeconds: mergeOverrides(locked?.expiry_seconds, input.expirySeconds) }
          : {}),
      },
      select: { code: true, name: true, supportEmail: true, enabledMethods: true, expirySeconds: true },
    });
  });
  forgetMerchant(merchant.code);
  return updated;
}

function mergeOverrides(stored: unknown, patch: Partial<Record<string, number | null>>): Record<string, number> {
  const merged: Record<string, number> = { ...(stored && typeof stored === 'object' ? (stored as Record<string, number>) : {}) };
  for (const [method, seconds] of Object.entries(patch)) {
    if (seconds === null) delete merged[method];
    else if (seconds !== undefined) merged[method] = seconds;
  }
  return merged;
}

/** The merchant no longer belongs to a facilitator: the facilitator's credentials stop acting for it. */
export async function unlinkMerchant(prisma: Db, merchantCode: string) {
  const merchant = await findMerchant(prisma, merchantCode);
  await prisma.merchant.update({ where: { id: merchant.id }, data: { facilitatorId: null } });
  forgetMerchant(merchant.code);
  return { merchant_code: merchant.code, facilitator_code: null };
}

/** The id of the merchant named, or undefined when none is (every merchant). */
export async function merchantIdOf(prisma: Db, code: string | undefined): Promise<string | undefined> {
  return code ? (await findMerchant(prisma, code)).id : undefined;
}
