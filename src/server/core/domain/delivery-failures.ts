// Why a delivery of an event failed, as the service records it (outbox_events.last_error,
// endpoint_deliveries.last_error, callback_destinations.last_error, each attempt's error): one
// builder per kind here, used by the sender, and `deliveryFailureOf` reading them back, so the
// console words each kind in the visitor's language. The stored text stays English: it is what
// the operator's logs and the metrics carry.

export const DELIVERY_FAILURES = {
  resolveTimeout: (host: string, ms: number) => `callback host ${host} did not resolve within ${ms} ms`,
  unresolved: (host: string, code: string) => `callback host ${host} did not resolve (${code})`,
  nonPublic: (address: string) => `callback host resolves to a non-public address (${address})`,
  noAnswer: (ms: number) => `no answer within ${ms} ms`,
  http: (status: number) => `HTTP ${status}`,
  endpointDisabled: () => 'the endpoint was disabled',
  endpointDisabledAfterDays: () => 'the endpoint was disabled after failing for days',
} as const;

export type DeliveryFailureKind = keyof typeof DELIVERY_FAILURES | 'network';

/** A stored failure's kind and its values (host, ms, code, address, status); a network error's own text is its detail. */
export type DeliveryFailure = { kind: DeliveryFailureKind; values: Record<string, string> };

const PATTERNS: [DeliveryFailureKind, RegExp][] = [
  ['resolveTimeout', /^callback host (?<host>\S+) did not resolve within (?<ms>\d+) ms$/],
  ['unresolved', /^callback host (?<host>\S+) did not resolve \((?<code>.*)\)$/],
  ['nonPublic', /^callback host resolves to a non-public address \((?<address>[^)]*)\)$/],
  ['noAnswer', /^no answer within (?<ms>\d+) ms$/],
  ['http', /^HTTP (?<status>\d{3})$/],
  ['endpointDisabled', /^the endpoint was disabled$/],
  ['endpointDisabledAfterDays', /^the endpoint was disabled after failing for days$/],
];

/** What a stored failure text says; a text of no known kind is a network error (its detail as the network library wrote it). */
export function deliveryFailureOf(text: string): DeliveryFailure {
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { kind, values: { host: '', code: '', ...match.groups } };
  }
  return { kind: 'network', values: { detail: text } };
}
