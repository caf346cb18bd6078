import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';

export const linkMerchantInput = z.strictObject({ facilitatorCode: merchantCode, merchantCode });
