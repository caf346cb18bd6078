import { z } from 'zod';
import { env } from '@/env';
import { endOfDayExclusive, startOfDay } from '@/server/core/domain/business-day';
import { centsOfTypedAmount } from '@/server/core/domain/money';
import { PAYMENT_METHODS, TRANSACTION_STATES } from '@/server/core/domain/states';
import { shortText } from '@/server/core/interface/common';
import { OPERATION_SORTS, type OperationFiltersInput } from '@/server/modules/console/operations-filters';

// The operations page's address (?search=&state=&method=&from=&to=&min=&max=&sort=) read as the
// filters of console.operations, by the table and by its CSV export alike: one reading, one
// set of rows. Days are calendar days of the business time zone (BUSINESS_TIME_ZONE, the zone the
// console shows every instant in); amounts are soles ("150", "150.5", "150,50").

/** A calendar day that exists (2026-02-30 and 2026-13-45 do not: their Date is another day, or none). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  });

const soles = z.string().transform((value, context) => {
  const cents = centsOfTypedAmount(value);
  if (cents === null) {
    context.addIssue({ code: 'custom', message: 'must be an amount in soles with at most two decimals' });
    return z.NEVER;
  }
  return cents.toString();
});

/** An absent or blank parameter is no filter. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined), schema.optional());

const urlFilters = z.object({
  search: optional(shortText(128)),
  state: optional(z.enum(TRANSACTION_STATES)),
  method: optional(z.enum(PAYMENT_METHODS)),
  from: optional(day.transform((value) => startOfDay(value, env().BUSINESS_TIME_ZONE).toISOString())),
  to: optional(day.transform((value) => endOfDayExclusive(value, env().BUSINESS_TIME_ZONE).toISOString())),
  min: optional(soles),
  max: optional(soles),
  sort: optional(z.enum(OPERATION_SORTS)),
});

export type OperationsUrl =
  | { ok: true; filters: Omit<OperationFiltersInput, 'cursor' | 'before' | 'limit' | 'merchantCode'> }
  | { ok: false; invalid: string[] };

/** The filters of the page's parameters, or the names of those that are not valid. */
export function operationsUrlFilters(params: Record<string, string | undefined>): OperationsUrl {
  const parsed = urlFilters.safeParse(params);
  if (!parsed.success) return { ok: false, invalid: [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))] };
  const { min, max, ...rest } = parsed.data;
  return { ok: true, filters: { ...rest, minAmount: min, maxAmount: max } };
}
