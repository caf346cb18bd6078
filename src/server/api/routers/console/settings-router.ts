import { z } from 'zod';
import { EXPIRY_MINUTES, PENDING_METHODS } from '@/server/domain/expiry';
import { PAYMENT_METHODS } from '@/server/domain/states';
import { merchantCode } from '@/server/schemas/common';
import { scopeOf } from '@/server/services/console/merchant-scope';
import { changeMerchantSettings, merchantSettings } from '@/server/services/console/merchant-settings';
import { addMerchantUser, changeMerchantUser, merchantUsers } from '@/server/services/console/merchant-users';
import { consoleActProcedure, consoleReadProcedure, router } from '../../trpc';

// A merchant's settings and people (console.settings.*). Merchant users act on their own merchant
// (naming another answers NOT_FOUND); platform staff name one. Reads: any role; changes: admins.
const merchant = { merchantCode: merchantCode.optional() };
const ofMerchant = z.strictObject(merchant);

const expiryMinutes = z
  .number({ error: 'must be a whole number of minutes' })
  .int('must be a whole number of minutes')
  .min(EXPIRY_MINUTES.min, `must be at least ${EXPIRY_MINUTES.min} minute`)
  .max(EXPIRY_MINUTES.max, `must be at most ${EXPIRY_MINUTES.max} minutes (30 days)`);

const merchantRole = z.enum(['MERCHANT_ADMIN', 'MERCHANT_VIEWER'], {
  error: 'must be MERCHANT_ADMIN or MERCHANT_VIEWER',
});
const userId = z.uuid({ error: 'must be a user id' });

export const settingsRouter = router({
  merchant: consoleReadProcedure
    .input(ofMerchant)
    .query(({ ctx, input }) => merchantSettings(ctx.prisma, scopeOf(ctx.session), input.merchantCode)),
  updateProfile: consoleActProcedure
    .input(
      z.strictObject({
        ...merchant,
        name: z.string().trim().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
        supportEmail: z.email({ error: 'must be an email address' }).max(254).nullable(),
      }),
    )
    .mutation(({ ctx, input }) => changeMerchantSettings(ctx.prisma, scopeOf(ctx.session), input)),
  updateMethods: consoleActProcedure
    .input(
      z.strictObject({
        ...merchant,
        enabledMethods: z
          .array(z.enum(PAYMENT_METHODS))
          .min(1, 'keep at least one method enabled: with none, every charge is refused')
          .max(PAYMENT_METHODS.length)
          .refine((methods) => new Set(methods).size === methods.length, 'must not repeat a method'),
      }),
    )
    .mutation(({ ctx, input }) => changeMerchantSettings(ctx.prisma, scopeOf(ctx.session), input)),
  updateExpiries: consoleActProcedure
    .input(
      z.strictObject({
        ...merchant,
        // Only the methods sent change; null clears an override (the method's default applies again).
        expiryMinutes: z.partialRecord(z.enum(PENDING_METHODS), expiryMinutes.nullable()),
      }),
    )
    .mutation(({ ctx, input }) => changeMerchantSettings(ctx.prisma, scopeOf(ctx.session), input)),
  users: consoleReadProcedure
    .input(ofMerchant)
    .query(({ ctx, input }) => merchantUsers(ctx.prisma, scopeOf(ctx.session), input.merchantCode)),
  addUser: consoleActProcedure
    .input(
      z.strictObject({
        ...merchant,
        email: z.email({ error: 'must be an email address' }).max(254),
        name: z.string().trim().max(128, 'must be at most 128 characters'),
        role: merchantRole,
      }),
    )
    .mutation(({ ctx, input }) => addMerchantUser(ctx.prisma, scopeOf(ctx.session), input)),
  setUserRole: consoleActProcedure
    .input(z.strictObject({ userId, role: merchantRole }))
    .mutation(({ ctx, input }) => changeMerchantUser(ctx.prisma, scopeOf(ctx.session), ctx.session.userId, input)),
  setUserDisabled: consoleActProcedure
    .input(z.strictObject({ userId, disabled: z.boolean() }))
    .mutation(({ ctx, input }) => changeMerchantUser(ctx.prisma, scopeOf(ctx.session), ctx.session.userId, input)),
});
