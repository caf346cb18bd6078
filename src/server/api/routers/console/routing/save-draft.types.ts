import { z } from 'zod';
import { ofMerchantMethod } from './routing-fields';

// The routes stay unknown here: the rule's own validation (orchestration/validate-rule.ts) gives
// each problem its field, including the shape's, so the console can show it beside the route.
export const saveDraftInput = z.strictObject({ ...ofMerchantMethod.shape, routes: z.unknown() });
