import { z } from 'zod';
import { retryPolicyInput } from '@/server/core/orchestration';
import { ofMerchantMethod } from './routing-fields';

export const updatePolicyInput = z.strictObject({ ...ofMerchantMethod.shape, ...retryPolicyInput.shape });
