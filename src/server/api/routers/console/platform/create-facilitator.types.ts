import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';
import { merchantName } from '../console-fields';

export const createFacilitatorInput = z.strictObject({ code: merchantCode, name: merchantName });
