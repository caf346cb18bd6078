import { z } from 'zod';
import { merchantRole, userId } from './settings-fields';

export const setUserRoleInput = z.strictObject({ userId, role: merchantRole });
