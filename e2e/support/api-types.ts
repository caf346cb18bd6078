import type { z } from 'zod';
import type { lifecycleEntry, metaStatus, timeObject } from '@/server/core/interface/common';
import type { refundCreateResponse, refundListResponse, refundObject } from '@/server/core/interface/refund';
import type {
  cancellationResponse,
  chargeResponse,
  transactionObject,
  transactionQueryResponse,
} from '@/server/core/interface/transaction';

// The merchant API's answers as the service's own response schemas declare them (type imports
// only: the suites still read the bytes the service sends, and assert on those).

export type TimeObject = z.output<typeof timeObject>;
export type LifecycleEntry = z.output<ReturnType<typeof lifecycleEntry>>;
export type Meta = z.output<typeof metaStatus>;
export type TransactionObject = z.output<typeof transactionObject>;
export type ChargeReply = z.output<typeof chargeResponse>;
export type QueryReply = z.output<typeof transactionQueryResponse>;
export type OperationObject = QueryReply['operation'];
export type CancelReply = z.output<typeof cancellationResponse>;
export type RefundObject = z.output<typeof refundObject>;
export type RefundReply = z.output<typeof refundCreateResponse>;
export type RefundList = z.output<typeof refundListResponse>;

/** The error envelope of docs/DESIGN.md 4. */
export type ErrorReply = {
  success: string | boolean;
  meta: Meta;
  errors: { field?: string; code: string; message: string }[];
};

/** An answer read whole: its status, its body parsed as JSON, and the text (for failure messages). */
export type Reply<T> = { status: number; body: T; text: string };
