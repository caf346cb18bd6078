import type { ConsoleSession } from '@/server/auth/console-session';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/domain/errors';

/** The merchants a console user may see: one for merchant roles, every one for platform roles. */
export type MerchantScope = { kind: 'all' } | { kind: 'one'; merchantId: string };

export function scopeOf(session: ConsoleSession): MerchantScope {
  if (session.role === 'PLATFORM_ADMIN' || session.role === 'SUPPORT') return { kind: 'all' };
  if (!session.merchantId) throw new AppError('FORBIDDEN', 'this user has no merchant');
  return { kind: 'one', merchantId: session.merchantId };
}

/** Not found rather than forbidden: another merchant's operation does not exist for this user. */
export function assertInScope(scope: MerchantScope, merchantId: string): void {
  if (scope.kind === 'one' && scope.merchantId !== merchantId) throw new AppError('NOT_FOUND', 'no such operation');
}

/** The merchant a console call is about: a merchant user's own (naming another is not found); platform staff name one. */
export async function merchantCodeIn(prisma: Db, scope: MerchantScope, requested: string | undefined): Promise<string> {
  if (scope.kind === 'one') {
    const own = await prisma.merchant.findUniqueOrThrow({ where: { id: scope.merchantId }, select: { code: true } });
    if (requested && requested !== own.code) throw new AppError('NOT_FOUND', 'no such merchant');
    return own.code;
  }
  if (!requested) throw new AppError('VALIDATION', 'choose a merchant');
  return requested;
}
