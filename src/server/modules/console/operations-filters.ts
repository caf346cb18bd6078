import { z } from 'zod';
import { PAYMENT_METHODS, TRANSACTION_STATES } from '@/server/core/domain/states';
import type { OperationFilters } from '@/server/modules/console/list-operations';
import { merchantCode, shortText } from '@/server/core/interface/common';

// The filters of the console's operations table (console.operations) and of its CSV export.
const cents = z.string().regex(/^\d{1,12}$/, 'must be whole cents');
const instant = z.iso.datetime({ offset: true });

export const OPERATION_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;

export const operationFiltersInput = z.strictObject({
  merchantCode: merchantCode.optional(),
  state: z.enum(TRANSACTION_STATES).optional(),
  method: z.enum(PAYMENT_METHODS).optional(),
  from: instant.optional(),
  to: instant.optional(),
  minAmount: cents.optional(),
  maxAmount: cents.optional(),
  // Searched in PostgreSQL: a NUL in it failed the query (500).
  search: shortText(128).optional(),
  sort: z.enum(OPERATION_SORTS).optional(),
  cursor: z.string().max(200).optional(),
  before: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});

export type OperationFiltersInput = z.infer<typeof operationFiltersInput>;

export function toOperationFilters(input: OperationFiltersInput): OperationFilters {
  return {
    ...input,
    from: input.from ? new Date(input.from) : undefined,
    to: input.to ? new Date(input.to) : undefined,
    minAmount: input.minAmount ? BigInt(input.minAmount) : undefined,
    maxAmount: input.maxAmount ? BigInt(input.maxAmount) : undefined,
  };
}
