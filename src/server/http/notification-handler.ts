import { db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { logError } from '@/server/platform/log';
import { receiveNotification } from '@/server/modules/notifications/receive-notification';
import { toAppError } from '@/server/api/errors/to-app-error';
import type { ApiReply, ApiRequest } from '@/server/platform/http/api-request';
import { errorReply, jsonReply } from '@/server/platform/http/json-response';
import { readBodyText } from '@/server/platform/http/read-json-body';
import { requestIdOf } from '@/server/platform/http/request-id';

// POST {base_url}/notifications/<processor>/<account id>: where a merchant's processor account
// sends its webhooks (docs/processors/README.md). Not an integrator's endpoint, so not in the
// OpenAPI document; its answers are the envelope's all the same. The processor retries anything
// but a 2xx: a notification already handled answers 200 again, and one the service could not
// check with the processor answers 503 so that it comes back.

export const NOTIFICATION_PATH = /^\/api\/notifications\/([a-z]+)\/([^/]+)$/;

export async function handleNotification(request: ApiRequest): Promise<ApiReply> {
  const requestId = requestIdOf(request.headers);
  const [, processor = '', accountId = ''] = NOTIFICATION_PATH.exec(request.path) ?? [];
  try {
    const body = await readBodyText(request);
    const outcome = await receiveNotification(await db(), {
      processor,
      // An account id is a UUID, which needs no decoding: anything else names no account.
      accountId,
      headers: request.headers,
      query: new URLSearchParams(request.search),
      body,
    });
    switch (outcome.kind) {
      case 'unknown_account':
        throw new AppError('NOT_FOUND', 'no such processor account');
      case 'refused':
        throw new AppError('UNAUTHENTICATED', 'the notification could not be verified as the processor’s');
      case 'malformed':
        throw new AppError('MALFORMED_BODY', `not a notification the processor documents: ${outcome.reason}`);
      case 'unavailable':
        throw new AppError('UNAVAILABLE', 'the processor could not be asked about this payment; retry', {
          headers: { 'retry-after': '60' },
        });
      case 'received':
        return jsonReply({ success: true, received: true, duplicate: outcome.duplicate, outcome: outcome.outcome }, 200, {
          'x-request-id': requestId,
        });
    }
  } catch (error) {
    const failure = toAppError(error);
    if (failure.kind === 'INTERNAL') logError('processor notification failed', error, { requestId });
    return errorReply(failure, 'boolean', requestId);
  }
}
