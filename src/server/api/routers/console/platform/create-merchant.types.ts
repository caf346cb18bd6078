import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';
import { merchantName } from '../console-fields';

export const createMerchantInput = z.strictObject({
  code: merchantCode,
  name: merchantName,
  facilitatorCode: merchantCode.optional(),
});
