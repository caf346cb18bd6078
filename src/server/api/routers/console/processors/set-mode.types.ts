import { z } from 'zod';
import { CONNECTOR_MODES } from '@/server/core/domain/connector-modes';

export const setModeInput = z.strictObject({ connector: z.string().min(1).max(64), mode: z.enum(CONNECTOR_MODES) });
