import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';

export const unlinkMerchantInput = z.strictObject({ merchantCode });
