import { z } from 'zod';
import { needles } from './admin-fields';

export const secretScanInput = z.strictObject({
  PAN: needles.optional(),
  CLIENT_SECRET: needles.optional(),
  PASSWORD: needles.optional(),
  TEXT: needles.optional(),
});
