import type { ConsoleSession } from '@/server/auth/console-session';
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
