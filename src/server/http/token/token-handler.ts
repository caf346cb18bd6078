import { AppError } from '@/server/core/domain/errors';
import { db } from '@/server/platform/db/client';
import { issueToken } from '@/server/modules/access/issue-token';
import { errorReply, jsonReply } from '@/server/platform/http/json-response';
import type { ApiRequest, ApiReply } from '@/server/platform/http/api-request';
import { parseJsonBody, readBodyText } from '@/server/platform/http/read-json-body';
import { requestIdOf } from '@/server/platform/http/request-id';
import { env } from '@/env';
import { clientAddress, takeToken } from '@/server/platform/rate-limit/rate-limit';
import { toAppError } from '@/server/api/errors/to-app-error';
import { requestedApiVersion } from '@/server/api/trpc';
import { logError } from '@/server/platform/log';
import { basicChallenge } from '@/server/platform/http/challenges';
import { oauthError } from '@/server/modules/access/oauth-error';
import { clientAuthMethod, withClientCredentials, type ClientAuthMethod } from './client-authentication';

// POST {auth_url}/token: JSON or RFC 6749 form bodies, the envelope plus `error` on failure.

const TOKEN_PARAMETERS = new Set(['action', 'grant_type', 'audience', 'client_id', 'client_secret', 'scope']);

/** RFC 6749 3.1: a parameter at most once; RFC 8707 2: `resource` may repeat. */
function parseForm(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const earlier = fields[name];
    if (earlier === undefined) fields[name] = value;
    else if (name === 'resource') fields[name] = [earlier, value].flat();
    // Named only when it is one of the endpoint's (the answer never repeats what the client sent).
    else if (TOKEN_PARAMETERS.has(name)) throw oauthError('invalid_request', `${name} is sent more than once`, name);
    else throw oauthError('invalid_request', 'a parameter is sent more than once');
  }
  return fields;
}

function parseTokenBody(text: string, contentType: string | null): unknown {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') return parseForm(text);
  return parseJsonBody(text, contentType);
}

/** Every token-endpoint failure carries RFC 6749's `error` and `error_description`. */
function withOAuthError(failure: AppError, method: ClientAuthMethod): AppError {
  // RFC 6749 5.2: a client that failed HTTP Basic gets the Basic challenge; one that sent its
  // secret in the body gets none (it did not use HTTP authentication, and a challenge makes
  // standard clients report it instead of `invalid_client`).
  const headers =
    failure.extras.error === 'invalid_client' && method === 'client_secret_basic'
      ? { ...failure.headers, 'WWW-Authenticate': basicChallenge() }
      : failure.headers;
  const error =
    failure.extras.error ??
    (failure.status === 429 || failure.status === 503
      ? 'temporarily_unavailable'
      : failure.status >= 500
        ? 'server_error'
        : 'invalid_request');
  return new AppError(failure.kind, failure.message, {
    errors: failure.errors,
    headers,
    extras: { error, error_description: failure.extras.error_description ?? failure.message },
  });
}

export async function handleTokenRequest(request: ApiRequest): Promise<ApiReply> {
  const requestId = requestIdOf(request.headers);
  const authorization = request.headers.get('authorization');
  const claimedMethod = clientAuthMethod(authorization);
  try {
    const sent = parseTokenBody(await readBodyText(request), request.headers.get('content-type'));
    requestedApiVersion(request.headers.get('alg-api-version'));
    const config = env();
    await takeToken(
      `token-address:${clientAddress(request.headers)}`,
      config.TOKEN_RATE_PER_ADDRESS,
      config.TOKEN_RATE_PER_ADDRESS * 2,
    );
    const body = withClientCredentials(sent, authorization);
    const clientId = (body as { client_id?: unknown } | null)?.client_id;
    // Only a client_id that could be valid gets a bucket (no unbounded keys); others fail validation.
    if (typeof clientId === 'string' && clientId.length <= 128) {
      await takeToken(`token-client:${clientId}`, config.TOKEN_RATE_PER_CLIENT, config.TOKEN_RATE_PER_CLIENT * 2);
    }
    const answer = await issueToken(await db(), body);
    return jsonReply(answer, 200, { 'x-request-id': requestId, pragma: 'no-cache' });
  } catch (error) {
    const failure = toAppError(error);
    if (failure.kind === 'INTERNAL') logError('token request failed', error, { requestId });
    return errorReply(withOAuthError(failure, claimedMethod), 'boolean', requestId);
  }
}
