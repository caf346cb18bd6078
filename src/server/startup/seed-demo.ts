import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { hashClientSecret, hashSecret, verifyClientSecret } from '@/server/platform/security/secrets';
import { clientSecretPeppers } from '@/server/modules/access/credentials';
import type { Role } from '@/server/modules/access/console-session';
import { SCOPES } from '@/server/core/interface/token';

// The demo merchant, its credentials and one console user per role: stable across restarts,
// overridable by DEMO_* configuration. Returns what the start banner prints: never the secret or
// the password (log lines must not hold them; they are settings the operator already knows).
export const DEMO_USERS: { email: string; role: Role; merchant: boolean }[] = [
  { email: 'admin@demo.pe', role: 'PLATFORM_ADMIN', merchant: false },
  { email: 'support@demo.pe', role: 'SUPPORT', merchant: false },
  { email: 'owner@demo.pe', role: 'MERCHANT_ADMIN', merchant: true },
  { email: 'viewer@demo.pe', role: 'MERCHANT_VIEWER', merchant: true },
];

export async function seedDemo(prisma: Db) {
  const config = env();
  const merchant = await prisma.merchant.upsert({
    where: { code: config.DEMO_MERCHANT_CODE },
    create: { code: config.DEMO_MERCHANT_CODE, name: 'Demo Store S.A.C.' },
    update: {},
    select: { id: true, code: true },
  });
  const credential = await prisma.apiCredential.findUnique({
    where: { clientId: config.DEMO_CLIENT_ID },
    select: { id: true, secretHash: true },
  });
  const peppers = await clientSecretPeppers(prisma);
  if (!credential) {
    await prisma.apiCredential.create({
      data: {
        clientId: config.DEMO_CLIENT_ID,
        secretHash: hashClientSecret(config.DEMO_CLIENT_SECRET, peppers),
        scopes: [...SCOPES],
        label: 'demo',
        merchantId: merchant.id,
      },
    });
  } else if (!(await verifyClientSecret(config.DEMO_CLIENT_SECRET, credential.secretHash, peppers)).valid) {
    await prisma.apiCredential.update({
      where: { id: credential.id },
      data: { secretHash: hashClientSecret(config.DEMO_CLIENT_SECRET, peppers) },
    });
  }
  for (const user of DEMO_USERS) {
    const exists = await prisma.consoleUser.findUnique({ where: { email: user.email }, select: { id: true } });
    if (exists) continue;
    await prisma.consoleUser.create({
      data: {
        email: user.email,
        name: user.role,
        role: user.role,
        passwordHash: await hashSecret(config.DEMO_PASSWORD),
        merchantId: user.merchant ? merchant.id : null,
      },
    });
  }
  return { merchantCode: merchant.code, clientId: config.DEMO_CLIENT_ID, users: DEMO_USERS };
}
