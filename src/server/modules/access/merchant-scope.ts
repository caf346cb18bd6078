import { actingMerchantSelect, toActingMerchant, type ActingMerchant } from '@/server/modules/access/acting-merchant';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { can } from '@/server/modules/access/policy';

/** The merchants a console user may see: one for merchant roles, every one for platform roles. */
export type MerchantScope = { kind: 'all' } | { kind: 'one'; merchantId: string };

export function scopeOf(session: ConsoleSession): MerchantScope {
  if (can(session.role, 'merchants:all')) return { kind: 'all' };
  if (!session.merchantId) throw new AppError('FORBIDDEN', 'this user has no merchant');
  return { kind: 'one', merchantId: session.merchantId };
}

/** Not found rather than forbidden: another merchant's operation (or refund) does not exist for this user. */
export function assertInScope(scope: MerchantScope, merchantId: string, what = 'operation'): void {
  if (scope.kind === 'one' && scope.merchantId !== merchantId) throw new AppError('NOT_FOUND', `no such ${what}`);
}

/** The merchant a console action acts for, as the API services take it. */
export async function actingMerchantById(prisma: Db, merchantId: string): Promise<ActingMerchant> {
  return toActingMerchant(await prisma.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: actingMerchantSelect }));
}

/**
 * The merchant a console request names: a merchant user's own (naming another is not found);
 * platform staff must name one.
 */
export async function merchantInScope(prisma: Db, scope: MerchantScope, requested: string | undefined): Promise<ActingMerchant> {
  if (scope.kind === 'one') {
    const own = await actingMerchantById(prisma, scope.merchantId);
    if (requested && requested !== own.code) throw new AppError('NOT_FOUND', 'no such merchant');
    return own;
  }
  if (!requested) throw new AppError('VALIDATION', 'choose a merchant');
  const merchant = await prisma.merchant.findUnique({ where: { code: requested }, select: actingMerchantSelect });
  if (!merchant) throw new AppError('NOT_FOUND', 'no such merchant');
  return toActingMerchant(merchant);
}

/** The code of the merchant a console call is about (see merchantInScope). */
export async function merchantCodeIn(prisma: Db, scope: MerchantScope, requested: string | undefined): Promise<string> {
  return (await merchantInScope(prisma, scope, requested)).code;
}
