import {
  connectAccount,
  listAccounts,
  removeAccount,
  renewWebhookCredentials,
  replaceKeys,
  testAccount,
  updateAccount,
} from '@/server/modules/processors/processor-accounts';
import { consoleActProcedure, consoleProcedure } from '../../../trpc';
import { ofMerchant } from '../console-fields';
import { accountId, connectAccountInput, replaceKeysInput, updateAccountInput } from './processor-accounts.types';

// A merchant's processor accounts: merchant users see their merchant's (never a secret), merchant
// and platform admins connect, test, change and remove them (consoleActProcedure).

export const accounts = consoleProcedure
  .input(ofMerchant)
  .query(({ ctx, input }) => listAccounts(ctx.prisma, ctx.scope, input.merchantCode));

export const connect = consoleActProcedure
  .input(connectAccountInput)
  .mutation(({ ctx, input: { merchantCode, ...account } }) =>
    connectAccount(ctx.prisma, ctx.scope, merchantCode, account, ctx.session.email),
  );

export const update = consoleActProcedure
  .input(updateAccountInput)
  .mutation(({ ctx, input: { id, ...changes } }) => updateAccount(ctx.prisma, ctx.scope, id, changes));

export const replace = consoleActProcedure
  .input(replaceKeysInput)
  .mutation(({ ctx, input: { id, processor, ...keys } }) => replaceKeys(ctx.prisma, ctx.scope, id, processor, keys));

export const renewWebhook = consoleActProcedure
  .input(accountId)
  .mutation(({ ctx, input }) => renewWebhookCredentials(ctx.prisma, ctx.scope, input.id));

export const test = consoleActProcedure
  .input(accountId)
  .mutation(({ ctx, input }) => testAccount(ctx.prisma, ctx.scope, input.id));

export const remove = consoleActProcedure
  .input(accountId)
  .mutation(({ ctx, input }) => removeAccount(ctx.prisma, ctx.scope, input.id));
