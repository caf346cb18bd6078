// Culqi's published test data (research/culqi.md 4.4, 4.5): which card number leads to which
// answer, the messages Culqi's test environment answered for each decline, and the card facts a
// token shows (brand, issuer, installments). Kept apart from the HTTP code so the README and the
// tests can point at one table.

export type DeclineCode =
  | 'stolen_card'
  | 'lost_card'
  | 'insufficient_funds'
  | 'contact_issuer'
  | 'incorrect_cvv'
  | 'issuer_not_available'
  | 'issuer_decline_operation'
  | 'invalid_card'
  | 'processing_error'
  | 'fraudulent';

export type DeclineMessages = { merchant_message: string; user_message: string };

const ISSUER_DECLINED_USER =
  'La operación ha sido denegada por la entidad emisora de tu tarjeta. Contáctate con el banco para conocer el motivo de la denegación o intenta nuevamente con otra tarjeta.';

/** The texts Culqi's test environment answered (py-cass, May 2020); `fraudulent` was never recorded. */
export const DECLINE_MESSAGES: Record<DeclineCode, DeclineMessages> = {
  stolen_card: {
    merchant_message: 'Tarjeta robada. La tarjeta fue bloqueada y reportada al banco emisor como una tarjeta robada.',
    // Culqi's own copy mismatch (an expired-card text for a stolen card), kept as recorded.
    user_message:
      'Su tarjeta está vencida. Verifica la fecha de vencimiento de tu tarjeta e ingrésalos correctamente. Si es denegada nuevamente, contáctate con el banco emisor de tu tarjeta.',
  },
  lost_card: {
    merchant_message: 'Tarjeta perdida. La tarjeta fue bloqueada y reportada al banco emisor como una tarjeta perdida.',
    user_message:
      'La operación ha sido denegada por la entidad emisora de tu tarjeta. Contáctate con el banco para conocer el motivo de la denegación.',
  },
  insufficient_funds: {
    merchant_message: 'Fondos insuficientes. La tarjeta no tiene fondos suficientes para realizar la compra.',
    user_message:
      'Su tarjeta no tiene fondos suficientes. Para realizar la compra, verifica tus fondos disponibles con el banco emisor o inténta nuevamente con otra tarjeta.',
  },
  contact_issuer: {
    merchant_message:
      'Contactar emisor. La operación fue denegada por el banco emisor de la tarjeta y el cliente necesita contactarse con la entidad para conocer el motivo.',
    user_message: ISSUER_DECLINED_USER,
  },
  incorrect_cvv: {
    merchant_message: 'CVV incorrecto. El código de seguridad (CVV2, CVC2, CID) de la tarjeta es incorrecto.',
    user_message:
      'El código de seguridad (CVV) es incorrecto. Verifica tu tarjeta e ingresa los dígitos correctamente. Si es denegada nuevamente, contáctate con el banco emisor de tu tarjeta.',
  },
  issuer_not_available: {
    merchant_message:
      'Emisor no disponible. El banco que emitió la tarjeta no responde. El cliente debe realizar el pago nuevamente.',
    user_message:
      'El banco emisor de tu tarjeta no responde y la operación no pudo ser completada. Vuelve a realizar el pago en unos minutos o intenta nuevamente con otra tarjeta.',
  },
  issuer_decline_operation: {
    merchant_message:
      'Operación denegada. La operación fue denegada por el banco emisor de la tarjeta por una razón desconocida.',
    user_message: ISSUER_DECLINED_USER,
  },
  invalid_card: {
    merchant_message:
      'Tarjeta inválida. La tarjeta utilizada tiene restricciones para este tipo de compras. El cliente necesita contactarse con el banco emisor para conocer el motivo de la denegación.',
    user_message: ISSUER_DECLINED_USER,
  },
  processing_error: {
    merchant_message:
      'Error de procesamiento. Ocurrió un error mientras procesabamos la compra. Contáctate con culqi.com/soporte para que te demos una solución.',
    user_message:
      'Ocurrió un error mientras procesabamos tu compra. Contáctate con culqi.com/soporte para que te demos una solución.',
  },
  // Not recorded: written after the meaning Culqi's decline table gives (research 4.3).
  fraudulent: {
    merchant_message: 'Operación fraudulenta. El banco emisor sospecha que se trata de una compra fraudulenta.',
    user_message: ISSUER_DECLINED_USER,
  },
};

/** Culqi's Yape decline over the S/ 500 daily e-commerce limit (research 8): its text is ours. */
export const YAPE_LIMIT_MESSAGES: DeclineMessages = {
  merchant_message: 'Fondos insuficientes. El monto supera el límite diario de Yape para compras por internet (S/ 500).',
  user_message: 'El monto supera el límite diario de Yape para compras por internet (S/ 500). Intenta con otro medio de pago.',
};

export const YAPE_DAILY_LIMIT = 50_000;

export const APPROVED_OUTCOME = {
  type: 'venta_exitosa',
  code: 'AUT0000',
  merchant_message: 'La operación de venta ha sido autorizada exitosamente',
  user_message: 'Su compra ha sido exitosa.',
} as const;

/** Only the keys are confirmed (research 3.2); the text is the one third-party code quotes. */
export const REVIEW_USER_MESSAGE = 'El usuario necesita autenticarse';

/** The test cards whose charge Culqi declines (research 4.5), by card number. */
export const DECLINE_CARDS: Record<string, DeclineCode> = {
  '4000020000000000': 'stolen_card',
  '4000030000000009': 'lost_card',
  '4000040000000008': 'insufficient_funds',
  '5400000000000005': 'contact_issuer',
  '5400020000000003': 'incorrect_cvv',
  '370001000000000': 'issuer_not_available',
  '370002000000008': 'issuer_decline_operation',
  '36000000000008': 'invalid_card',
  '36000100000007': 'processing_error',
  '36000200000006': 'fraudulent',
};

/**
 * The 3-D Secure test cards (research 4.5): each passes or fails authentication; a failing one
 * still declines once the merchant retries with `authentication_3DS`. The decline codes for the
 * two failures are the simulator's choice (the docs only say "time-out" and "authentication error").
 */
export const THREE_DS_CARDS: Record<string, DeclineCode | null> = {
  '4456530000001096': null,
  '4456530000001005': null,
  '4456530000001070': 'issuer_not_available',
  '4456530000001013': 'issuer_decline_operation',
};

export type CardDecision =
  { kind: 'approve' } | { kind: 'decline'; declineCode: DeclineCode } | { kind: 'three_ds'; failure: DeclineCode | null };

export function decideCard(cardNumber: string): CardDecision {
  const declineCode = DECLINE_CARDS[cardNumber];
  if (declineCode) return { kind: 'decline', declineCode };
  if (cardNumber in THREE_DS_CARDS) return { kind: 'three_ds', failure: THREE_DS_CARDS[cardNumber] ?? null };
  return { kind: 'approve' };
}

/**
 * The email Culqi documents for its 3-D Secure test cards: "Si es la primera vez que integras tu
 * comercio, utiliza el correo review@culqi.com y las siguientes tarjetas de prueba"
 * (docs.culqi.com/es/documentacion/pagos-online/tarjetas-de-prueba, "Casos de autenticación 3DS").
 * Only that address: other review… addresses are not documented.
 */
export const REVIEW_EMAIL = 'review@culqi.com';
export const isReviewEmail = (email: string): boolean => email.trim().toLowerCase() === REVIEW_EMAIL;

export function luhnValid(cardNumber: string): boolean {
  let sum = 0;
  for (let index = 0; index < cardNumber.length; index += 1) {
    let digit = Number(cardNumber[cardNumber.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type CardBrand = 'Visa' | 'MasterCard' | 'Amex' | 'Diners';

export function brandOf(cardNumber: string): CardBrand | null {
  const two = Number(cardNumber.slice(0, 2));
  const three = Number(cardNumber.slice(0, 3));
  const four = Number(cardNumber.slice(0, 4));
  if (cardNumber.startsWith('4')) return 'Visa';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MasterCard';
  if (two === 34 || two === 37) return 'Amex';
  if (two === 36 || two === 38 || two === 39 || (three >= 300 && three <= 305)) return 'Diners';
  return null;
}

/** As recorded for Visa 411111 (research 2.1); Amex and Diners test cards showed []. */
export function installmentsAllowed(brand: CardBrand): number[] {
  return brand === 'Visa' || brand === 'MasterCard' ? [2, 4, 6, 8, 10, 12, 3, 5, 7, 9, 24, 48] : [];
}

export type CulqiIssuer = {
  name: string;
  country: string;
  country_code: string;
  website: null;
  phone_number: null;
};

/** Only 411111's issuer was recorded (BBVA, Peru); every other BIN gets a named stand-in. */
export function issuerOf(bin: string): CulqiIssuer {
  const name = bin === '411111' ? 'BBVA' : 'BANCO SIMULADO';
  return { name, country: 'PERU', country_code: 'PE', website: null, phone_number: null };
}

/** first 6 + as many `*` as needed + last 4, as Culqi masks (`371212*****2122`). */
export const maskCard = (cardNumber: string): string =>
  `${cardNumber.slice(0, 6)}${'*'.repeat(cardNumber.length - 10)}${cardNumber.slice(-4)}`;

export const REFUND_REASONS = {
  solicitud_comprador: 'Devolución solicitada por el comercio',
  // Not recorded: labels in the style of the recorded one.
  duplicado: 'Devolución por cargo duplicado',
  fraudulento: 'Devolución por cargo fraudulento',
} as const;

export type RefundReason = keyof typeof REFUND_REASONS;
