import { z } from 'zod';
import { AppError } from '@/server/domain/errors';
import { merchantCode } from '@/server/schemas/common';
import type { Db } from '@/server/db/client';
import { createFacilitator, createMerchant, findMerchant, linkMerchant, unlinkMerchant } from '@/server/services/admin/merchants';
import { awaitingSettlement, listFacilitators, listMerchants } from '@/server/services/console/platform-directory';
import { settleAuthorized } from '@/server/services/settle-authorized';
import { consoleActProcedure, consoleReadProcedure, router } from '../../trpc';

// Platform administration (console.platform.*): platform staff read, only platform admins change.
// The services are the operator CLI's (src/server/services/admin/*, settle-authorized).
const platformRead = consoleReadProcedure.use(({ ctx, next }) => {
  if (ctx.session.role !== 'PLATFORM_ADMIN' && ctx.session.role !== 'SUPPORT') {
    throw new AppError('FORBIDDEN', 'platform staff only');
  }
  return next();
});

const platformAct = consoleActProcedure.use(({ ctx, next }) => {
  if (ctx.session.role !== 'PLATFORM_ADMIN') throw new AppError('FORBIDDEN', 'platform admins only');
  return next();
});

const ofMerchant = z.strictObject({ merchantCode: merchantCode.optional() });
const merchantIdOf = async (prisma: Db, code: string | undefined) => (code ? (await findMerchant(prisma, code)).id : undefined);

const name = z.string().trim().min(1, 'must not be empty').max(128, 'must be at most 128 characters');

export const platformRouter = router({
  merchants: platformRead
    .input(z.strictObject({ search: z.string().max(64).optional() }))
    .query(({ ctx, input }) => listMerchants(ctx.prisma, input.search)),
  facilitators: platformRead.query(({ ctx }) => listFacilitators(ctx.prisma)),
  awaitingSettlement: platformRead
    .input(ofMerchant)
    .query(async ({ ctx, input }) => awaitingSettlement(ctx.prisma, await merchantIdOf(ctx.prisma, input.merchantCode))),
  createMerchant: platformAct
    .input(z.strictObject({ code: merchantCode, name, facilitatorCode: merchantCode.optional() }))
    .mutation(({ ctx, input }) => createMerchant(ctx.prisma, input)),
  createFacilitator: platformAct
    .input(z.strictObject({ code: merchantCode, name }))
    .mutation(({ ctx, input }) => createFacilitator(ctx.prisma, input)),
  linkMerchant: platformAct
    .input(z.strictObject({ facilitatorCode: merchantCode, merchantCode }))
    .mutation(({ ctx, input }) => linkMerchant(ctx.prisma, input)),
  unlinkMerchant: platformAct
    .input(z.strictObject({ merchantCode }))
    .mutation(({ ctx, input }) => unlinkMerchant(ctx.prisma, input.merchantCode)),
  /** The settlement cut-off now, for every merchant or the one named (the CLI's settle-now). */
  settleNow: platformAct.input(ofMerchant).mutation(async ({ ctx, input }) => ({
    settled: await settleAuthorized(ctx.prisma, new Date(), { merchantId: await merchantIdOf(ctx.prisma, input.merchantCode) }),
  })),
});
