import { answered, apiClient, type ApiClient } from './api.js';
import { verifyCallbackSignature } from './callbacks.js';
import { DEFAULT_RETRY, sleep } from './retry.js';
import { replaySafeByDefault, type FetchLike } from './transport.js';

// The published callback keys (public, no token): GET {base_url}/webhooks/public-key, the key
// signing now as PEM, and GET {base_url}/webhooks/keys, every key of a rotation's overlap.

type Call = { signal?: AbortSignal };

/** The key once; for a receiver that has no API credentials (retried like any GET). */
export async function fetchCallbackPublicKey(baseUrl: string, options: { fetch?: FetchLike; signal?: AbortSignal } = {}) {
  const api = apiClient(
    baseUrl.replace(/\/+$/, ''),
    {
      fetch: options.fetch ?? ((url, init) => fetch(url, init)),
      retry: DEFAULT_RETRY,
      timeoutMs: 30_000,
      random: Math.random,
      sleep,
    },
    replaySafeByDefault(),
  );
  return fetchPem(api, options);
}

async function fetchPem(api: ApiClient, call?: Call): Promise<string> {
  return answered(
    await api.GET('/webhooks/public-key', {
      parseAs: 'text',
      headers: { accept: 'application/x-pem-file' },
      ...api.abortable(call?.signal),
    }),
  );
}

/** The keys of GET {base_url}/webhooks/keys (a JWK Set with each key's PEM), by key id. */
async function fetchKeySet(api: ApiClient, call?: Call): Promise<Record<string, string>> {
  const { keys } = answered(await api.GET('/webhooks/keys', api.abortable(call?.signal)));
  return Object.fromEntries(keys.map((key) => [key.kid, key.pem]));
}

/** A refused signature, or a key id not held, fetches the keys again at most this often (they may have rotated). */
const REFETCH_AFTER_MS = 60_000;
const UNKNOWN_KEY_REFETCH_MS = 5_000;

type VerifyCall = Call & { /** The callback's `signature-key-id` header. */ keyId?: string | null };

/** The client's `callbacks`: the published keys fetched once and kept, and a verifier over them. */
export function callbackVerifier(api: ApiClient, now: () => number) {
  let held: { keys: Record<string, string>; at: number } | undefined;
  const refresh = async (call?: Call) => {
    held = { keys: await fetchKeySet(api, call), at: now() };
    return held.keys;
  };
  return {
    /** The PEM of the key that signs callbacks now. */
    publicKey: (call?: Call) => fetchPem(api, call),
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
