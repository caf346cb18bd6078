import { randomBytes } from 'node:crypto';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { sealingKeys, type KeyRing } from '@/server/platform/security/sealed-box';
import { hashClientSecret, newClientSecret } from '@/server/platform/security/secrets';
import { SCOPES } from '@/server/core/interface/token';
import { findFacilitator, findMerchant } from '@/server/modules/merchants/merchants';

/** The peppers of client secrets' hashes: CLIENT_SECRET_PEPPERS, or the one made on first start and kept. */
export function clientSecretPeppers(prisma: Db): Promise<KeyRing> {
  return sealingKeys(prisma, 'client-secret-pepper', env().CLIENT_SECRET_PEPPERS);
}

export type CredentialOwner = { merchantCode: string } | { facilitatorCode: string };

/** Issues a client id and secret; the secret is returned this once and stored only hashed. */
export async function issueCredential(
  prisma: Db,
  input: { owner: CredentialOwner; scopes?: string[]; label?: string; tokenTtlSeconds?: number; rateLimitPerSecond?: number },
) {
  const scopes = input.scopes ?? [...SCOPES];
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) throw new AppError('VALIDATION', `unknown scopes: ${unknown.join(' ')}`);
  const owner =
    'merchantCode' in input.owner
      ? { merchantId: (await findMerchant(prisma, input.owner.merchantCode)).id }
      : { facilitatorId: (await findFacilitator(prisma, input.owner.facilitatorCode)).id };
  const clientId = `cli_${randomBytes(12).toString('hex')}`;
  const clientSecret = newClientSecret();
  await prisma.apiCredential.create({
    data: {
      clientId,
      secretHash: hashClientSecret(clientSecret, await clientSecretPeppers(prisma)),
      scopes,
      label: input.label ?? '',
      tokenTtlSeconds: input.tokenTtlSeconds ?? null,
      rateLimitPerSecond: input.rateLimitPerSecond ?? null,
      ...owner,
    },
    select: { id: true },
  });
  return { client_id: clientId, client_secret: clientSecret, scopes };
}

export async function listCredentials(prisma: Db, filter: { merchantCode?: string }) {
  const rows = await prisma.apiCredential.findMany({
    where: filter.merchantCode ? { merchant: { code: filter.merchantCode } } : {},
    orderBy: { createdAt: 'asc' },
    select: {
      clientId: true,
      label: true,
      scopes: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      merchant: { select: { code: true } },
      facilitator: { select: { code: true } },
    },
  });
  return rows.map((row) => ({
    client_id: row.clientId,
    label: row.label,
    scopes: row.scopes,
    owner: row.merchant ? `merchant:${row.merchant.code}` : `facilitator:${row.facilitator?.code ?? ''}`,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  }));
}

export async function revokeCredential(prisma: Db, clientId: string) {
  const result = await prisma.apiCredential.updateMany({
    where: { clientId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (result.count === 0) {
    const exists = await prisma.apiCredential.findUnique({ where: { clientId }, select: { id: true } });
    if (!exists) throw new AppError('NOT_FOUND', `no credential ${clientId}`);
  }
  return { client_id: clientId, revoked: true };
}
