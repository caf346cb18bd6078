import { authorizeCharge as authorize } from '@/server/modules/charges/authorize-charge';
import { parseIdempotencyKey, withIdempotency } from '@/server/modules/charges/idempotency';
import { merchantProcedure } from '../../trpc';
import { principalScope } from '../principal-scope';
import { authorizeChargeMeta, authorizeChargeInput, authorizeChargeOutput } from './authorize-charge.types';

export const authorizeCharge = merchantProcedure('post:charges', authorizeChargeInput)
  .meta(authorizeChargeMeta)
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
