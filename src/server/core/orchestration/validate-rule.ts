import type { z } from 'zod';
import type { PaymentMethod } from '@/server/core/domain/states';
import {
  CARD_CONDITIONS,
  CURRENCY_CODES,
  route as routeSchema,
  ruleRoutes,
  type ConnectorFacts,
  type Route,
  type RuleRoutes,
} from './routes';

// A rule is checked before it is kept as a draft (docs/ORCHESTRATION.md 2): its shape first (zod),
// then what only the connectors and the method can tell: unknown or disabled connector, a
// condition no payment can meet, a condition the connector cannot serve. Every problem is one
// error naming its field, so the console can show each beside its input.

export type RuleErrorCode =
  | 'unknown_connector'
  | 'disabled_connector'
  | 'method_not_supported'
  | 'currency_not_supported'
  | 'instalments_not_supported'
  | 'duplicate_connector'
  | 'never_matches';

/** `code` is one of `RuleErrorCode`, or zod's issue code for a shape error (`invalid_type`, `too_small`, …). */
export type RuleError = { field: string; code: string; message: string };

/** An error this module finds beyond the shape: its code is one of ours. */
type CheckError = RuleError & { code: RuleErrorCode };

export type RuleValidation = { ok: true; routes: RuleRoutes } | { ok: false; errors: RuleError[] };

/** `routes[0].conditions.amount_min` from zod's path `[0, 'conditions', 'amount_min']`. */
export function fieldOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (field, key) => (typeof key === 'number' ? `${field}[${key}]` : `${field}.${String(key)}`),
    'routes',
  );
}

function shapeErrors(error: z.ZodError): RuleError[] {
  return error.issues.flatMap((issue): RuleError[] =>
    // One error per unknown key, on the key itself, rather than one on the object listing them.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: fieldOf([...issue.path, key]), code: issue.code, message: 'is not a known field' }))
      : [{ field: fieldOf(issue.path), code: issue.code, message: issue.message }],
  );
}

/** The currencies a method's payments can be in (docs/DESIGN.md 7: YAPE and QR, PEN only). */
const METHOD_CURRENCIES: Readonly<Record<PaymentMethod, readonly string[]>> = {
  CARD: CURRENCY_CODES,
  YAPE: ['604'],
  BANK_TRANSFER: CURRENCY_CODES,
  CUOTEALO: CURRENCY_CODES,
  PAGOEFECTIVO: CURRENCY_CODES,
  QR: ['604'],
};

function emptyList(field: string): CheckError {
  return {
    field,
    code: 'never_matches',
    message: 'an empty list matches no payment; leave the condition out to match every payment',
  };
}

type Checked = { index: number; route: Route };

function connectorErrors(
  { route }: Checked,
  at: string,
  method: PaymentMethod,
  connector: ConnectorFacts | undefined,
): CheckError[] {
  const field = `${at}.connector`;
  if (connector === undefined) {
    return [{ field, code: 'unknown_connector', message: `there is no connector "${route.connector}"` }];
  }
  if (!connector.enabled) {
    return [{ field, code: 'disabled_connector', message: `connector "${connector.id}" is disabled` }];
  }
  if (!connector.methods.includes(method)) {
    const carries = connector.methods.join(', ');
    return [
      {
        field,
        code: 'method_not_supported',
        message: `connector "${connector.id}" does not carry ${method} payments (it carries ${carries})`,
      },
    ];
  }
  return [];
}

function conditionErrors(
  { route }: Checked,
  at: string,
  method: PaymentMethod,
  // Only a connector that exists and carries the method is held to its capabilities: otherwise
  // its connector error says all there is to say.
  connector: ConnectorFacts | null,
): CheckError[] {
  const errors: CheckError[] = [];
  const conditions = route.conditions;
  const field = (key: string) => `${at}.conditions.${key}`;

  for (const key of CARD_CONDITIONS) {
    const value = conditions[key];
    if (value === undefined) continue;
    if (method !== 'CARD') {
      errors.push({
        field: field(key),
        code: 'never_matches',
        message: `card conditions apply only to CARD payments; no ${method} payment can meet ${key}`,
      });
    } else if (typeof value !== 'boolean') {
      if (value.length === 0) errors.push(emptyList(field(key)));
    } else if (value && connector !== null && !connector.capabilities.instalments) {
      errors.push({
        field: field(key),
        code: 'instalments_not_supported',
        message: `connector "${connector.id}" does not take payments in instalments`,
      });
    }
  }

  const { amount_min, amount_max } = conditions;
  if (amount_min !== undefined && amount_max !== undefined && BigInt(amount_min) > BigInt(amount_max)) {
    errors.push({
      field: field('amount_max'),
      code: 'never_matches',
      message: `must be at least amount_min (${amount_min}): no amount is both at least ${amount_min} and at most ${amount_max}`,
    });
  }

  const currencies = conditions.currencies;
  if (currencies?.length === 0) errors.push(emptyList(field('currencies')));
  currencies?.forEach((currency, position) => {
    const entry = `${field('currencies')}[${position}]`;
    if (!METHOD_CURRENCIES[method].includes(currency)) {
      const only = METHOD_CURRENCIES[method].join(', ');
      errors.push({
        field: entry,
        code: 'never_matches',
        message: `${method} payments are only in ${only}; none is in ${currency}`,
      });
    } else if (connector !== null && !connector.currencies.includes(currency)) {
      errors.push({
        field: entry,
        code: 'currency_not_supported',
        message: `connector "${connector.id}" does not take payments in ${currency}`,
      });
    }
  });
  return errors;
}

/**
 * Validates a rule sent for `method`: `{ ok: true, routes }` with defaults applied, or every
 * error, shape errors first, then the others route by route. Routes with a valid shape are
 * checked against the connectors even when another route's shape is wrong, so one save shows
 * every problem.
 */
export function validateRule(input: unknown, method: PaymentMethod, connectors: readonly ConnectorFacts[]): RuleValidation {
  const parsed = ruleRoutes.safeParse(input);
  const errors: RuleError[] = parsed.success ? [] : shapeErrors(parsed.error);

  const items: readonly unknown[] = Array.isArray(input) ? input : [];
  const checked: Checked[] = parsed.success
    ? parsed.data.map((route, index) => ({ index, route }))
    : items.flatMap((item, index) => {
        const one = routeSchema.safeParse(item);
        return one.success ? [{ index, route: one.data }] : [];
      });

  const connectorById = new Map(connectors.map((connector) => [connector.id, connector]));
  const firstAtPriority = new Map<string, number>();
  for (const item of checked) {
    const at = `routes[${item.index}]`;
    const connector = connectorById.get(item.route.connector);
    errors.push(...connectorErrors(item, at, method, connector));
    const usable = connector !== undefined && connector.methods.includes(method) ? connector : null;
    errors.push(...conditionErrors(item, at, method, usable));

    // Two routes of one connector in one priority would split the volume with itself; a second
    // route of a connector at another priority is fine (a fallback with other conditions).
    const key = `${item.route.priority}\u0000${item.route.connector}`;
    const first = firstAtPriority.get(key);
    if (first === undefined) {
      firstAtPriority.set(key, item.index);
    } else {
      errors.push({
        field: `${at}.connector`,
        code: 'duplicate_connector',
        message: `connector "${item.route.connector}" already has a route at priority ${item.route.priority} (routes[${first}]); give one of them another priority`,
      });
    }
  }

  if (parsed.success && errors.length === 0) return { ok: true, routes: parsed.data };
  return { ok: false, errors };
}
