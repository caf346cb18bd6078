import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { issueCredential, listCredentials, revokeCredential } from '@/server/modules/access/credentials';
import { merchantCodeIn, type MerchantScope } from './merchant-scope';

// API credentials in the console: merchant users manage their merchant's; platform staff any.
export async function consoleCredentials(prisma: Db, scope: MerchantScope, merchantCode?: string) {
  return listCredentials(prisma, { merchantCode: await merchantCodeIn(prisma, scope, merchantCode) });
}

export async function consoleIssueCredential(
  prisma: Db,
  scope: MerchantScope,
  input: { merchantCode?: string; scopes: string[]; label: string },
) {
  const merchantCode = await merchantCodeIn(prisma, scope, input.merchantCode);
  return issueCredential(prisma, { owner: { merchantCode }, scopes: input.scopes, label: input.label });
}

export async function consoleRevokeCredential(prisma: Db, scope: MerchantScope, clientId: string) {
  const credential = await prisma.apiCredential.findUnique({ where: { clientId }, select: { merchantId: true } });
  if (!credential || (scope.kind === 'one' && credential.merchantId !== scope.merchantId)) {
    throw new AppError('NOT_FOUND', 'no such credential');
  }
  return revokeCredential(prisma, clientId);
}
