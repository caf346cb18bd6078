import { AppError } from '@/server/domain/errors';
import { db } from '@/server/db/client';
import { issueToken } from '@/server/services/issue-token';
import { errorReply, jsonReply } from '../rest/json-response';
import type { ApiRequest, ApiReply } from '../rest/api-request';
import { parseJsonBody, readBodyText } from '../rest/read-json-body';
import { requestIdOf } from '../rest/request-id';
import { env } from '@/env';
import { clientAddress, takeToken } from '../rate-limit/rate-limit';
import { toAppError } from '../errors/to-app-error';
import { SUPPORTED_API_VERSIONS } from '../trpc';
import { logError } from '@/server/log';

// POST {auth_url}/token: JSON or RFC 6749 form bodies, the envelope plus `error` on failure.
function parseTokenBody(text: string, contentType: string | null): unknown {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  return parseJsonBody(text, contentType);
}

/** Every token-endpoint failure carries RFC 6749's `error` and `error_description`. */
function withOAuthError(failure: AppError): AppError {
  if (failure.extras.error) return failure;
  const error = failure.status >= 500 ? 'server_error' : failure.status === 429 ? 'temporarily_unavailable' : 'invalid_request';
  return new AppError(failure.kind, failure.message, {
    errors: failure.errors,
    headers: failure.headers,
    extras: { error, error_description: failure.message },
  });
}

export async function handleTokenRequest(request: ApiRequest): Promise<ApiReply> {
  const requestId = requestIdOf(request.headers);
  try {
    const body = parseTokenBody(await readBodyText(request), request.headers.get('content-type'));
    const version = request.headers.get('alg-api-version');
    if (version === null || !SUPPORTED_API_VERSIONS.has(version.trim())) {
      throw new AppError('API_VERSION', 'ALG-API-VERSION must be 1709847567');
    }
    const config = env();
    await takeToken(
      `token-address:${clientAddress(request.headers)}`,
      config.TOKEN_RATE_PER_ADDRESS,
      config.TOKEN_RATE_PER_ADDRESS * 2,
    );
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
    return errorReply(withOAuthError(failure), 'boolean', requestId);
  }
}
