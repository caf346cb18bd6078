// @pay/client: the typed SDK of the payment orchestration API.
export {
  API_VERSION,
  createPayClient,
  type CallOptions,
  type IdempotentCallOptions,
  type PayClient,
  type PayClientOptions,
} from './client.js';
export { verifyCallbackSignature, type CallbackKeys, type PublicKey } from './callbacks.js';
export { fetchCallbackPublicKey } from './callback-keys.js';
export {
  PayApiError,
  PayAuthenticationError,
  PayConflictError,
  PayIdempotencyError,
  PayInvalidRequestError,
  PayNetworkError,
  PayPermissionError,
  PayRateLimitError,
} from './errors.js';
export { constructEvent, PayWebhookSignatureError, webhooks, type WebhookHeaders } from './webhooks.js';
export { DEFAULT_RETRY, RETRYABLE_STATUSES, type RetryOptions } from './retry.js';
export type { FetchLike, RetryEvent } from './transport.js';
export type * from './types.js';
export type { components, operations, paths } from './openapi.js';
