// What a processor can do beyond authorizing, as its connector declares it: routing sends a
// payment only where every capability the payment needs is declared (docs/ORCHESTRATION.md 2),
// and a refund in parts goes only to a processor that takes one (docs/DECISIONS.md "Capture
// later, refunds in parts").
export type ConnectorCapabilities = {
  instalments: boolean;
  /** Authorizes with the result of a 3-D Secure authentication. */
  threeDsResult: boolean;
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
};

/** The capture capabilities of a processor that captures every payment with its authorization. */
export const NO_CAPTURE = { separateCapture: false, partialCapture: false, captureHoldDays: null } as const;

/** A processor that only authorizes: no instalments, 3-D Secure result, capture or money back (a payment order, a QR). */
export const AUTHORIZES_ONLY: ConnectorCapabilities = {
  ...NO_CAPTURE,
  instalments: false,
  threeDsResult: false,
  reversal: false,
  refunds: false,
  partialRefund: false,
};

/** A processor that does everything a connector may declare (the sandbox acquirers). */
export const EVERY_CAPABILITY: ConnectorCapabilities = {
  instalments: true,
  threeDsResult: true,
  reversal: true,
  refunds: true,
  separateCapture: true,
  partialCapture: true,
  captureHoldDays: null,
  partialRefund: true,
};
