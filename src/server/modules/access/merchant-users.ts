import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { newConsolePassword } from '@/server/platform/security/secrets';
import type { Role } from '@/server/modules/access/console-session';
import { createConsoleUser } from '@/server/modules/access/users';
import { merchantCodeIn, type MerchantScope } from './merchant-scope';
import { can } from '@/server/modules/access/policy';

// The console users of one merchant: merchant admins manage their own, platform admins any
// merchant's. Platform users (PLATFORM_ADMIN, SUPPORT) are never listed or changed here.
export type MerchantRole = Extract<Role, 'MERCHANT_ADMIN' | 'MERCHANT_VIEWER'>;

const userSelect = { id: true, email: true, name: true, role: true, disabledAt: true, createdAt: true } as const;

type UserRow = { id: string; email: string; name: string; role: string; disabledAt: Date | null; createdAt: Date };

function toView(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role as MerchantRole,
    disabledAt: user.disabledAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

export type MerchantUserView = ReturnType<typeof toView>;

export async function merchantUsers(prisma: Db, scope: MerchantScope, requested?: string): Promise<MerchantUserView[]> {
  const code = await merchantCodeIn(prisma, scope, requested);
  const users = await prisma.consoleUser.findMany({
    where: { merchant: { code } },
    orderBy: [{ createdAt: 'asc' }, { email: 'asc' }],
    select: userSelect,
  });
  return users.map(toView);
}

/** A new user with a generated first password, returned this once (only its hash is stored). */
export async function addMerchantUser(
  prisma: Db,
  scope: MerchantScope,
  input: { merchantCode?: string; email: string; name: string; role: MerchantRole },
) {
  const merchantCode = await merchantCodeIn(prisma, scope, input.merchantCode);
  const password = newConsolePassword();
  const created = await createConsoleUser(prisma, { ...input, merchantCode, password });
  const user = await prisma.consoleUser.findUniqueOrThrow({ where: { id: created.id }, select: userSelect });
  return { user: toView(user), password };
}

const isActiveAdmin = (user: { role: string; disabledAt: Date | null }) =>
  can(user.role as Role, 'merchant:act') && user.disabledAt === null;

/**
 * Changes a user's role or disables/enables it. Nobody changes or disables themselves, and a
 * merchant always keeps an active admin once it has one. The merchant's row is locked, so two
 * admins demoting each other at once cannot both succeed.
 */
export async function changeMerchantUser(
  prisma: Db,
  scope: MerchantScope,
  actorUserId: string | null,
  input: { userId: string; role?: MerchantRole; disabled?: boolean },
): Promise<MerchantUserView> {
  return prisma.$transaction(async (tx) => {
    const owner = await tx.consoleUser.findUnique({ where: { id: input.userId }, select: { merchantId: true } });
    if (!owner?.merchantId || (scope.kind === 'one' && owner.merchantId !== scope.merchantId)) {
      throw new AppError('NOT_FOUND', 'no such user');
    }
    if (input.userId === actorUserId) {
      throw new AppError('FORBIDDEN', 'you cannot change your own role or disable yourself; ask another admin', {
        errors: [{ field: 'userId', code: 'own_user', message: 'you cannot change your own role or disable yourself' }],
      });
    }
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${owner.merchantId}::uuid FOR UPDATE`;
    const user = await tx.consoleUser.findUniqueOrThrow({ where: { id: input.userId }, select: userSelect });
    const after = {
      role: input.role ?? user.role,
      disabledAt: input.disabled === undefined ? user.disabledAt : input.disabled ? (user.disabledAt ?? new Date()) : null,
    };
    if (isActiveAdmin(user) && !isActiveAdmin(after)) {
      const others = await tx.consoleUser.count({
        where: { merchantId: owner.merchantId, role: 'MERCHANT_ADMIN', disabledAt: null, id: { not: user.id } },
      });
      if (others === 0) {
        throw new AppError('STATE_CONFLICT', 'the merchant must keep at least one active admin', {
          errors: [{ field: 'userId', code: 'last_admin', message: 'the merchant must keep at least one active admin' }],
        });
      }
    }
    // A new role is a new session: the user signs in again under it.
    const roleChanged = after.role !== user.role;
    const updated = await tx.consoleUser.update({
      where: { id: user.id },
      data: { ...after, ...(roleChanged ? { sessionGeneration: { increment: 1 } } : {}) },
      select: userSelect,
    });
    return toView(updated);
  });
}
