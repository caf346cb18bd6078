// The payments module as the rest of the service sees it: the registry and the connector
// interface's types. Nothing outside payments/ imports a connector (eslint.config.mjs enforces it).
export { connectorFor } from './registry';
export { transactionReference, type StoredTransaction } from './transaction-reference';
export type * from './connector';
export type { DeclineClass } from './decline-class';
// Seeded rows copy the sandbox's words for an approval.
export { APPROVED_STATE_REASON } from './sandbox/card-outcome';
