import { verifyCallbackSignature } from './callbacks.js';
import { DEFAULT_RETRY, sleep } from './retry.js';
import { send, type FetchLike, type TransportConfig } from './transport.js';

// The published callback key: GET {base_url}/webhooks/public-key (public, no token), as PEM.

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

/** A refused signature fetches the key again at most this often (it may have rotated). */
const REFETCH_AFTER_MS = 60_000;

/** The client's `callbacks`: the key fetched once and kept, and a verifier over it. */
export function callbackVerifier(baseUrl: string, transport: TransportConfig, now: () => number) {
  let held: { pem: string; at: number } | undefined;
  const refresh = async (call?: Call) => {
    const pem = await fetchPem(baseUrl, transport, call);
    held = { pem, at: now() };
    return pem;
  };
  return {
    /** The PEM that verifies callback signatures. */
    publicKey: async (call?: Call) => held?.pem ?? refresh(call),
    /**
     * Whether a callback's `signature` header signs its raw body under the published key. A
     * failure with a key held for over a minute fetches the key again once.
     */
    verify: async (rawBody: string | Uint8Array, signature: string | null | undefined, call?: Call) => {
      const pem = held?.pem ?? (await refresh(call));
      if (verifyCallbackSignature(rawBody, signature, pem)) return true;
      if (!held || now() - held.at < REFETCH_AFTER_MS) return false;
      const fresh = await refresh(call);
      return fresh !== pem && verifyCallbackSignature(rawBody, signature, fresh);
    },
  };
}
