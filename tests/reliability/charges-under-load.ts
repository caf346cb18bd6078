import { chargeBody, type operatorClient, apiHeaders } from '../../scripts/support/api-client';

// Charges sent by clients while a fault strikes the service, and what became of each: the fault
// suites (kill -9, a stop) read every charge back from the restarted service.
export type Outcome = { answered: string[]; lost: string[]; refused: number };

export async function load(origin: string, bearer: string, run: string, outcome: Outcome, stop: { now: boolean }) {
  while (!stop.now) {
    const body = chargeBody(run);
    const number = (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number;
    try {
      const response = await fetch(`${origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body });
      await response.arrayBuffer();
      if (response.status === 200) outcome.answered.push(number);
      else outcome.refused += 1;
    } catch {
      outcome.lost.push(number);
      return;
    }
  }
}

type Stored = 'whole' | 'absent' | 'claimed' | 'declined' | 'partial';

async function storedWhole(operator: ReturnType<typeof operatorClient>, number: string): Promise<Stored> {
  let stored: Record<string, unknown>;
  try {
    stored = await operator.inspectOperation.query({ merchantCode: 'DEMO001', merchantOperationNumber: number });
  } catch (error) {
    if (String(error).includes('no such operation') || (error as { data?: { httpStatus?: number } }).data?.httpStatus === 404)
      return 'absent';
    throw error;
  }
  const transactions = stored.transactions as { state: string; statusCheckAt: string | null; lifecycle: { state: string }[] }[];
  const events = stored.events as unknown[];
  const claimed =
    transactions.length === 1 &&
    transactions[0]!.state === 'REGISTRADO' &&
    transactions[0]!.statusCheckAt !== null &&
    transactions[0]!.lifecycle.map((entry) => entry.state).join() === 'REGISTRADO' &&
    events.length === 1;
  if (claimed) return 'claimed';
  // A claimed charge the status sync settled after a restart: the processor never had it.
  const declined =
    transactions.length === 1 &&
    transactions[0]!.state === 'DENEGADO' &&
    transactions[0]!.lifecycle.map((entry) => entry.state).join() === 'REGISTRADO,PENDIENTE,DENEGADO' &&
    events.length === 3;
  if (declined) return 'declined';
  const whole =
    transactions.length === 1 &&
    transactions[0]!.state === 'AUTORIZADO' &&
    transactions[0]!.lifecycle.map((entry) => entry.state).join() === 'REGISTRADO,PENDIENTE,AUTORIZADO' &&
    events.length === 3;
  return whole ? 'whole' : 'partial';
}

/** How each charge the clients answered and lost is stored now, counted by kind. */
export async function storedOutcomes(operator: ReturnType<typeof operatorClient>, outcome: Outcome) {
  const tally = async (numbers: string[]) => {
    const counts: Record<Stored, number> = { whole: 0, absent: 0, claimed: 0, declined: 0, partial: 0 };
    for (const number of numbers) counts[await storedWhole(operator, number)] += 1;
    return counts;
  };
  return { answered: await tally(outcome.answered), lost: await tally(outcome.lost) };
}

/**
 * A charge as a well-behaved client sends it: a 503 with code 02 (admission control refusing it
 * at once on a machine too busy to serve it in time: docs/DECISIONS.md, "Overload") did nothing,
 * and is sent again after its Retry-After, as the SDK does.
 */
export async function postCharge(origin: string, bearer: string, body: string) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body });
    const answer = (await response.json()) as { meta?: { status?: { code?: string } }; transaction?: { transaction_id: string } };
    if (response.status === 503 && answer.meta?.status?.code === '02' && attempt < 5) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
      continue;
    }
    return { status: response.status, body: answer };
  }
}

/** The sandbox card acquirer A approves only after its timeout (then its status inquiry says so). */
export const LATE_CARD = '4000000000008021';

/** One charge on LATE_CARD from each of `clients` clients at once, each counted answered or lost. */
export function lateCharges(
  origin: string,
  bearer: string,
  run: string,
  outcome: Outcome,
  { clients, signal }: { clients: number; signal?: AbortSignal },
): Promise<void>[] {
  return Array.from({ length: clients }, async () => {
    const body = chargeBody(run, { pan: LATE_CARD });
    const number = (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number;
    try {
      const response = await fetch(`${origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body, signal });
      await response.arrayBuffer();
      outcome.answered.push(number);
    } catch {
      outcome.lost.push(number);
    }
  });
}
