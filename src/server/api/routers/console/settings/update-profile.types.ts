import { z } from 'zod';
import { merchantName, ofMerchant } from '../console-fields';

export const updateProfileInput = z.strictObject({
  ...ofMerchant.shape,
  name: merchantName,
  supportEmail: z.email({ error: 'must be an email address' }).max(254).nullable(),
});
