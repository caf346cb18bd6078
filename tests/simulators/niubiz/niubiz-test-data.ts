// Niubiz's documented test data (docs/processors/sources/niubiz-api.md §13), the only data that
// decides the simulator's outcomes.

/**
 * Cards listed under "Autorizado" ([PW-PDF] §7.b.vi table; [gist], [moi]) and the one observed
 * approved ([K-obs]), research §13.1.
 */
export const APPROVED_CARDS: ReadonlySet<string> = new Set([
  '4919148107859067', // [PW-PDF] Autorizado, nacional
  '4500340090000016', // [PW-PDF] Autorizado, nacional
  '4072210290536663', // [PW-PDF] Autorizado, foránea
  '4551708161768059', // [gist], [moi]
  '4280820087569434', // [gist], [moi]
  '4634020606098014', // [gist], [moi]
  '4110905000721943', // [gist], [moi]
  '4474118355632240', // [K-obs] observed approved (debit)
]);

/** Cards listed as "Denegado" ([PW-PDF]; [gist]), research §13.1. */
export const DECLINED_CARDS: ReadonlySet<string> = new Set(['4444333322221111', '4111111111111111']);

/**
 * The code of a decline. Which code each declining card produces is not documented (research
 * §13.1); the PDF's own decline example answers 180 "Tarjeta no valida" (§4.3), so every decline
 * and every card outside the lists (outcome undocumented) answers it.
 */
export const CARD_DECLINE = { code: '180', description: 'Tarjeta no valida' } as const;

/** An expired card: 101 "Tarjeta Vencida" ([PW-PDF] Annex b). */
export const EXPIRED_CARD = { code: '101', description: 'Tarjeta Vencida' } as const;

/** Cybersource's test e-mail for a fraud rejection in the cardholder's email ([PW-PDF], research §13.1); 670 "Módulo antifraude". */
export const ANTIFRAUD_REJECT_EMAIL = 'reject@cybersource.com';
export const ANTIFRAUD_REJECT = { code: '670', description: 'Operación denegada por el módulo antifraude' } as const;

/** Yape sandbox test values ([yape-rn], research §10, §13.2). */
export const YAPE_TEST = { phone: '969929157', otp: '557454' } as const;

/** A duplicate purchaseNumber: 300 ([PW-PDF] Annex b, research §14). */
export const DUPLICATE_ORDER = {
  code: '300',
  description: 'Número de pedido del comercio duplicado. Favor no atender.',
} as const;

/** A request Niubiz cannot take: 263 "Error en el envío de parámetros" ([PW-PDF] Annex b). */
export const BAD_PARAMETERS = { code: '263', description: 'Error en el envío de parámetros' } as const;
