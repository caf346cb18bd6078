import fc from 'fast-check';
import { authRequests } from './auth-requests';
import { documentRequests } from './document-requests';
import { exportRequests } from './export-requests';
import { payerRequests } from './payer-requests';
import type { FuzzRequest } from './request';
import { restRequests } from './rest-requests';
import type { FuzzTarget } from './target';
import { trpcRequests } from './trpc-requests';

// Bad requests for every endpoint of the service, in shares of the run: the integrator REST API
// and token endpoint take the most (they have the most ways to be wrong), then the console's tRPC
// procedures, then the sign-in, payer, export and read-only endpoints.
const SHARES = { rest: 45, trpc: 30, auth: 8, payer: 6, export: 5, documents: 6 };

export function everyEndpoint(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: SHARES.rest, arbitrary: restRequests(target) },
    { weight: SHARES.trpc, arbitrary: trpcRequests(target) },
    { weight: SHARES.auth, arbitrary: authRequests(target) },
    { weight: SHARES.payer, arbitrary: payerRequests(target) },
    { weight: SHARES.export, arbitrary: exportRequests(target) },
    { weight: SHARES.documents, arbitrary: documentRequests() },
  );
}
