import { z } from 'zod';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { chargeRequestRules } from '@/server/core/interface/charge-request';
import { eventFilterRules } from '@/server/core/interface/event';
import { refundFilterRules } from '@/server/core/interface/refund';
import type { ProcedureMeta } from './procedure-meta';

// The bridge documents an input as zod-openapi renders it, except at the top level of a body
// whose schema carries refinements: it rebuilds that object from its shape and loses strictness
// and the schema's own keywords (trpc-to-openapi getRequestBodyObject). Put back here, with the
// rules no schema holds, so that what the document allows the server accepts and what the
// server refuses the document forbids or describes (docs/DECISIONS.md, "An exact document").

export type ValidationRule = { field: string; rule: string };

/** Described rules per operation: a 400 naming one of these fields may answer a request the schema accepts. */
const RULES: Record<string, ValidationRule[]> = {
  authorizeCharge: chargeRequestRules,
  listRefunds: refundFilterRules,
  listEvents: eventFilterRules,
};

/** Keys of an input's own metadata that are JSON Schema keywords the bridge drops at the top level. */
const SCHEMA_KEYWORDS = ['if', 'then', 'else', 'allOf'] as const;

type Procedure = { _def: { meta?: ProcedureMeta; inputs: z.ZodType[] } };
type Operation = {
  operationId?: string;
  description?: string;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  'x-validation-rules'?: ValidationRule[];
  'x-additional-query-parameters'?: false;
};

function isStrict(input: z.ZodType | undefined): boolean {
  return input instanceof z.ZodObject && input._zod.def.catchall?._zod.def.type === 'never';
}

export function exactRequests(document: OpenAPIObject, procedures: Record<string, unknown>): void {
  for (const procedure of Object.values(procedures as Record<string, Procedure>)) {
    const openapi = procedure._def.meta?.openapi;
    if (!openapi) continue;
    const operation = (document.paths?.[openapi.path] as Record<string, Operation> | undefined)?.[openapi.method.toLowerCase()];
    if (!operation) continue;
    const input = procedure._def.inputs[0];
    const own = (input?.meta() ?? {}) as Record<string, unknown>;
    for (const content of Object.values(operation.requestBody?.content ?? {})) {
      if (isStrict(input)) content.schema.additionalProperties = false;
      for (const keyword of SCHEMA_KEYWORDS) if (own[keyword] !== undefined) content.schema[keyword] = own[keyword];
    }
    // OpenAPI cannot forbid other query parameters; the server refuses them (400), so the
    // document says so where it applies.
    if (!operation.requestBody && isStrict(input)) {
      operation['x-additional-query-parameters'] = false;
      operation.description = `${operation.description ?? ''} Any query parameter not listed here is refused with 400.`.trim();
    }
    const rules = RULES[operation.operationId ?? ''];
    if (rules) {
      operation['x-validation-rules'] = rules;
      const described = rules.map(({ field, rule }) => `\`${field}\` ${rule}`).join('; ');
      operation.description = `${operation.description ?? ''} Also checked: ${described}.`.trim();
    }
  }
}
