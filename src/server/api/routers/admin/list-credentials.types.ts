import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';

export const listCredentialsInput = z.strictObject({ merchantCode: merchantCode.optional() });
