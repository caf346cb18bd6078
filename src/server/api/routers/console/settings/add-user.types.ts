import { z } from 'zod';
import { ofMerchant } from '../console-fields';
import { merchantRole } from './settings-fields';

export const addUserInput = z.strictObject({
  ...ofMerchant.shape,
  email: z.email({ error: 'must be an email address' }).max(254),
  name: z.string().trim().max(128, 'must be at most 128 characters'),
  role: merchantRole,
});
