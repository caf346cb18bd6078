import type { z } from 'zod';
import { appRouter } from '../../src/server/api/routers/app-router';

// The service's tRPC procedures, read from its own router in the test process: every procedure
// is fuzzed, including one added later, with the zod schema the service parses its input with.

export type Procedure = {
  /** As in the URL: `console.settings.addUser`. */
  path: string;
  type: 'query' | 'mutation';
  /** The zod schema of the input (undefined: the procedure takes none). */
  input: z.ZodType | undefined;
  /** An integrator procedure (it has an OpenAPI route): the REST API's, reachable over tRPC too. */
  integrator: boolean;
};

type Definition = { _def: { type: string; inputs: z.ZodType[]; meta?: { openapi?: unknown } } };

export const PROCEDURES: Procedure[] = // At run time the router's procedures are one flat record by dotted path.
  Object.entries(appRouter._def.procedures as unknown as Record<string, Definition>).map(([path, { _def }]) => {
    if (_def.type !== 'query' && _def.type !== 'mutation') throw new Error(`${path}: a ${_def.type} is not fuzzed`);
    if (_def.inputs.length > 1) throw new Error(`${path}: chained inputs are not fuzzed`);
    return { path, type: _def.type, input: _def.inputs[0], integrator: _def.meta?.openapi !== undefined };
  });
