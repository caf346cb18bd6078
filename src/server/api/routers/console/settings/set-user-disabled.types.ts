import { z } from 'zod';
import { userId } from './settings-fields';

export const setUserDisabledInput = z.strictObject({ userId, disabled: z.boolean() });
