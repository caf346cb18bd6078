import { resealAccounts } from '@/server/modules/processors/processor-accounts';
import { platformActProcedure } from '../../../trpc';

/** Every processor account's secrets sealed again under the current key (docs/processors/README.md, "Secrets"). */
export const resealProcessorSecrets = platformActProcedure.mutation(({ ctx }) => resealAccounts(ctx.prisma));
