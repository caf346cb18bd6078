import { expect, test } from '../support/contract';
import { chargeBody, operationNumber, postCharge } from '../support/api-client';
import { connectMercadoPago, MERCADOPAGO_SIMULATOR, routeTo, simulatorControl } from '../support/processors';
import pg from 'pg';
import { newActor, stored } from './charges-helpers';
import { METRICS_TOKEN, metricValue } from '../support/service';

// Issue 48: real processors take a second, and a charge waiting on one is not a queue of the
// service's. With a processor that answers every call after 700 ms, a burst of charges is admitted
// whole (admission reads the event loop, the database's queue and memory, not requests in flight)
// and every one is approved there, once.

const PROCESSOR_DELAY_MS = 700;
const AT_ONCE = 64;

test(`${AT_ONCE} card charges at once through a processor that answers in ${PROCESSOR_DELAY_MS} ms: all admitted and approved, one attempt each`, async ({
  request,
}) => {
  test.setTimeout(90_000);
  const { merchant, token } = await newActor(request, 'SLW');
  const { account, keys } = await connectMercadoPago(merchant.code, ['CARD']);
  await routeTo(merchant.code, 'CARD', [account.connectorId]);
  await simulatorControl(MERCADOPAGO_SIMULATOR, 'mode', { mode: 'slow', key: keys.secretKey, delay_ms: PROCESSOR_DELAY_MS });
  try {
    const numbers = Array.from({ length: AT_ONCE }, (_, index) => operationNumber(`slw${index}`));
    const started = Date.now();
    const answers = await Promise.all(
      numbers.map((number) => postCharge(request, token, chargeBody(merchant.code, number, 'CARD'))),
    );
    const tookMs = Date.now() - started;

    expect(
      answers.map((answer) => answer.status),
      answers.find((answer) => answer.status !== 200)?.text,
    ).toEqual(numbers.map(() => 200));
    expect(answers.map((answer) => [answer.body.transaction.state, answer.body.transaction.additional_fields?.attempt])).toEqual(
      numbers.map(() => ['AUTORIZADO', 1]),
    );
    // Each one waited on the processor (it did not answer from anywhere else), and they waited together.
    expect(tookMs).toBeGreaterThanOrEqual(PROCESSOR_DELAY_MS);
    const payments = await simulatorControl<{ external_reference: string }[]>(MERCADOPAGO_SIMULATOR, 'payments');
    const ids = new Set(answers.map((answer) => answer.body.transaction.transaction_id));
    expect(payments.filter((payment) => ids.has(payment.external_reference))).toHaveLength(AT_ONCE);

    const rows = await stored(merchant.code, numbers[0]!);
    expect(rows.transactions.map((row) => [row.attempt, row.state, row.connectorId])).toEqual([
      [1, 'AUTORIZADO', account.connectorId],
    ]);
  } finally {
    await simulatorControl(MERCADOPAGO_SIMULATOR, 'mode', { mode: 'normal', key: keys.secretKey });
  }
});

/** A charge sent as the SDK sends it: once more after Retry-After when admission answers 503 code 02. */
async function chargeRetried(request: Parameters<typeof postCharge>[0], token: string, body: object) {
  for (;;) {
    const answer = await postCharge(request, token, body);
    if (answer.status !== 503) return answer;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

test('hundreds of charges waiting on their processor hold no database connection', async ({ request }) => {
  // On PostgreSQL the pool's connections in use and the sessions idle in a transaction say it;
  // on the embedded database (one connection) a held one would stop every other statement, so
  // the database's queue says it.
  const databaseUrl = process.env.E2E_DATABASE_URL || null;
  test.setTimeout(120_000);
  const { merchant, token } = await newActor(request, 'SLP');
  const { account, keys } = await connectMercadoPago(merchant.code, ['CARD']);
  await routeTo(merchant.code, 'CARD', [account.connectorId]);
  await simulatorControl(MERCADOPAGO_SIMULATOR, 'mode', { mode: 'slow', key: keys.secretKey, delay_ms: PROCESSOR_DELAY_MS });
  const database = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
  await database?.connect();
  try {
    // 300 charges over 1.5 s: each waits about 1.4 s on Mercado Pago (a card token, then the
    // payment), so about 300 are in flight together.
    const sending = Array.from({ length: 300 }, async (_, index) => {
      await new Promise((resolve) => setTimeout(resolve, index * 5));
      return chargeRetried(request, token, chargeBody(merchant.code, operationNumber(`slp${index}`), 'CARD'));
    });
    const samples: { inUse: number; inTransaction: number; databaseWaitMs: number }[] = [];
    const sampling = (async () => {
      for (let index = 0; index < 12; index += 1) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        const metrics = await (
          await request.get('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        ).text();
        // Both series read as 0 when absent: the metrics must have them.
        expect(metrics).toContain('pay_service_queue_delay_seconds{queue="database"} ');
        if (database) expect(metrics).toContain('pay_db_connections_in_use ');
        const sessions = await database?.query<{ in_transaction: string }>(
          `SELECT count(*) FILTER (WHERE state LIKE 'idle in transaction%') AS in_transaction
             FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        samples.push({
          inUse: metricValue(metrics, 'pay_db_connections_in_use'),
          inTransaction: Number(sessions?.rows[0]?.in_transaction ?? 0),
          databaseWaitMs: 1000 * metricValue(metrics, 'pay_service_queue_delay_seconds{queue="database"}'),
        });
      }
    })();
    const [answers] = await Promise.all([Promise.all(sending), sampling]);
    expect(answers.filter((answer) => answer.status !== 200 || answer.body.transaction.state !== 'AUTORIZADO')).toEqual([]);
    if (database) {
      // The service's pool has 20 connections (the asynchronous suite's service and the worker
      // have pools of their own): none is held through a processor's answer, so while about 300
      // charges wait on theirs, only statements being run hold one.
      expect(Math.max(...samples.map((sample) => sample.inUse))).toBeLessThanOrEqual(20);
      expect(Math.min(...samples.map((sample) => sample.inUse))).toBeLessThanOrEqual(4);
      expect(samples.filter((sample) => sample.inTransaction > 5)).toEqual([]);
    }
    // A connection held through a 1.4 s answer would make every other statement wait that long.
    expect(Math.min(...samples.map((sample) => sample.databaseWaitMs))).toBeLessThan(100);
  } finally {
    await database?.end();
    await simulatorControl(MERCADOPAGO_SIMULATOR, 'mode', { mode: 'normal', key: keys.secretKey });
  }
});
