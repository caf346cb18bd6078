import { z } from 'zod';
import { PAYMENT_METHODS } from '@/server/core/domain/states';
import { ofMerchant } from '../console-fields';

export const updateMethodsInput = z.strictObject({
  ...ofMerchant.shape,
  enabledMethods: z
    .array(z.enum(PAYMENT_METHODS))
    .min(1, 'keep at least one method enabled: with none, every charge is refused')
    .max(PAYMENT_METHODS.length)
    .refine((methods) => new Set(methods).size === methods.length, 'must not repeat a method'),
});
