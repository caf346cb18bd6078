import { API_VERSION, apiHeaders, chargeBody, tokenBody } from '../support/api-client';
import type { Target } from './measure';

// The paths the benchmark and the profiler load: the bare route and the API's hot endpoints.
export type TargetName = 'baseline' | 'charges' | 'oneClick' | 'mit' | 'capture' | 'transaction' | 'refund' | 'token';

export function benchTargets(
  origin: string,
  bearer: string,
  paths: { transactionPath: string; refundPath: string; capturePaths: string[]; savedCards: string[] },
): Record<TargetName, Target> {
  let captured = 0;
  // Saved-card charges go round the cards saved for the run, as a merchant's charges go to its customers' cards.
  let used = 0;
  const nextCard = () => paths.savedCards[used++ % paths.savedCards.length]!;
  const run = Date.now().toString(36);
  return {
    baseline: { name: 'baseline (bare route)', method: 'GET', path: '/api/bench/baseline' },
    charges: {
      name: 'POST /charges (CARD)',
      method: 'POST',
      path: '/api/charges',
      headers: apiHeaders(bearer),
      body: () => chargeBody(run),
    },
    oneClick: {
      name: 'POST /charges (saved card, one-click)',
      method: 'POST',
      path: '/api/charges',
      headers: apiHeaders(bearer),
      body: () => chargeBody(run, { saved: { card_id: nextCard(), security_code: '123' } }),
    },
    mit: {
      name: 'POST /charges (saved card, MIT)',
      method: 'POST',
      path: '/api/charges',
      headers: apiHeaders(bearer),
      body: () => chargeBody(run, { saved: { card_id: nextCard(), initiator: 'MERCHANT', reason: 'RECURRING' } }),
    },
    // Each request captures the next of the authorizations made to be captured later (one capture each).
    capture: {
      name: 'POST capture (all of it)',
      method: 'POST',
      path: paths.capturePaths[0]!,
      headers: apiHeaders(bearer),
      nextPath: () => paths.capturePaths[captured++ % paths.capturePaths.length]!,
    },
    transaction: { name: 'GET transaction', method: 'GET', path: paths.transactionPath, headers: apiHeaders(bearer) },
    refund: { name: 'GET /refund (filtered)', method: 'GET', path: paths.refundPath, headers: apiHeaders(bearer) },
    token: {
      name: 'POST /oauth/token',
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': 'application/json', 'alg-api-version': API_VERSION },
      body: () => tokenBody(origin),
    },
  };
}

/**
 * The limits would refuse a benchmark: lifted for it, measured elsewhere (admission control: by
 * the benchmark's overload run, on a service started without this).
 */
export const LIFTED_LIMITS = {
  ADMISSION_LIMITS: 'charges=1000000,reads=1000000,token=1000000,console=1000000,payer=1000000,notifications=1000000',
  API_RATE_PER_SECOND: '1000000',
  TOKEN_RATE_PER_CLIENT: '1000000',
  TOKEN_RATE_PER_ADDRESS: '1000000',
};
