import { randomUUID } from 'node:crypto';

// The instance's own requests at start (startup/warm-up.ts): each is refused on purpose (no
// credential, a wrong one), and a log of them reads as errors to whoever starts the service. They
// carry this request id, random per process (one value for every module instance: the slot is
// global), so a client cannot hide its own requests from the log by sending it.
const slot = globalThis as typeof globalThis & { __paySelfCheckId?: string };

export function selfCheckRequestId(): string {
  slot.__paySelfCheckId ??= `self-check-${randomUUID()}`;
  return slot.__paySelfCheckId;
}

export function isSelfCheck(requestId: string | null): boolean {
  return requestId !== null && requestId === slot.__paySelfCheckId;
}
