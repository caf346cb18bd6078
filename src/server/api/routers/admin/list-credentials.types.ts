import { z } from 'zod';
import { merchantCode } from '@/server/schemas/common';

export const listCredentialsInput = z.strictObject({ merchantCode: merchantCode.optional() });
