import type { DeclineClass } from '@/server/core/domain/decline-class';

// Mercado Pago's reasons for a rejected payment (its `status_detail`) and the class each means to
// routing (docs/ORCHESTRATION.md 1; the table is docs/processors/mercadopago.md). The values and
// their meaning: mercadopago.com.pe/developers/en/docs/checkout-api/response-handling/query-results
// and the payments API reference (GET /v1/payments/{id}, `status_detail`).

export const MERCADOPAGO_DECLINE_CLASSES: Readonly<Record<string, DeclineClass>> = {
  // Mercado Pago or the issuer could not process it: another processor may approve.
  cc_rejected_card_error: 'technical',
  cc_rejected_time_out: 'technical',
  // The issuer refused this time, or a limit was reached; the payer may try again.
  cc_rejected_insufficient_amount: 'soft',
  cc_rejected_call_for_authorize: 'soft',
  cc_rejected_other_reason: 'soft',
  cc_amount_rate_limit_exceeded: 'soft',
  rejected_by_bank: 'soft',
  bank_rejected: 'soft',
  // The issuer wants the payer authenticated.
  cc_rejected_3ds_mandatory: 'sca_required',
  // The card or its data cannot pay: never try it again elsewhere.
  cc_rejected_bad_filled_card_number: 'hard',
  cc_rejected_bad_filled_date: 'hard',
  cc_rejected_bad_filled_other: 'hard',
  cc_rejected_bad_filled_security_code: 'hard',
  cc_rejected_blacklist: 'hard',
  cc_rejected_card_disabled: 'hard',
  cc_rejected_duplicated_payment: 'hard',
  cc_rejected_high_risk: 'hard',
  cc_rejected_invalid_installments: 'hard',
  cc_rejected_max_attempts: 'hard',
  cc_rejected_card_type_not_allowed: 'hard',
  cc_rejected_3ds_challenge: 'hard',
  cc_rejected_form_error: 'hard',
  cc_unsupported_unsupported: 'hard',
  rejected_by_regulations: 'hard',
  rejected_insufficient_data: 'hard',
};

/** The class of a Mercado Pago rejection; one the table does not know is `hard`, so it is never tried again elsewhere. */
export function mercadoPagoDeclineClass(statusDetail: string): DeclineClass {
  return MERCADOPAGO_DECLINE_CLASSES[statusDetail] ?? 'hard';
}

/** What the payer and the merchant read for a rejection (Mercado Pago gives only the code). */
export const MERCADOPAGO_DECLINE_WORDS: Readonly<Record<string, string>> = {
  cc_rejected_card_error: 'No se pudo procesar el pago',
  cc_rejected_time_out: 'El emisor no respondió a tiempo',
  cc_rejected_insufficient_amount: 'Fondos insuficientes',
  cc_rejected_call_for_authorize: 'El pagador debe autorizar el pago con su banco',
  cc_rejected_other_reason: 'El emisor rechazó el pago',
  cc_amount_rate_limit_exceeded: 'Excede el límite del medio de pago',
  cc_rejected_3ds_mandatory: 'El emisor requiere autenticación 3-D Secure',
  cc_rejected_bad_filled_card_number: 'Número de tarjeta inválido',
  cc_rejected_bad_filled_date: 'Fecha de vencimiento inválida',
  cc_rejected_bad_filled_other: 'Datos de la tarjeta inválidos',
  cc_rejected_bad_filled_security_code: 'Código de seguridad inválido',
  cc_rejected_blacklist: 'Tarjeta no permitida',
  cc_rejected_card_disabled: 'Tarjeta deshabilitada',
  cc_rejected_duplicated_payment: 'Pago duplicado',
  cc_rejected_high_risk: 'Rechazado por prevención de fraude',
  cc_rejected_invalid_installments: 'Cuotas no permitidas para esta tarjeta',
  cc_rejected_max_attempts: 'Se alcanzó el límite de intentos',
};
