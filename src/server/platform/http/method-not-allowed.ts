import { AppError } from '@/server/core/domain/errors';
import type { ApiRequest, ApiReply } from './api-request';
import { errorReply } from './json-response';
import { requestIdOf } from './request-id';

// What a path says about its methods, the same in OPTIONS and in a 405 (RFC 9110 9.3.7, 10.2.1):
// the methods it serves, HEAD wherever GET is, and OPTIONS, which every path answers.

/** The `Allow` of a path that serves `methods`. */
export function allowOf(methods: readonly string[]): string {
  return [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].join(', ');
}

/** 204 with `Allow`: the answer to OPTIONS. */
export function optionsReply(methods: readonly string[]): ApiReply {
  return { status: 204, headers: { allow: allowOf(methods), 'cache-control': 'no-store' }, body: '' };
}

/** 404 30 in the envelope: a path nothing serves, whatever the method. */
export function notFoundReply(request: Pick<ApiRequest, 'headers'>): ApiReply {
  return errorReply(new AppError('NOT_FOUND', 'no such path'), 'boolean', requestIdOf(request.headers));
}

/** 405 31 in the envelope with `Allow`, for a method the path does not serve. */
export function methodNotAllowed(methods: readonly string[]): (request: Pick<ApiRequest, 'method' | 'headers'>) => ApiReply {
  return (request) =>
    errorReply(
      new AppError('METHOD_NOT_ALLOWED', `${request.method} is not served here; use ${methods.join(' or ')}`, {
        headers: { allow: allowOf(methods) },
      }),
      'boolean',
      requestIdOf(request.headers),
    );
}
