import { z } from 'zod';
import type { OpenApiDocument, Schema } from './openapi-contract';

// A zod schema as schema-arbitrary.ts reads request schemas: its JSON Schema (zod 4's own
// conversion, of what it accepts as input) inside a document whose components hold its $defs.
// The arbitraries follow what JSON Schema can say; refinements it cannot say are left to the
// caller, which asks the zod schema itself whether a value is valid.

export function zodDocument(input: z.ZodType): { document: OpenApiDocument; schema: Schema } {
  const converted = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' });
  const text = JSON.stringify(converted).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $defs, $schema: _dialect, ...schema } = JSON.parse(text) as Schema & { $defs?: Record<string, Schema> };
  return { document: { openapi: '3.1.0', paths: {}, components: { schemas: $defs ?? {} } }, schema };
}
