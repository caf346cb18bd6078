import { z } from 'zod';
import { merchantCode } from '@/server/schemas/common';

export const linkMerchantInput = z.strictObject({ facilitatorCode: merchantCode, merchantCode });
