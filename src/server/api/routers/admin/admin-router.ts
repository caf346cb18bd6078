import { z } from 'zod';
import { ROLES } from '@/server/auth/console-session';
import { createFacilitator, createMerchant, findMerchant, linkMerchant, updateMerchant } from '@/server/services/admin/merchants';
import { PAYMENT_METHODS } from '@/server/domain/states';
import { MAX_EXPIRY_SECONDS, PENDING_METHODS } from '@/server/domain/expiry';
import { issueCredential, listCredentials, revokeCredential } from '@/server/services/admin/credentials';
import { createConsoleUser } from '@/server/services/admin/users';
import { settleAuthorized } from '@/server/services/settle-authorized';
import { inspectOperation } from '@/server/services/admin/inspect-operation';
import { secretScan } from '@/server/services/admin/secret-scan';
import { resendEvent } from '@/server/jobs/resend-event';
import { merchantCode } from '@/server/schemas/common';
import { SCOPES } from '@/server/schemas/token';
import { operatorProcedure, router } from '../../trpc';

// Operator procedures: the CLI calls them through the running service or in-process.
const code = merchantCode;
const name = z.string().min(1).max(128);
/** Values the secret scan looks for as they are (a PAN's digits, a password). */
const needles = z.array(z.string().min(4).max(64)).max(200);

export const adminRouter = router({
  createFacilitator: operatorProcedure
    .input(z.strictObject({ code, name }))
    .mutation(({ ctx, input }) => createFacilitator(ctx.prisma, input)),
  createMerchant: operatorProcedure
    .input(z.strictObject({ code, name, facilitatorCode: code.optional() }))
    .mutation(({ ctx, input }) => createMerchant(ctx.prisma, input)),
  updateMerchant: operatorProcedure
    .input(
      z.strictObject({
        code,
        name: name.optional(),
        enabledMethods: z.array(z.enum(PAYMENT_METHODS)).optional(),
        // null clears an override: the method's default applies again.
        expirySeconds: z
          .partialRecord(z.enum(PENDING_METHODS), z.number().int().min(1).max(MAX_EXPIRY_SECONDS).nullable())
          .optional(),
      }),
    )
    .mutation(({ ctx, input }) => updateMerchant(ctx.prisma, input)),
  linkMerchant: operatorProcedure
    .input(z.strictObject({ facilitatorCode: code, merchantCode: code }))
    .mutation(({ ctx, input }) => linkMerchant(ctx.prisma, input)),
  issueCredential: operatorProcedure
    .input(
      z.strictObject({
        owner: z.union([z.strictObject({ merchantCode: code }), z.strictObject({ facilitatorCode: code })]),
        scopes: z.array(z.enum(SCOPES)).min(1).optional(),
        label: z.string().max(128).optional(),
        tokenTtlSeconds: z.number().int().min(1).max(86_400).optional(),
        rateLimitPerSecond: z.number().int().min(1).max(100_000).optional(),
      }),
    )
    .mutation(({ ctx, input }) => issueCredential(ctx.prisma, input)),
  listCredentials: operatorProcedure
    .input(z.strictObject({ merchantCode: code.optional() }))
    .query(({ ctx, input }) => listCredentials(ctx.prisma, input)),
  revokeCredential: operatorProcedure
    .input(z.strictObject({ clientId: z.string().min(1).max(128) }))
    .mutation(({ ctx, input }) => revokeCredential(ctx.prisma, input.clientId)),
  createUser: operatorProcedure
    .input(
      z.strictObject({
        email: z.email(),
        password: z.string().min(10).max(200),
        role: z.enum(ROLES),
        merchantCode: code.optional(),
        name: z.string().max(128).optional(),
      }),
    )
    .mutation(({ ctx, input }) => createConsoleUser(ctx.prisma, input)),
  settleNow: operatorProcedure
    .input(z.strictObject({ merchantCode: code.optional(), transactionIds: z.array(z.uuid()).min(1).max(500).optional() }))
    .mutation(async ({ ctx, input }) => {
      const merchantId = input.merchantCode ? (await findMerchant(ctx.prisma, input.merchantCode)).id : undefined;
      return { settled: await settleAuthorized(ctx.prisma, new Date(), { merchantId, transactionIds: input.transactionIds }) };
    }),
  inspectOperation: operatorProcedure
    .input(z.strictObject({ merchantCode: code, merchantOperationNumber: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => inspectOperation(ctx.prisma, input)),
  secretScan: operatorProcedure
    .input(
      z.strictObject({
        PAN: needles.optional(),
        CLIENT_SECRET: needles.optional(),
        PASSWORD: needles.optional(),
        TEXT: needles.optional(),
      }),
    )
    .query(({ ctx, input }) => secretScan(ctx.prisma, input)),
  resendEvent: operatorProcedure
    .input(z.strictObject({ eventId: z.uuid() }))
    .mutation(({ ctx, input }) => resendEvent(ctx.prisma, input.eventId)),
});
