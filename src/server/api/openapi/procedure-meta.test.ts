import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../routers/app-router';
import type { ProcedureMeta } from './procedure-meta';

type Documented = { _def: { meta?: ProcedureMeta; output?: z.ZodObject } };

describe("the successType of a REST procedure's meta", () => {
  it("is the type of `success` in the procedure's own success answer", () => {
    const checked = Object.entries(appRouter._def.procedures as unknown as Record<string, Documented>).flatMap(
      ([name, procedure]) => {
        const { meta, output } = procedure._def;
        if (!meta?.openapi || !output) return [];
        const success = output.shape.success as z.ZodType | undefined;
        return [[name, meta.successType, success && (z.toJSONSchema(success) as { type?: string }).type]];
      },
    );
    expect(checked.length).toBeGreaterThan(0);
    for (const [name, successType, outputType] of checked) expect([name, successType]).toEqual([name, outputType]);
  });
});
