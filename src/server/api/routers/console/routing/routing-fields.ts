import { z } from 'zod';
import { PAYMENT_METHODS } from '@/server/core/domain/states';
import { ofMerchant } from '../console-fields';

/** One merchant's routing for one method: what every routing procedure is about. */
export const ofMerchantMethod = z.strictObject({ ...ofMerchant.shape, method: z.enum(PAYMENT_METHODS) });
