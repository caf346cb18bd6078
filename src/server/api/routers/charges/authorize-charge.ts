import { authorizeCharge as authorize } from '@/server/modules/charges/authorize-charge';
import { parseIdempotencyKey, withIdempotency } from '@/server/modules/charges/idempotency';
import { merchantProcedure } from '../../trpc';
import { chargeHeaders } from '../../openapi/headers';
import { principalScope } from '../principal-scope';
import { authorizeChargeInput, authorizeChargeOutput } from './authorize-charge.types';

export const authorizeCharge = merchantProcedure('post:charges', authorizeChargeInput)
  .meta({
    successType: 'string',
    openapi: {
      method: 'POST',
      path: '/charges',
      operationId: 'authorizeCharge',
      tags: ['charges'],
      summary: 'Authorize an ecommerce payment',
      description:
        'CARD and YAPE answer AUTORIZADO (or DENEGADO); the other methods answer PENDIENTE with an expiration_date. ' +
        'A CARD payment that needs a 3-D Secure challenge answers PENDIENTE with continue_url (the hosted challenge page) ' +
        'and an expiration_date 10 minutes on; the outcome follows by callback and in GET. ' +
        'Routing may try more than one processor: each attempt is a transaction of the operation, and the answer carries ' +
        'the last; every transaction has additional_fields.processor (the connector) and additional_fields.attempt.',
      requestHeaders: chargeHeaders,
      errorResponses: [400, 401, 403, 409, 413, 422, 429],
    },
  })
  .output(authorizeChargeOutput)
  .mutation(({ ctx, input }) => {
    const key = parseIdempotencyKey(ctx.headers.get('idempotency-key'));
    // A REGISTRADO answer is the attempt as it stood, not the processor's answer (it is still
    // being carried, or waits for the status sync): a retry with the key asks again.
    const final = (answer: { transaction: { state: string } }) => answer.transaction.state !== 'REGISTRADO';
    return withIdempotency(ctx.prisma, { scope: principalScope(ctx.principal, 'charges'), key, body: input, final }, () =>
      authorize(ctx.prisma, ctx.merchant, input),
    );
  });
