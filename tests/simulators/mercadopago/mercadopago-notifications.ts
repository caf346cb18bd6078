import { createHmac, randomUUID } from 'node:crypto';
import { postNotification } from '../simulator-http';
import type { Account } from './mercadopago-state';
import { idSequence, mpDate } from './mercadopago-test-data';

// Webhooks for the `payment` topic (research §8): the documented body, `data.id` and `type` in
// the query, `x-request-id` and `x-signature: ts=…,v1=HMAC-SHA256(secret, manifest)`. Mercado
// Pago retries every 15 minutes; the simulator makes 3 attempts 1 s apart so tests see retries.

export type NotificationAction = 'payment.created' | 'payment.updated';

/** One POST of a notification to a receiver (status 0: nothing answered). */
export type NotificationDelivery = {
  notification_id: number;
  payment_id: string;
  action: NotificationAction;
  url: string;
  attempt: number;
  status: number;
  x_request_id: string;
  ts: number;
  /** A replay sent by the control API's resend: the very request of an earlier attempt. */
  replay: boolean;
  at: string;
};

type SentRequest = { url: string; body: string; headers: Record<string, string>; delivery: NotificationDelivery };

export type Notifier = {
  deliver(target: {
    url: string;
    account: Account;
    paymentId: number;
    action: NotificationAction;
  }): Promise<NotificationDelivery[]>;
  resend(notificationId: number): Promise<NotificationDelivery | null>;
  log(): NotificationDelivery[];
  reset(): void;
};

const ATTEMPTS = 3;
const RETRY_DELAY_MS = 1_000;

/** The documented manifest `id:[data.id_url];request-id:[x-request-id_header];ts:[ts_header];`. */
export function signatureManifest(dataId: string, requestId: string, ts: number): string {
  return `id:${dataId};request-id:${requestId};ts:${ts};`;
}

export function signatureHeader(secret: string, dataId: string, requestId: string, ts: number): string {
  const v1 = createHmac('sha256', secret)
    .update(signatureManifest(dataId, requestId, ts))
    .digest('hex');
  return `ts=${ts},v1=${v1}`;
}

/** The receiver's URL with `data.id` and `type=payment` added to whatever query it already has. */
export function notificationTarget(url: string, paymentId: string): string {
  const target = new URL(url);
  target.searchParams.append('data.id', paymentId);
  target.searchParams.append('type', 'payment');
  return target.toString();
}

export function createNotifier(options: { attempts?: number; retryDelayMs?: number } = {}): Notifier {
  const attempts = options.attempts ?? ATTEMPTS;
  const retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
  const log: NotificationDelivery[] = [];
  const lastSent = new Map<number, SentRequest>();
  const nextId = idSequence(24_000_000_000);
  // A reset (or close) starts a new generation: deliveries of the old one stop and log nothing.
  let generation = 0;
  const waiting = new Set<() => void>();

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
    });

  async function send(request: SentRequest): Promise<number> {
    return postNotification(request.url, request.body, request.headers);
  }

  return {
    async deliver({ url, account, paymentId, action }) {
      const started = generation;
      const id = nextId();
      const dataId = String(paymentId);
      const target = notificationTarget(url, dataId);
      const body = JSON.stringify({
        id,
        live_mode: false,
        type: 'payment',
        date_created: mpDate(Date.now()),
        user_id: account.userId,
        api_version: 'v1',
        action,
        data: { id: dataId },
      });
      const deliveries: NotificationDelivery[] = [];
      for (let attempt = 1; attempt <= attempts; attempt += 1) {
        // Each attempt is a new request (its own x-request-id and ts, so a fresh signature);
        // only the control API's resend replays one byte for byte.
        const requestId = randomUUID();
        const ts = Math.floor(Date.now() / 1000);
        const headers: Record<string, string> = { 'x-request-id': requestId };
        if (account.webhookSecret) headers['x-signature'] = signatureHeader(account.webhookSecret, dataId, requestId, ts);
        const delivery: NotificationDelivery = {
          notification_id: id,
          payment_id: dataId,
          action,
          url: target,
          attempt,
          status: 0,
          x_request_id: requestId,
          ts,
          replay: false,
          at: new Date().toISOString(),
        };
        const request = { url: target, body, headers, delivery };
        delivery.status = await send(request);
        if (started !== generation) return deliveries;
        log.push(delivery);
        lastSent.set(id, request);
        deliveries.push({ ...delivery });
        if (delivery.status >= 200 && delivery.status < 300) break;
        if (attempt < attempts) {
          await wait(retryDelayMs);
          if (started !== generation) return deliveries;
        }
      }
      return deliveries;
    },

    async resend(notificationId) {
      const previous = lastSent.get(notificationId);
      if (!previous) return null;
      const started = generation;
      const attempt =
        Math.max(...log.filter((entry) => entry.notification_id === notificationId).map((entry) => entry.attempt)) + 1;
      const delivery: NotificationDelivery = {
        ...previous.delivery,
        attempt,
        status: await send(previous),
        replay: true,
        at: new Date().toISOString(),
      };
      if (started === generation) log.push(delivery);
      return { ...delivery };
    },

    log: () => log.map((entry) => ({ ...entry })),

    reset() {
      generation += 1;
      for (const done of [...waiting]) done();
      log.length = 0;
      lastSent.clear();
    },
  };
}
