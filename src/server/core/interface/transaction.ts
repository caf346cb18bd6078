import { z } from 'zod';
import { TRANSACTION_STATES } from '@/server/core/domain/states';
import { centsText, currencyText, lifecycleEntry, metaStatus, timeObject } from './common';

// Response shapes of docs/interface.md 2.5-2.9.
const transactionState = z.string().meta({ enum: [...TRANSACTION_STATES] });
const methodName = z.enum(['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR']);

const methodDetailsResponse = z
  .object({
    masked_pan: z.string().optional(),
    brand: z.string().optional(),
    bin: z.string().optional(),
    last_pan: z.string().optional(),
    card_type: z.string().optional(),
    card_country: z.string().optional(),
    issuer: z.string().optional(),
    installments: z.object({ plan: z.string(), installment_number: z.string() }).optional(),
    phone: z.object({ country_code: z.string(), subscriber: z.string() }).optional(),
    redirect_url: z.string().optional(),
    callback_url: z.string().optional(),
  })
  .meta({ id: 'MethodDetails' });

export const processorResponse = z
  .object({
    authorization_code: z.string().optional(),
    brand_transaction_id: z.string().optional(),
    cip: z.string().optional(),
    cip_url: z.string().optional(),
    qr_image: z.string().optional(),
    qr_id: z.string().optional(),
    date: z.string().optional(),
    qr_payload: z
      .string()
      .optional()
      .meta({ description: 'QR: the EMVCo merchant-presented payload qr_image draws, for a merchant that draws its own code' }),
    origin_account: z.string().optional(),
    request_id: z.string().optional(),
    operation_id: z.string().optional(),
    credit_status: z.string().optional(),
    payment_date: z.string().optional(),
    operationNumber: z.string().optional(),
    reverse_date: z.string().optional(),
    reverse_code: z.string().optional(),
    result_message: z.object({ code: z.string(), description: z.string() }),
  })
  .meta({ id: 'ProcessorResponse' });

/** What the service notes on each attempt (docs/ORCHESTRATION.md 3, 5); other members may follow. */
const additionalFields = z
  .object({
    processor: z.string().optional().meta({ description: 'The connector that carried this attempt, e.g. sandbox-acquirer-a' }),
    attempt: z.number().int().min(1).optional().meta({ description: "The attempt's number in its operation: 1, 2, …" }),
    installments: z.string().optional().meta({ description: 'CUOTEALO: the instalments the payer chose' }),
    three_ds: z
      .object({
        version: z.string(),
        status: z.string().meta({ enum: ['Y', 'A', 'N', 'U', 'C'] }),
        eci: z.string(),
        challenged: z.boolean(),
      })
      .optional()
      .meta({ description: 'CARD: the 3-D Secure result (never the authentication value)' }),
    capture: z
      .object({
        mode: z.literal('MANUAL'),
        status: z.string().meta({
          enum: ['UNCAPTURED', 'CAPTURING', 'CAPTURED'],
          description: 'CAPTURING: asked of the processor and not confirmed yet',
        }),
        capturable_amount: z.string().meta({ pattern: '^(0|[1-9][0-9]{0,11})$', description: 'What may still be captured' }),
        captured_amount: centsText.nullable(),
        capture_before: timeObject.meta({ description: 'Uncaptured by then, the authorization is voided (EXTORNADO)' }),
      })
      .optional()
      .meta({ description: 'CARD authorized to be captured later (`method_details.capture` manual, or the merchant’s setting)' }),
    sandbox: z
      .object({ pay_url: z.string().meta({ description: 'The page that simulates the payer paying the QR' }) })
      .optional()
      .meta({ description: 'QR at the sandbox processor only: no app can pay its code' }),
  })
  .catchall(z.unknown())
  .meta({ id: 'AdditionalFields' });

export const transactionObject = z
  .object({
    transaction_id: z.string(),
    channel: z.literal('ecommerce'),
    state: transactionState,
    state_reason: z.string().optional(),
    continue_url: z.string().optional(),
    amount: centsText,
    currency: currencyText,
    payment_method: z.object({ method_name: methodName, method_details: methodDetailsResponse.optional() }),
    expiration_date: timeObject.nullable().optional(),
    processor_response: processorResponse.nullable().optional(),
    additional_fields: additionalFields.nullable().optional(),
    lifecycle: z.array(lifecycleEntry(TRANSACTION_STATES)),
  })
  .meta({ id: 'Transaction' });

export const chargeResponse = z
  .object({
    success: z.literal('true'),
    action: z.string(),
    merchant_code: z.string(),
    merchant_operation_number: z.string(),
    transaction: transactionObject,
    meta: metaStatus.optional(),
  })
  .meta({ id: 'ChargeResponse' });

const operationBase = {
  merchant_operation_number: z.string(),
  state: transactionState,
  amount: centsText,
  currency: currencyText,
  transactions: z.array(transactionObject),
};

export const transactionQueryResponse = z
  .object({
    success: z.literal(true),
    merchant_code: z.string(),
    operation: z.object(operationBase),
    meta: metaStatus,
  })
  .meta({ id: 'TransactionQueryResponse' });

export const cancellationResponse = z
  .object({
    success: z.literal(true),
    merchant_code: z.string(),
    merchant_operation_number: z.string(),
    operation: z.object({ ...operationBase, created_at: timeObject }),
    meta: metaStatus,
  })
  .meta({ id: 'CancellationResponse' });

export type TransactionObject = z.infer<typeof transactionObject>;
export type ChargeResponse = z.infer<typeof chargeResponse>;
