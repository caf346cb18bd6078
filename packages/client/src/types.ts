import type { components, operations } from './openapi.js';

// Names for the generated types (src/openapi.ts): what the client's methods take and return.

type Schemas = components['schemas'];
type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathParams<O> = O extends { parameters: { path: infer P } } ? P : never;

export type ChargeRequest = JsonBody<operations['authorizeCharge']>;
export type PaymentMethod = ChargeRequest['payment_method'];
export type MethodName = PaymentMethod['method_name'];
export type ChargeResponse = Schemas['ChargeResponse'];
export type Transaction = Schemas['Transaction'];

export type TransactionRef = PathParams<operations['getTransaction']>;
export type TransactionQueryResponse = Schemas['TransactionQueryResponse'];
export type OperationRef = PathParams<operations['cancelOperation']>;
export type CancellationResponse = Schemas['CancellationResponse'];

export type RefundRequest = JsonBody<operations['requestRefunds']>;
/** The body of a capture: `amount` (cents) of the authorization, or nothing for all of it. */
export type CaptureRequest = NonNullable<operations['capturePayment']['requestBody']>['content']['application/json'];
export type RefundCreateResponse = Schemas['RefundCreateResponse'];
export type Refund = Schemas['Refund'];
export type RefundQuery = Query<operations['listRefunds']>;
export type RefundListResponse = Schemas['RefundListResponse'];

export type EventQuery = Query<operations['listEvents']>;
export type EventListResponse = Schemas['EventListResponse'];
export type PayEvent = EventListResponse['events'][number];

export type CustomerRequest = JsonBody<operations['createCustomer']>;
export type Customer = Schemas['Customer'];
export type CustomerRef = PathParams<operations['getCustomer']>;
export type CardRef = PathParams<operations['removeCard']>;
/** The card and its consent, saved without a payment (the path's merchant code and customer apart). */
export type CardToSave = JsonBody<operations['saveCard']>;
export type SavedCard = Schemas['SavedCard'];

/** What a callback URL or a webhook endpoint receives (the document's `webhooks`). */
export type WebhookMessage = Schemas['WebhookMessage'];
export type TransactionEvent = Schemas['TransactionEvent'];
export type RefundEvent = Schemas['RefundEvent'];
export type CardEvent = Schemas['CardEvent'];
export type WebhookTest = Schemas['WebhookTest'];

/** The error envelope of every failed call (`success` is "false" or false by endpoint). */
export type ErrorEnvelope = Schemas['ErrorString'] | Schemas['ErrorBoolean'];
export type FieldError = ErrorEnvelope['errors'][number];
export type LocalizedMessage = Schemas['Meta']['status']['message_ilgn'][number];

/** The token endpoint's 200 body. */
export type TokenResponse = operations['generateAccessToken']['responses'][200]['content']['application/json'];
