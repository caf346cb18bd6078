// What a processor can do beyond authorizing, as its connector declares it: routing sends a
// payment only where every capability the payment needs is declared (docs/ORCHESTRATION.md 2),
// and a refund in parts goes only to a processor that takes one (docs/DECISIONS.md "Capture
// later, refunds in parts").
export type ConnectorCapabilities = {
  instalments: boolean;
  /** Authorizes with the result of a 3-D Secure authentication. */
  threeDsResult: boolean;
  /**
   * Authorizes a card the payer typed without its security code: the authorization after a 3-D
   * Secure challenge has none (no code is kept, ../shared CARD-ON-FILE.md 1), so it goes only to
   * such a processor, or to the one that held the card before the challenge (connector.ts `holdCard`).
   */
  cardWithoutCode: boolean;
  reversal: boolean;
  refunds: boolean;
  /** Authorizes without capturing, and captures later (`separate_capture`). */
  separateCapture: boolean;
  /** Captures part of what it authorized, releasing the rest (`partial_capture`). */
  partialCapture: boolean;
  /**
   * Days the processor keeps an uncaptured authorization before it releases it on its own: a
   * payment's capture window ends there when the merchant's is longer. `null`: no shorter than
   * any window the service allows (29 days), or nothing is held.
   */
  captureHoldDays: number | null;
  /** Refunds part of a payment, as many times as it adds up to (`partial_refund`). */
  partialRefund: boolean;
  /** What it does for saved cards (docs/DECISIONS.md "Card on file"). */
  savedCards: SavedCardCapabilities;
};

/**
 * A processor's saved-card flows (../shared CARD-ON-FILE.md 5). A processor without any still
 * carries a one-click charge that comes with its security code: it takes the PAN as for a new card.
 */
export type SavedCardCapabilities = {
  /** Keeps a token of its own for a card (provisioned by a CIT approved there). */
  tokenize: boolean;
  /**
   * Charges its own token without the card's security code: an MIT, or a one-click charge sent
   * without it. Mercado Pago's cannot (a saved card's payment needs its code captured again).
   */
  tokenWithoutCode: boolean;
  /**
   * Takes the PAN with the stored-credential flags (subsequent, initiator) and the initial
   * network transaction id: carries MITs, and one-click charges without a security code.
   */
  mitWithNti: boolean;
  /** Verifies a card for a zero amount (saving a card without a payment). */
  zeroAmountVerify: boolean;
  /** Deletes its token when the card is removed. */
  deleteToken: boolean;
};

/** A processor that offers no saved-card flow. */
export const NO_SAVED_CARDS: SavedCardCapabilities = {
  tokenize: false,
  tokenWithoutCode: false,
  mitWithNti: false,
  zeroAmountVerify: false,
  deleteToken: false,
};

/** The capture capabilities of a processor that captures every payment with its authorization. */
export const NO_CAPTURE = { separateCapture: false, partialCapture: false, captureHoldDays: null } as const;

/** A processor that only authorizes: no instalments, 3-D Secure result, capture or money back (a payment order, a QR). */
export const AUTHORIZES_ONLY: ConnectorCapabilities = {
  ...NO_CAPTURE,
  instalments: false,
  threeDsResult: false,
  cardWithoutCode: false,
  reversal: false,
  refunds: false,
  partialRefund: false,
  savedCards: NO_SAVED_CARDS,
};

/** A processor that does everything a connector may declare (the sandbox acquirers). */
export const EVERY_CAPABILITY: ConnectorCapabilities = {
  instalments: true,
  threeDsResult: true,
  // The sandbox acquirers check no security code (card-outcome.ts).
  cardWithoutCode: true,
  reversal: true,
  refunds: true,
  separateCapture: true,
  partialCapture: true,
  captureHoldDays: null,
  partialRefund: true,
  // A sandbox acquirer keeps no token (the vault's PAN is what it takes) and has none to delete.
  savedCards: { tokenize: false, tokenWithoutCode: false, mitWithNti: true, zeroAmountVerify: true, deleteToken: false },
};
