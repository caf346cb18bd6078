import { z } from 'zod';
import { merchantCode } from '@/server/schemas/common';
import { merchantName } from '../console-fields';

export const createFacilitatorInput = z.strictObject({ code: merchantCode, name: merchantName });
