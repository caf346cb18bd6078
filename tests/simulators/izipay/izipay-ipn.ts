import { createHmac } from 'node:crypto';
import { postNotification } from '../simulator-http';

// Izipay's IPN (research §7.1): a form POST of kr-hash, kr-hash-algorithm, kr-hash-key,
// kr-answer-type and kr-answer to the payment's `ipnTargetUrl` (else the Back Office rule's URL),
// kr-hash = lower-case hex HMAC-SHA256(REST password, kr-answer) [MCW-ipn]. Izipay retries up to 4
// times at 15-minute slots on an answer outside 200–206/301–303/307/308 [LY-ipn]; the simulator
// makes `attempts` tries `retryDelayMs` apart so tests see retries.

export type IpnDelivery = {
  ipn_id: number;
  uuid: string;
  url: string;
  attempt: number;
  /** The receiver's HTTP status; 0 when nothing answered. */
  status: number;
  kr_hash: string;
  /** A byte-for-byte replay sent by the control API. */
  replay: boolean;
  at: string;
};

type Sent = { url: string; body: string; delivery: IpnDelivery };

/** Statuses Izipay counts as delivered [LY-ipn]. */
const DELIVERED = new Set([200, 201, 202, 203, 204, 205, 206, 301, 302, 303, 307, 308]);

export function krHash(password: string, answer: string): string {
  return createHmac('sha256', password).update(answer, 'utf8').digest('hex');
}

/** The form body of an IPN for `answer` (a V4/Payment), signed with the password. */
export function ipnBody(password: string, answer: string): string {
  return new URLSearchParams({
    'kr-hash': krHash(password, answer),
    'kr-hash-algorithm': 'sha256_hmac',
    'kr-hash-key': 'password',
    'kr-answer-type': 'V4/Payment',
    'kr-answer': answer,
  }).toString();
}

export type IpnSender = {
  send(target: { url: string; password: string; uuid: string; answer: string }): Promise<IpnDelivery[]>;
  replay(ipnId: number): Promise<IpnDelivery | null>;
  log(): IpnDelivery[];
  reset(): void;
};

export function createIpnSender(options: { attempts?: number; retryDelayMs?: number } = {}): IpnSender {
  const attempts = options.attempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const log: IpnDelivery[] = [];
  const sent = new Map<number, Sent>();
  let nextId = 1;
  let generation = 0;
  const post = (url: string, body: string) =>
    postNotification(url, body, { 'content-type': 'application/x-www-form-urlencoded' });

  return {
    async send({ url, password, uuid, answer }) {
      const started = generation;
      const id = nextId++;
      const body = ipnBody(password, answer);
      const hash = krHash(password, answer);
      const deliveries: IpnDelivery[] = [];
      for (let attempt = 1; attempt <= attempts; attempt += 1) {
        const delivery: IpnDelivery = { ipn_id: id, uuid, url, attempt, status: 0, kr_hash: hash, replay: false, at: '' };
        delivery.status = await post(url, body);
        delivery.at = new Date().toISOString();
        if (started !== generation) return deliveries;
        log.push(delivery);
        sent.set(id, { url, body, delivery });
        deliveries.push({ ...delivery });
        if (DELIVERED.has(delivery.status)) break;
        if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
        if (started !== generation) return deliveries;
      }
      return deliveries;
    },
    async replay(ipnId) {
      const previous = sent.get(ipnId);
      if (!previous) return null;
      const attempt = Math.max(...log.filter((each) => each.ipn_id === ipnId).map((each) => each.attempt)) + 1;
      const delivery: IpnDelivery = {
        ...previous.delivery,
        attempt,
        status: await post(previous.url, previous.body),
        replay: true,
        at: new Date().toISOString(),
      };
      log.push(delivery);
      return { ...delivery };
    },
    log: () => log.map((each) => ({ ...each })),
    reset() {
      generation += 1;
      log.length = 0;
      sent.clear();
    },
  };
}
