// What a processor can do beyond authorizing, as its connector declares it: routing sends a
// payment only where every capability the payment needs is declared (docs/ORCHESTRATION.md 2).
export type ConnectorCapabilities = {
  instalments: boolean;
  /** Authorizes with the result of a 3-D Secure authentication. */
  threeDsResult: boolean;
  reversal: boolean;
  refunds: boolean;
};
