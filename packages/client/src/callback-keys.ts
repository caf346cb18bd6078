import { verifyCallbackSignature } from './callbacks.js';
import { DEFAULT_RETRY, sleep } from './retry.js';
import { send, type FetchLike, type TransportConfig } from './transport.js';

// The published callback keys (public, no token): GET {base_url}/webhooks/public-key, the key
// signing now as PEM, and GET {base_url}/webhooks/keys, every key of a rotation's overlap.

type Call = { signal?: AbortSignal };

/** The key once; for a receiver that has no API credentials (retried like any GET). */
export async function fetchCallbackPublicKey(baseUrl: string, options: { fetch?: FetchLike; signal?: AbortSignal } = {}) {
  const transport: TransportConfig = {
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    retry: DEFAULT_RETRY,
    timeoutMs: 30_000,
    random: Math.random,
    sleep,
  };
  return fetchPem(baseUrl.replace(/\/+$/, ''), transport, options);
}

async function fetchPem(baseUrl: string, transport: TransportConfig, call?: Call): Promise<string> {
  const answer = await send(
    { method: 'GET', url: `${baseUrl}/webhooks/public-key`, headers: {}, replaySafe: true, read: 'text', signal: call?.signal },
    transport,
  );
  return answer.body as string;
}

/** The keys of GET {base_url}/webhooks/keys (a JWK Set with each key's PEM), by key id. */
async function fetchKeySet(baseUrl: string, transport: TransportConfig, call?: Call): Promise<Record<string, string>> {
  const answer = await send(
    { method: 'GET', url: `${baseUrl}/webhooks/keys`, headers: {}, replaySafe: true, read: 'json', signal: call?.signal },
    transport,
  );
  const { keys } = answer.body as { keys: { kid: string; pem: string }[] };
  return Object.fromEntries(keys.map((key) => [key.kid, key.pem]));
}

/** A refused signature, or a key id not held, fetches the keys again at most this often (they may have rotated). */
const REFETCH_AFTER_MS = 60_000;
const UNKNOWN_KEY_REFETCH_MS = 5_000;

type VerifyCall = Call & { /** The callback's `signature-key-id` header. */ keyId?: string | null };

/** The client's `callbacks`: the published keys fetched once and kept, and a verifier over them. */
export function callbackVerifier(baseUrl: string, transport: TransportConfig, now: () => number) {
  let held: { keys: Record<string, string>; at: number } | undefined;
  const refresh = async (call?: Call) => {
    held = { keys: await fetchKeySet(baseUrl, transport, call), at: now() };
    return held.keys;
  };
  return {
    /** The PEM of the key that signs callbacks now. */
    publicKey: (call?: Call) => fetchPem(baseUrl, transport, call),
    /** Every key a callback may be signed with now, PEM by key id (two during a rotation's overlap). */
    keys: async (call?: Call) => held?.keys ?? refresh(call),
    /**
     * Whether a callback's `signature` header signs its raw body under a published key: the one
     * its `signature-key-id` names (pass it as `keyId`), else any. A key id not held, or a failure
     * with keys held for over a minute, fetches the keys again once.
     */
    verify: async (rawBody: string | Uint8Array, signature: string | null | undefined, call?: VerifyCall) => {
      const keyId = call?.keyId ?? undefined;
      let keys = held?.keys ?? (await refresh(call));
      const unknown = keyId !== undefined && !Object.hasOwn(keys, keyId);
      if (unknown && held && now() - held.at >= UNKNOWN_KEY_REFETCH_MS) keys = await refresh(call);
      if (verifyCallbackSignature(rawBody, signature, keys, keyId)) return true;
      if (!held || now() - held.at < REFETCH_AFTER_MS) return false;
      return verifyCallbackSignature(rawBody, signature, await refresh(call), keyId);
    },
  };
}
