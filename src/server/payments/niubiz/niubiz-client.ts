import { createHash } from 'node:crypto';
import { field, processorApi, text, type ApiCall, type ProcessorAnswer } from '../processor-http';
import type { ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';

// Niubiz's REST APIs as one account calls them (docs/processors/niubiz.md; research notes
// docs/processors/sources/niubiz-api.md, cited below as "research §N"). One host per environment
// (research §1.1: apitestenv.vnforapps.com for test, apiprod.vnforapps.com for live); the API user
// and password are used only against the security API, which answers a JWT as plain text; every
// other call sends that token raw in `Authorization`, without `Bearer` (research §1.3, §2:
// [PW-PDF], [K-obs] observed). The merchant code goes in the path of every operation (§1.2).

export type NiubizClient = {
  merchantId: string;
  /** The merchant's RUC, which refunds carry when the account has one. */
  taxId: string | null;
  /** One call with the account's security token: renewed once when Niubiz answers 401 (research §2: "se debe generar uno nuevo"). */
  call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    options?: { body?: unknown; signal?: AbortSignal },
  ): Promise<ProcessorAnswer>;
  /** The security API alone, for the account check: `ok`, `refused` (credentials), or why not. */
  security(signal?: AbortSignal): Promise<SecurityAnswer>;
};

type SecurityAnswer =
  | { kind: 'token'; token: string; expiresAt: number }
  | { kind: 'denied'; status: number; body: string }
  | { kind: 'refused' }
  | { kind: 'lost' };

/**
 * The token's lifetime is not documented; observed JWTs carry `exp = iat + 3600` (research §2,
 * [K-obs], 2022; §17.2 unconfirmed). So the token is kept until a minute before its own `exp`,
 * and, when its payload cannot be read, for 10 minutes (our choice); a 401 renews it anyway.
 */
const RENEW_BEFORE_MS = 60_000;
const UNREADABLE_TOKEN_MS = 10 * 60_000;

function expiryOf(token: string, now: number): number {
  const payload = token.split('.')[1];
  if (payload) {
    try {
      const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
      if (typeof exp === 'number' && Number.isFinite(exp)) return exp * 1000 - RENEW_BEFORE_MS;
    } catch {
      // Not a JWT we can read: kept briefly.
    }
  }
  return now + UNREADABLE_TOKEN_MS;
}

/**
 * GET /api.security/v1/security with Basic(user:password) → 201 text/plain JWT (research §2;
 * GET observed [K-obs], POST in [PW-PDF]; both work). Nothing here is logged.
 */
async function requestToken(api: ApiCall, account: ProcessorAccountConfig, signal?: AbortSignal): Promise<SecurityAnswer> {
  const basic = Buffer.from(`${account.apiUser ?? ''}:${account.secretKey}`, 'utf8').toString('base64');
  const answer = await api('GET', '/api.security/v1/security', {
    headers: { accept: 'text/plain', authorization: `Basic ${basic}` },
    signal,
  });
  if (answer.kind !== 'answered') return answer;
  const body = answer.text.trim();
  if ((answer.status === 201 || answer.status === 200) && body !== '' && !body.startsWith('{')) {
    return { kind: 'token', token: body, expiresAt: expiryOf(body, Date.now()) };
  }
  return { kind: 'denied', status: answer.status, body: body.slice(0, 200) };
}

/** Tokens per account (its host, user and password), in this process's memory only. */
const TOKENS = new Map<string, { token: string; expiresAt: number }>();

function cacheKey(base: string, account: ProcessorAccountConfig): string {
  return createHash('sha256')
    .update(`${base}\n${account.apiUser ?? ''}\n${account.secretKey}`)
    .digest('hex');
}

export function niubizBase(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): string {
  return account.environment === 'live' ? endpoints.niubizApi.live : endpoints.niubizApi.test;
}

export function niubizClient(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): NiubizClient {
  const base = niubizBase(account, endpoints);
  const api: ApiCall = processorApi(base, endpoints.timeoutMs);
  const key = cacheKey(base, account);

  async function token(renew: boolean, signal?: AbortSignal): Promise<SecurityAnswer> {
    const cached = TOKENS.get(key);
    if (!renew && cached && cached.expiresAt > Date.now()) return { kind: 'token', ...cached };
    const answer = await requestToken(api, account, signal);
    if (answer.kind === 'token') TOKENS.set(key, { token: answer.token, expiresAt: answer.expiresAt });
    else TOKENS.delete(key);
    return answer;
  }

  /**
   * A security answer that is not a token, as the answer of the call it was for: credentials
   * refused (401) or another status; a token request refused or lost means the operation itself
   * was never sent, so nothing was done (`refused`).
   */
  const asAnswer = (answer: Exclude<SecurityAnswer, { kind: 'token' }>): ProcessorAnswer =>
    answer.kind === 'denied'
      ? {
          kind: 'answered',
          status: answer.status === 401 ? 401 : 502,
          body: { securityError: answer.body },
          text: answer.body,
          headers: new Headers(),
        }
      : { kind: 'refused' };

  return {
    merchantId: account.publicKey,
    taxId: account.taxId,
    async call(method, path, { body, signal } = {}) {
      for (const renew of [false, true]) {
        const current = await token(renew, signal);
        if (current.kind !== 'token') return asAnswer(current);
        const answer = await api(method, path, { headers: { authorization: current.token }, body, signal });
        // An expired or revoked token: renewed once (the lead's decision; research §2, [flow] 401).
        if (answer.kind === 'answered' && answer.status === 401 && !renew) continue;
        return answer;
      }
      throw new Error('unreachable');
    },
    security: (signal) => token(true, signal),
  };
}

/**
 * Cents as Niubiz's amounts: a JSON number of major units with at most two decimals, "Formato
 * ####.##" (research §1.3, [PW-PDF]). A JSON number cannot keep trailing zeros (150.00 is 150).
 */
export function niubizAmount(cents: bigint): number {
  return Number(cents) / 100;
}

/** Niubiz's amount (number or `"10.5"` string, research §1.3) in cents; null when it is not one. */
export function centsOf(value: unknown): bigint | null {
  const raw = typeof value === 'number' ? value.toFixed(2) : typeof value === 'string' ? value : null;
  if (raw === null || !/^\d+(\.\d{1,2})?$/.test(raw)) return null;
  const [major, minor = ''] = raw.split('.');
  return BigInt(major!) * 100n + BigInt(minor.padEnd(2, '0'));
}

/**
 * The purchaseNumber of an attempt: numeric, "único por intento de autorización", at most nine
 * digits (research §3, §14: [PW-PDF]; the sandbox accepted 10–12 but the documented limit is 9).
 * Niubiz keeps no idempotency key and has no lookup by our id, so the number is derived from our
 * transaction id alone (a SHA-256 of it, modulo 10⁹): a status inquiry after a lost answer
 * (which knows only the transaction) finds the payment by it (retrieve/purchase, research §8).
 * `createdAt` is not mixed in (it is not known to every caller that holds the id alike); it is
 * used instead to reject a record of another payment with the same number (niubiz-records.ts).
 * Collision bound: among N attempts of one merchant code inside Niubiz's uniqueness window
 * (undocumented: per day or forever, research §17.8), the expected number of colliding pairs is
 * N²/(2·10⁹): 0.0005 for 1,000, 0.05 for 10,000, 1 for ~44,700. A collision is answered 300
 * ("Número de pedido del comercio duplicado"), class technical: the service's retry is a new
 * attempt, with a new id and number; it never charges twice.
 */
export function purchaseNumberOf(transactionId: string): string {
  const digest = createHash('sha256').update(transactionId).digest();
  return String(digest.readBigUInt64BE(0) % 1_000_000_000n);
}

export const dataMapOf = (body: unknown): Record<string, unknown> | undefined => {
  const data = field(body, 'dataMap') ?? field(body, 'data');
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
};

/** A member of `dataMap` (approvals) or `data` (declines), research §4.3 ([presta], [ivp], [odoo]). */
export function mapText(body: unknown, name: string): string | undefined {
  return text(dataMapOf(body)?.[name]);
}

export function orderText(body: unknown, name: string): string | undefined {
  return text(field(field(body, 'order'), name));
}

export { field, text };
