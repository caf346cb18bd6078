import type { DeclineClass } from '@/server/core/domain/decline-class';

// Culqi's decline codes (a charge's 402 `card_error`, its `decline_code`) and the class each
// means to routing (docs/ORCHESTRATION.md 1; the table is docs/processors/culqi.md). The codes
// and their meaning: apidocs.culqi.com "Códigos de denegación de bancos" and the official
// libraries' error list (github.com/culqi/culqi-python culqi/utils/errors.py).

export const CULQI_DECLINE_CLASSES: Readonly<Record<string, DeclineClass>> = {
  // The issuer did not answer, or Culqi failed while processing: another processor may approve.
  issuer_not_available: 'technical',
  processing_error: 'technical',
  // The issuer refused this time; the payer may try again, or another processor may approve.
  insufficient_funds: 'soft',
  contact_issuer: 'soft',
  issuer_decline_operation: 'soft',
  // The card itself cannot pay: never try it again elsewhere.
  expired_card: 'hard',
  stolen_card: 'hard',
  lost_card: 'hard',
  invalid_cvv: 'hard',
  incorrect_cvv: 'hard',
  too_many_attempts_cvv: 'hard',
  invalid_card: 'hard',
  fraudulent: 'hard',
  culqi_card: 'hard',
  soft_block: 'hard',
  // Not a decline code: the charge's 200 `action_code: REVIEW`, Culqi's demand for 3-D Secure
  // (docs.culqi.com/es/documentacion/culqi-3ds/flujo-con-3ds).
  REVIEW: 'sca_required',
};

/** The class of a Culqi decline code; one the table does not know is `hard`, so it is never tried again elsewhere. */
export function culqiDeclineClass(code: string): DeclineClass {
  return CULQI_DECLINE_CLASSES[code] ?? 'hard';
}
