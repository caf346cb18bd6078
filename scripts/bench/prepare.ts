import { wallClock } from '@/server/core/domain/business-day';
import { apiHeaders, chargeOnce, CUSTOMER_SCOPES, MERCHANT, operatorConsole, token, type Charged } from '../support/api-client';

// What the benchmark's reads need: one stored transaction, settled payments with refunds, and
// authorizations to capture.

/** How many cards the saved-card runs charge in turn. */
export const SAVED_CARDS = 1_024;

/** `count` card payments to capture later, made 16 at a time: the capture run's paths. */
async function toCapture(origin: string, bearer: string, count: number): Promise<string[]> {
  const paths: string[] = [];
  const worker = async () => {
    while (paths.length < count) {
      const placeholder = paths.push('') - 1;
      const { number } = await chargeOnce(origin, bearer, 'capture', { capture: 'manual' });
      paths[placeholder] = `/api/charges/${MERCHANT}/${number}/capture`;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return paths;
}

/**
 * `count` customers of the demo merchant, each with a card saved without a payment (verified for
 * zero, RECURRING, a consent covering the benchmark's charges), saved 16 at a time: the
 * saved-card runs' card ids. Enough that each card is charged a few times in a run, as a
 * merchant's charges spread over its customers' cards: with 64, charged 400 times a second in all,
 * each card's row was updated six times a second, as no card's is in production.
 */
export async function savedCards(origin: string, count: number): Promise<string[]> {
  const bearer = await token(origin, undefined, origin, CUSTOMER_SCOPES);
  const run = Date.now().toString(36);
  const cards: string[] = [];
  let next = 0;
  const saveOne = async (index: number) => {
    const made = await fetch(`${origin}/api/customers`, {
      method: 'POST',
      headers: apiHeaders(bearer),
      body: JSON.stringify({ merchant_code: MERCHANT, merchant_customer_id: `bench-${run}-${index}`, email: 'bench@example.pe' }),
    });
    if (!made.ok) throw new Error(`customer: ${made.status} ${await made.text()}`);
    const { customer } = (await made.json()) as { customer: { customer_id: string } };
    const saved = await fetch(`${origin}/api/customers/${MERCHANT}/${customer.customer_id}/cards`, {
      method: 'POST',
      headers: apiHeaders(bearer),
      body: JSON.stringify({
        pan: '4111111111111111',
        expiry_date: '1230',
        security_code: '123',
        reason: 'RECURRING',
        consent: { accepted_at: new Date().toISOString(), terms_version: 'bench', max_amount: '100000000' },
      }),
    });
    if (!saved.ok) throw new Error(`saved card: ${saved.status} ${await saved.text()}`);
    cards[index] = ((await saved.json()) as { card: { card_id: string } }).card.card_id;
  };
  const worker = async () => {
    while (next < count) await saveOne(next++);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return cards;
}

/**
 * Warms the service up with `count` charges, settles them and refunds `refunds` of them, and
 * authorizes `captures` more to be captured later.
 */
export async function prepare(
  origin: string,
  serviceFile: string,
  bearer: string,
  { count, refunds, captures }: { count: number; refunds: number; captures: number },
) {
  const charged: Charged[] = [];
  for (let index = 0; index < count; index += 1) charged.push(await chargeOnce(origin, bearer, 'warm'));
  await operatorConsole(origin, serviceFile).platform.settleNow.mutate({ merchantCode: MERCHANT });
  const items = charged.slice(0, refunds).map((each) => ({
    type: 'TOTAL',
    merchant_operation_number: each.number,
    transaction_id: each.transactionId,
    refund_amount: '15000',
    additional_fields: { canal: 'web', reason: 'benchmark', description: 'benchmark refund' },
  }));
  const refunded = await fetch(`${origin}/api/refund`, {
    method: 'POST',
    headers: apiHeaders(bearer),
    body: JSON.stringify({ merchant_code: MERCHANT, operations: items }),
  });
  if (!refunded.ok) throw new Error(`refund: ${refunded.status} ${await refunded.text()}`);
  // The filter's dates are the merchant's business days (America/Lima unless configured), not UTC's.
  const today = wallClock('sv-SE', process.env.BUSINESS_TIME_ZONE ?? 'America/Lima')
    .format(new Date())
    .slice(0, 10);
  const refundPath = `/api/refund?merchant_code=${MERCHANT}&state=REGISTERED&start_date=${today}&end_date=${today}`;
  // The page measured must hold every refund: an empty one (the refunds gone on to IN_PROCESS)
  // would measure nothing.
  const page = (await (await fetch(`${origin}${refundPath}`, { headers: apiHeaders(bearer) })).json()) as {
    operations?: unknown[];
  };
  if (page.operations?.length !== refunds) throw new Error(`refund page: ${page.operations?.length ?? 0} of ${refunds} refunds`);
  return {
    transactionPath: `/api/charges/${MERCHANT}/${charged[0]!.number}/${charged[0]!.transactionId}`,
    refundPath,
    capturePaths: await toCapture(origin, bearer, captures),
    savedCards: await savedCards(origin, SAVED_CARDS),
  };
}
