import { z } from 'zod';
import type { CardBrand, CardDescription } from '@/server/core/domain/card';
import { CURRENCIES, type CurrencyCode } from '@/server/core/domain/money';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { ConnectorCapabilities } from '@/server/core/domain/capabilities';

// A merchant's routing rule for one method (docs/ORCHESTRATION.md 2): an ordered list of routes,
// each naming a connector, with a priority, a weight within its priority and conditions. This is
// the JSON kept in `routing_rules.routes` and sent by the console and the CLI.

export type CardType = CardDescription['card_type'];

// Records rather than lists, so the type checker fails here when domain/card.ts gains or loses a
// brand or a card type: a rule can name exactly what a described card can carry.
const BRANDS: { readonly [B in CardBrand]: B } = {
  VISA: 'VISA',
  MASTERCARD: 'MASTERCARD',
  AMEX: 'AMEX',
  DINERS: 'DINERS',
  DISCOVER: 'DISCOVER',
};
const CARD_TYPES: { readonly [T in CardType]: T } = { CREDIT: 'CREDIT', DEBIT: 'DEBIT', PREPAID: 'PREPAID' };

export const CARD_BRANDS = Object.values(BRANDS);
export const CARD_TYPE_VALUES = Object.values(CARD_TYPES);
export const CURRENCY_CODES = Object.keys(CURRENCIES) as [CurrencyCode, ...CurrencyCode[]];

/** Amounts as the interface writes them (docs/DESIGN.md 7): cents, 1 to 12 digits, no leading zero. */
const CENTS = /^[1-9]\d{0,11}$/;
/** Issuers now assign 8-digit BINs; a prefix may be any leading part of one. */
const BIN_PREFIX = /^\d{1,8}$/;
/** ISO 3166 alpha-2, as `card_country` carries it (format only: the sandbox BIN table decides which exist). */
const COUNTRY = /^[A-Z]{2}$/;

const list = (what: string) => `must be a list of ${what}`;

export const routeConditions = z.strictObject({
  brands: z
    .array(z.enum(BRANDS, { error: `must be one of ${CARD_BRANDS.join(', ')}` }), { error: list('card brands') })
    .optional(),
  bin_prefixes: z
    .array(z.string().regex(BIN_PREFIX, 'must be 1 to 8 digits'), { error: list('BIN prefixes') })
    .max(500, 'must hold at most 500 BIN prefixes')
    .optional(),
  card_types: z
    .array(z.enum(CARD_TYPES, { error: `must be one of ${CARD_TYPE_VALUES.join(', ')}` }), { error: list('card types') })
    .optional(),
  card_countries: z
    .array(z.string().regex(COUNTRY, 'must be an ISO 3166 alpha-2 country code in capitals, such as PE'), {
      error: list('country codes'),
    })
    .max(250, 'must hold at most 250 countries')
    .optional(),
  amount_min: z
    .string({ error: 'must be an amount in cents written as a string' })
    .regex(CENTS, 'must be an amount in cents: digits only, no leading zero, at most 12 digits')
    .optional(),
  amount_max: z
    .string({ error: 'must be an amount in cents written as a string' })
    .regex(CENTS, 'must be an amount in cents: digits only, no leading zero, at most 12 digits')
    .optional(),
  currencies: z
    .array(z.enum(CURRENCY_CODES, { error: 'must be 604 (PEN) or 840 (USD)' }), { error: list('currency codes') })
    .optional(),
  instalments: z
    .boolean({ error: 'must be true (only payments in more than one instalment) or false (only payments without)' })
    .optional(),
});

const percentLike = (what: string) =>
  z
    .int(`${what} must be a whole number from 1 to 100`)
    .min(1, `${what} must be a whole number from 1 to 100`)
    .max(100, `${what} must be a whole number from 1 to 100`);

export const route = z.strictObject({
  connector: z
    .string({ error: 'must be a connector id' })
    .min(1, 'must be a connector id')
    .max(64, 'must be at most 64 characters'),
  /** Lower first: priority 1 is tried before priority 2. */
  priority: percentLike('priority'),
  /** Share of its priority's volume, relative to the other routes of that priority. */
  weight: percentLike('weight').default(100),
  conditions: routeConditions.default({}),
});

export const ruleRoutes = z
  .array(route, { error: 'must be a list of routes' })
  .min(1, 'must hold at least one route')
  .max(20, 'must hold at most 20 routes');

export type RouteConditions = z.output<typeof routeConditions>;
export type Route = z.output<typeof route>;
export type RuleRoutes = z.output<typeof ruleRoutes>;
/** A rule as the console or the CLI sends it (weights and conditions may be left out). */
export type RuleRoutesInput = z.input<typeof ruleRoutes>;

/** What routing knows of a payment. `stableKey` is the caller's hash of merchant code and operation number. */
export type PaymentFacts = {
  method: PaymentMethod;
  amount: bigint;
  currency: string;
  brand: string | null;
  bin: string | null;
  cardType: string | null;
  cardCountry: string | null;
  instalments: number;
  /** Authorized now and captured later: only a connector with `separateCapture` carries it. */
  captureLater: boolean;
  /** A saved card's charge (`card_id`): only a connector eligible for it carries it (evaluate-routes.ts). */
  savedCard?: SavedCardRouting;
  stableKey: string;
};

/** What routing knows of a saved card's charge (../shared CARD-ON-FILE.md 5). */
export type SavedCardRouting = {
  initiator: 'CUSTOMER' | 'MERCHANT';
  /** The charge came with the card's security code (a one-click charge may). */
  securityCode: boolean;
  /** The connectors that hold a token of their own for the card. */
  tokenAt: readonly string[];
};

/** What routing knows of a connector: its declaration and whether the platform has it enabled. */
export type ConnectorFacts = {
  id: string;
  methods: readonly PaymentMethod[];
  currencies: readonly string[];
  capabilities: ConnectorCapabilities;
  enabled: boolean;
};

/**
 * Conditions about the card. Only CARD payments have them: a YAPE payment carries a wallet card
 * (BIN and last four) but the wallet, not the card, decides where it goes, so its card is not
 * routable; instalments exist only for cards (docs/interface.md 2.3).
 */
export const CARD_CONDITIONS = ['brands', 'bin_prefixes', 'card_types', 'card_countries', 'instalments'] as const;

function listHas(values: readonly string[], value: string | null): value is string {
  return value !== null && values.includes(value);
}

function amountHeld(min: string | undefined, max: string | undefined): string {
  if (min !== undefined && max !== undefined) return `amount ${min} to ${max}`;
  return min !== undefined ? `amount at least ${min}` : `amount at most ${max}`;
}

/**
 * What each condition of a route found in the payment (`brand VISA`, `currency 604`), for the
 * reason a transaction records; `null` when one of them does not hold. Every condition must hold
 * (a route is an AND of its conditions; alternatives are separate routes).
 */
export function heldConditions(conditions: RouteConditions, payment: PaymentFacts): string[] | null {
  const held: string[] = [];
  const hasCard = payment.method === 'CARD';
  const { brands, bin_prefixes, card_types, card_countries, amount_min, amount_max, currencies, instalments } = conditions;
  if (!hasCard && CARD_CONDITIONS.some((key) => conditions[key] !== undefined)) return null;

  if (brands !== undefined) {
    if (!listHas(brands, payment.brand)) return null;
    held.push(`brand ${payment.brand}`);
  }
  if (bin_prefixes !== undefined) {
    const bin = payment.bin;
    const prefix = bin === null ? undefined : bin_prefixes.find((candidate) => bin.startsWith(candidate));
    if (prefix === undefined) return null;
    held.push(`BIN ${prefix}`);
  }
  if (card_types !== undefined) {
    if (!listHas(card_types, payment.cardType)) return null;
    held.push(`card type ${payment.cardType}`);
  }
  if (card_countries !== undefined) {
    if (!listHas(card_countries, payment.cardCountry)) return null;
    held.push(`card country ${payment.cardCountry}`);
  }
  if (amount_min !== undefined || amount_max !== undefined) {
    // Both bounds are inclusive.
    if (amount_min !== undefined && payment.amount < BigInt(amount_min)) return null;
    if (amount_max !== undefined && payment.amount > BigInt(amount_max)) return null;
    held.push(amountHeld(amount_min, amount_max));
  }
  if (currencies !== undefined) {
    if (!listHas(currencies, payment.currency)) return null;
    held.push(`currency ${payment.currency}`);
  }
  if (instalments !== undefined) {
    const inInstalments = payment.instalments > 1;
    if (instalments !== inInstalments) return null;
    held.push(inInstalments ? `${payment.instalments} instalments` : 'no instalments');
  }
  return held;
}

/** Whether every condition of a route holds for the payment; card conditions never hold without a card. */
export function conditionsHold(conditions: RouteConditions, payment: PaymentFacts): boolean {
  return heldConditions(conditions, payment) !== null;
}

// The platform default (docs/ORCHESTRATION.md 2): each method's connectors in a fixed order.
const DEFAULT_CONNECTORS: Readonly<Record<PaymentMethod, readonly string[]>> = {
  CARD: ['sandbox-acquirer-a', 'sandbox-acquirer-b'],
  YAPE: ['sandbox-yape', 'sandbox-yape-b'],
  BANK_TRANSFER: ['sandbox-bank-transfer'],
  CUOTEALO: ['sandbox-cuotealo'],
  PAGOEFECTIVO: ['sandbox-pagoefectivo'],
  QR: ['sandbox-qr'],
};

/** The routes that apply when a merchant has no published rule for the method: one priority per connector, no conditions. */
export function defaultRoutes(method: PaymentMethod): RuleRoutes {
  return DEFAULT_CONNECTORS[method].map((connector, index) => ({ connector, priority: index + 1, weight: 100, conditions: {} }));
}
