import { z } from 'zod';
import { merchantCode } from '@/server/schemas/common';
import { listOperations, toOperationRowView } from '@/server/services/console/list-operations';
import { operationDetail } from '@/server/services/console/operation-detail';
import { cancelFromConsole } from '@/server/services/console/console-actions';
import { scopeOf } from '@/server/services/console/merchant-scope';
import { overview } from '@/server/services/console/overview';
import { listRefunds } from '@/server/services/list-refunds';
import { SCOPES } from '@/server/schemas/token';
import { consoleCredentials, consoleIssueCredential, consoleRevokeCredential } from '@/server/services/console/credentials';
import { refundFilters } from '@/server/schemas/refund';
import { operationFiltersInput, toOperationFilters } from '@/server/schemas/console-operations';
import { consoleActProcedure, consoleReadProcedure, router } from '../../trpc';
import { callbackProcedures } from './callback-procedures';
import { consoleRefundProcedures } from './console-refunds';
import { platformRouter } from './platform-router';
import { settingsRouter } from './settings-router';

// Console procedures: every role rule is enforced here (pages only hide what a role cannot do).
const transactionId = z.strictObject({ transactionId: z.string().min(1).max(64) });

export const consoleRouter = router({
  ...consoleRefundProcedures,
  ...callbackProcedures,
  overview: consoleReadProcedure.query(({ ctx }) => overview(ctx.prisma, scopeOf(ctx.session))),
  operations: consoleReadProcedure.input(operationFiltersInput).query(async ({ ctx, input }) => {
    const page = await listOperations(ctx.prisma, scopeOf(ctx.session), toOperationFilters(input));
    return { nextCursor: page.nextCursor, rows: page.rows.map(toOperationRowView) };
  }),
  operation: consoleReadProcedure
    .input(transactionId)
    .query(({ ctx, input }) => operationDetail(ctx.prisma, scopeOf(ctx.session), input.transactionId)),
  cancel: consoleActProcedure
    .input(transactionId)
    .mutation(({ ctx, input }) =>
      cancelFromConsole(ctx.prisma, scopeOf(ctx.session), input.transactionId, `console ${ctx.session.email}`),
    ),
  refunds: consoleReadProcedure.input(refundFilters).query(async ({ ctx, input }) => {
    const { merchant_code: named, ...filters } = input;
    const scope = scopeOf(ctx.session);
    if (named) {
      const merchant = await ctx.prisma.merchant.findUnique({ where: { code: named }, select: { id: true, code: true } });
      // A merchant user naming another merchant sees nothing, as if it did not exist.
      const visible = merchant && (scope.kind === 'all' || scope.merchantId === merchant.id);
      return listRefunds(ctx.prisma, { merchantIds: visible ? [merchant.id] : [], merchantCode: named }, filters);
    }
    if (scope.kind === 'all') return listRefunds(ctx.prisma, { merchantIds: 'all', merchantCode: '' }, filters);
    const own = await ctx.prisma.merchant.findUniqueOrThrow({ where: { id: scope.merchantId }, select: { code: true } });
    return listRefunds(ctx.prisma, { merchantIds: [scope.merchantId], merchantCode: own.code }, filters);
  }),
  credentials: consoleReadProcedure
    .input(z.strictObject({ merchantCode: merchantCode.optional() }))
    .query(({ ctx, input }) => consoleCredentials(ctx.prisma, scopeOf(ctx.session), input.merchantCode)),
  issueCredential: consoleActProcedure
    .input(
      z.strictObject({
        merchantCode: merchantCode.optional(),
        scopes: z
          .array(z.enum(SCOPES))
          .min(1)
          .refine((scopes) => scopes.includes('create:token'), 'must include create:token'),
        label: z.string().max(128),
      }),
    )
    .mutation(({ ctx, input }) => consoleIssueCredential(ctx.prisma, scopeOf(ctx.session), input)),
  revokeCredential: consoleActProcedure
    .input(z.strictObject({ clientId: z.string().min(1).max(128) }))
    .mutation(({ ctx, input }) => consoleRevokeCredential(ctx.prisma, scopeOf(ctx.session), input.clientId)),
  settings: settingsRouter,
  platform: platformRouter,
});
