import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '@/server/platform/db/client';
import { onEveryConnection } from '@/server/platform/db/every-connection';
import { logError } from '@/server/platform/log';
import { forgetBreakers } from '@/server/modules/processors/breakers';
import { actingMerchantSelect, toActingMerchant } from '@/server/modules/access/acting-merchant';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { authorizeChargeInput, authorizeChargeOutput } from '@/server/api/routers/charges/authorize-charge.types';

// The refused requests of the warm-up (warm-up.ts) and the statements run to find nothing
// (warm-statements.ts) leave a charge's own work cold: its checks and plan, the sandbox
// acquirer, the inserts of the claim, the transaction, its lifecycle and events into their
// indexes, and the response's schema. A fresh instance paid for it on its first real charges:
// 200 a second from its first moment, they waited about 200 ms, against 45 ms after thirty
// charges of its own (docs/BENCHMARKS.md, "fresh instance").
//
// So the start-up charges, before the instance serves any request, inside the transaction
// every-connection.ts rolls back: a merchant made in that transaction, seen by nobody else and
// gone with it, charged on the approving test card. Such a merchant has no routing rule and no
// processor account of its own, so the platform's default routes carry the charge: the sandbox
// acquirers, code in this process; no processor is ever called. The breakers that counted these
// charges are then started afresh.

/** A charge as an integrator sends it, on the sandbox acquirers' approving test card. */
function chargeRequest(merchantCode: string): unknown {
  const person = { first_name: 'Warm', last_name: 'Up', email: 'warm-up@example.pe' };
  const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
  return {
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: merchantCode,
    merchant_operation_number: 'warm-up',
    payment_method: {
      method_name: 'CARD',
      method_details: { pan: '4111111111111111', expiry_date: `12${nextYear}`, security_code: '123' },
    },
    payment_details: {
      amount: '15000',
      currency: '604',
      billing: person,
      shipping: person,
      customer: person,
      product_details: [{ sku: 'WARM-UP', name: 'Warm-up', quantity: '1', unit_amount: '15000' }],
    },
  };
}

/**
 * One approved charge, read and written as POST /charges does, inside `tx` (which the caller
 * rolls back). Throws if the charge is not approved: the warm-up then warmed less than it says.
 */
export async function warmCharge(tx: Tx): Promise<void> {
  const code = `WARMUP${randomUUID().slice(0, 8).toUpperCase()}`;
  const merchant = await tx.merchant.create({
    data: { code, name: 'Warm-up', enabledMethods: ['CARD'] },
    select: actingMerchantSelect,
  });
  const body = authorizeChargeInput.parse(chargeRequest(code));
  // The charge path takes the database handle it is given; a transaction serves it as well,
  // and every statement of the path is one the transaction can run.
  const answer = authorizeChargeOutput.parse(await authorizeCharge(tx as unknown as Db, toActingMerchant(merchant), body));
  if (answer.transaction.state !== 'AUTORIZADO') throw new Error(`the warm-up charge was ${answer.transaction.state}`);
}

/** PostgreSQL plans a prepared statement afresh for each of its first five runs: six charges. */
const CHARGES = 6;

/**
 * Charges made and rolled back on every connection of the pool, then the breakers started
 * afresh. Returns how many were approved.
 */
export async function warmChargePath(prisma: Db, connections: number): Promise<number> {
  let approved = 0;
  try {
    await onEveryConnection(prisma, connections, async (tx) => {
      for (let charge = 0; charge < CHARGES; charge += 1) {
        await warmCharge(tx);
        approved += 1;
      }
    });
  } catch (error) {
    // A start that warmed less is slower, not broken: the sandbox acquirers disabled, for one.
    logError('warm-up charges failed', error);
  } finally {
    forgetBreakers();
  }
  return approved;
}
