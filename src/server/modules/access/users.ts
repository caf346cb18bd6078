import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { hashSecret } from '@/server/platform/security/secrets';
import type { Role } from '@/server/modules/access/console-session';
import { findMerchant } from '@/server/modules/merchants/merchants';

const MERCHANT_ROLES: readonly Role[] = ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'];

export async function createConsoleUser(
  prisma: Db,
  input: { email: string; password: string; role: Role; merchantCode?: string; name?: string },
) {
  const needsMerchant = MERCHANT_ROLES.includes(input.role);
  if (needsMerchant !== Boolean(input.merchantCode)) {
    throw new AppError(
      'VALIDATION',
      needsMerchant ? `${input.role} needs a merchant` : `${input.role} is not tied to a merchant`,
    );
  }
  const merchant = input.merchantCode ? await findMerchant(prisma, input.merchantCode) : null;
  try {
    const user = await prisma.consoleUser.create({
      data: {
        email: input.email.toLowerCase(),
        name: input.name ?? '',
        role: input.role,
        passwordHash: await hashSecret(input.password),
        merchantId: merchant?.id ?? null,
      },
      select: { id: true, email: true, role: true },
    });
    return { ...user, merchant_code: merchant?.code ?? null };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new AppError('CONFLICT', `a user ${input.email} already exists`);
    }
    throw error;
  }
}
