import { env } from '@/env';
import { logError } from '@/server/platform/log';
import type { Db } from '@/server/platform/db/client';
import { hashClientSecret, hashSecret, verifyClientSecret } from '@/server/platform/security/secrets';
import { clientSecretPeppers } from '@/server/modules/access/credentials';
import type { Role } from '@/server/modules/access/console-session';
import { SCOPES } from '@/server/core/interface/token';
import { actingMerchantById } from '@/server/modules/access/merchant-scope';
import { verifyAndSaveCard } from '@/server/modules/charges/verify-card';

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
  return {
    merchantCode: merchant.code,
    clientId: config.DEMO_CLIENT_ID,
    users: DEMO_USERS,
    customer: await demoCustomer(prisma, merchant.id),
  };
}

/** The demo customer, with a card saved for monthly charges (once: the same PAN is the same card). */
export const DEMO_CUSTOMER = 'demo-cliente-001';

async function demoCustomer(prisma: Db, merchantId: string): Promise<{ customerId: string; cardId: string | null }> {
  const customer = await prisma.customer.upsert({
    where: { merchantId_merchantCustomerId: { merchantId, merchantCustomerId: DEMO_CUSTOMER } },
    create: {
      merchantId,
      merchantCustomerId: DEMO_CUSTOMER,
      email: 'lucia.ramos@example.pe',
      firstName: 'Lucía',
      lastName: 'Ramos',
    },
    update: {},
    select: { id: true, cards: { where: { status: 'ACTIVE' }, select: { id: true }, take: 1 } },
  });
  if (customer.cards[0]) return { customerId: customer.id, cardId: customer.cards[0].id };
  const merchant = await actingMerchantById(prisma, merchantId);
  // Verified for zero at the sandbox acquirer, like any card saved without a payment: its NTI is real.
  const saved = await verifyAndSaveCard(prisma, merchant, {
    merchant_code: merchant.code,
    customer_id: customer.id,
    pan: '4111111111111111',
    expiry_date: '1230',
    security_code: '123',
    currency: '604',
    reason: 'RECURRING',
    consent: { accepted_at: '2026-12-01T09:00:00-05:00', terms_version: 'demo-suscripcion-v1', max_amount: '5990' },
  }).catch((error: unknown) => {
    logError('the demo customer’s card was not saved', error);
    return null;
  });
  return { customerId: customer.id, cardId: saved?.card.card_id ?? null };
}
