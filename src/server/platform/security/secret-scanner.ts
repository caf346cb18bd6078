// Finds card data, client secrets, passwords and processors' secrets in a text (a log line, a
// stored value): known values (the PANs, passwords and secrets a test run sent), values in context
// (a key named like one with a value: JSON, log text, form bodies, JSON kept inside a JSON string),
// the shapes the service issues (client secrets, first console passwords) and the shapes of the
// processors' secrets merchants connect (Culqi's secret keys, Mercado Pago's access tokens). Pure: the log-file and table scans
// both call it. A finding never carries the value itself, only its masked form.

export const SECRET_KINDS = ['PAN', 'CVV', 'EXPIRY', 'CLIENT_SECRET', 'PASSWORD', 'PROCESSOR_SECRET', 'TEXT'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

/** Values to look for as they are, by kind (`TEXT`: any other value that must not be kept). */
export type KnownValues = Partial<Record<'PAN' | 'CLIENT_SECRET' | 'PASSWORD' | 'TEXT', readonly string[]>>;

export type SecretHit = { kind: SecretKind; masked: string };

/** Where a scan found a value: a file (its first line holding it) or a table's column, and how many lines or rows. */
export type SecretFinding = SecretHit & { where: string; column?: string; line?: number; count: number };
type Position = { column: string } | { line: number };

// A key (optionally quoted, also as escaped JSON inside a JSON string), `:` or `=`, a value.
const keyed = (key: string, value: string) =>
  new RegExp(`(?<![A-Za-z0-9_])(?:${key})(?:\\\\?["'])?\\s*[:=]\\s*(?:\\\\?["'])?(${value})`, 'gi');
const FREE_VALUE = '[^\\s"\'&,;}\\\\]+';

const IN_CONTEXT: { kind: SecretKind; pattern: RegExp }[] = [
  { kind: 'PAN', pattern: keyed('pan', '\\d{12,19}(?!\\d)') },
  { kind: 'CVV', pattern: keyed('security_code|cvv2?|cvc2?', '\\d{3,4}(?!\\d)') },
  { kind: 'EXPIRY', pattern: keyed('expiry_date', '\\d{4}(?!\\d)') },
  { kind: 'CLIENT_SECRET', pattern: keyed('client_secret', FREE_VALUE) },
  { kind: 'PASSWORD', pattern: keyed('password', FREE_VALUE) },
  { kind: 'PROCESSOR_SECRET', pattern: keyed('webhook_?secret', FREE_VALUE) },
];

// Culqi's secret keys (sk_test_… / sk_live_…), Mercado Pago's access tokens
// (APP_USR-<client>-<date>-<32 hex>-<user>, or the legacy TEST- prefix), Izipay's REST passwords
// (testpassword_… / prodpassword_…) and webhook endpoints' signing secrets (whsec_…): only ever
// kept sealed. Niubiz's API password has no shape of its own to look for.
const PROCESSOR_SECRETS = [
  /(?<![A-Za-z0-9_])sk_(?:test|live)_[A-Za-z0-9]{8,}/g,
  /(?<![A-Za-z0-9_-])(?:APP_USR|TEST)-\d{6,20}-\d{6}-[0-9a-f]{32}-\d{6,20}/g,
  /(?<![A-Za-z0-9_])(?:test|prod)password_[A-Za-z0-9]{8,}/g,
  /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/]{40,}={0,2}/g,
];

const BASE64URL = 'A-Za-z0-9_\\-';
// newClientSecret(): 24 random bytes in base64url, 32 characters (random ones mix cases and digits);
// not a run inside standard base64 (a QR image), whose `+`, `/` and `=` would delimit it.
const ISSUED_SECRET = new RegExp(`(?<![${BASE64URL}+/=])[${BASE64URL}]{32}(?![${BASE64URL}+/=])`, 'g');
const MIXED = [/[A-Z]/, /[a-z]/, /\d/];
// newConsolePassword(): four groups of five characters of its alphabet, joined by `-`.
const PASSWORD_GROUP = '[abcdefghjkmnpqrstuvwxyz2-9]{5}';
const ISSUED_PASSWORD = new RegExp(`(?<![a-z0-9-])${PASSWORD_GROUP}(?:-${PASSWORD_GROUP}){3}(?![a-z0-9-])`, 'g');

/** The value with all but its first and last two characters starred (short ones all starred). */
export function maskSecret(value: string): string {
  if (value.length < 8) return '*'.repeat(value.length);
  return `${value.slice(0, 2)}${'*'.repeat(value.length - 4)}${value.slice(-2)}`;
}

function knownHits(text: string, known: KnownValues): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const [kind, values] of Object.entries(known) as [keyof KnownValues, readonly string[]][]) {
    for (const value of values) {
      const found = kind === 'PAN' ? new RegExp(`(?<!\\d)${value}(?!\\d)`).test(text) : value.length > 0 && text.includes(value);
      if (found) hits.push({ kind, masked: maskSecret(value) });
    }
  }
  return hits;
}

// A saved card shows its expiry beside at most its BIN and last 4 (its API object, its events, a
// charge's saved_card): without the PAN the expiry is no card data to protect (PCI DSS keeps it
// with the PAN only), so a text that names a last4 may carry it.
const SAVED_CARD_SHAPE = /(?<![A-Za-z0-9_])last4(?:\\?["'])?\s*[:=]/;

function patternHits(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  const savedCard = SAVED_CARD_SHAPE.test(text);
  for (const { kind, pattern } of IN_CONTEXT) {
    if (kind === 'EXPIRY' && savedCard) continue;
    for (const match of text.matchAll(pattern)) {
      const value = match[1]!;
      if (value !== 'null' && !/^\*+$/.test(value)) hits.push({ kind, masked: maskSecret(value) });
    }
  }
  for (const [match] of text.matchAll(ISSUED_SECRET)) {
    if (MIXED.every((pattern) => pattern.test(match))) hits.push({ kind: 'CLIENT_SECRET', masked: maskSecret(match) });
  }
  for (const [match] of text.matchAll(ISSUED_PASSWORD)) hits.push({ kind: 'PASSWORD', masked: maskSecret(match) });
  for (const pattern of PROCESSOR_SECRETS) {
    for (const [match] of text.matchAll(pattern)) hits.push({ kind: 'PROCESSOR_SECRET', masked: maskSecret(match) });
  }
  return hits;
}

/** Every secret in the text, once per kind and masked value. */
export function findSecrets(text: string, known: KnownValues): SecretHit[] {
  const unique = new Map<string, SecretHit>();
  for (const hit of [...knownHits(text, known), ...patternHits(text)]) unique.set(`${hit.kind} ${hit.masked}`, hit);
  return [...unique.values()];
}

/** Collects the hits of many texts of one place (a file's lines, a column's rows) into findings. */
export class FindingCollector {
  private readonly findings = new Map<string, SecretFinding>();

  add(where: string, position: Position, text: string, known: KnownValues): void {
    for (const hit of findSecrets(text, known)) {
      const key = [where, 'column' in position ? position.column : '', hit.kind, hit.masked].join('\n');
      const existing = this.findings.get(key);
      if (existing) existing.count += 1;
      else this.findings.set(key, { where, ...position, ...hit, count: 1 });
    }
  }

  list(): SecretFinding[] {
    return [...this.findings.values()];
  }
}
