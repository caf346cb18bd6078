import { z } from 'zod';
import { clientId } from '../console-fields';

export const revokeCredentialInput = z.strictObject({ clientId });
