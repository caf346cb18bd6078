import { z } from 'zod';
import { merchantCode } from '@/server/schemas/common';

export const unlinkMerchantInput = z.strictObject({ merchantCode });
