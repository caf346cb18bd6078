import { verify, type KeyObject } from 'node:crypto';

// The callbacks' `signature` header: base64 RSA-SHA512 over the raw body, by the key its
// `signature-key-id` header names ({base_url}/webhooks/keys publishes every key of a rotation's
// overlap). The verifier takes several keys: a list (each is tried) or a map by key id (the
// named one, else each).

export type PublicKey = string | KeyObject;
export type CallbackKeys = PublicKey | readonly PublicKey[] | Readonly<Record<string, PublicKey>>;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function isKey(keys: CallbackKeys): keys is PublicKey {
  return typeof keys === 'string' || (typeof keys === 'object' && 'asymmetricKeyType' in keys);
}

/** The keys to try: the one `keyId` names when the keys are a map, else all of them. */
function candidates(keys: CallbackKeys, keyId: string | null | undefined): PublicKey[] {
  if (isKey(keys)) return [keys];
  if (Array.isArray(keys)) return [...(keys as readonly PublicKey[])];
  const byId = keys as Readonly<Record<string, PublicKey>>;
  if (keyId) return Object.hasOwn(byId, keyId) ? [byId[keyId]!] : [];
  return Object.values(byId);
}

/**
 * Whether `signature` (the header's value) signs `rawBody` under one of `keys`. Pass the body
 * exactly as received, before any JSON parsing: a re-serialized body does not verify. A missing
 * or malformed signature is simply not valid; an unreadable key throws (a configuration fault).
 */
export function verifyCallbackSignature(
  rawBody: string | Uint8Array,
  signature: string | null | undefined,
  keys: CallbackKeys,
  keyId?: string | null,
): boolean {
  const encoded = signature?.trim() ?? '';
  if (!BASE64.test(encoded)) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const decoded = Buffer.from(encoded, 'base64');
  return candidates(keys, keyId).some((key) => verify('sha512', body, key, decoded));
}
