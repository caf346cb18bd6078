import type { FetchLike } from '../src/index.js';

// A scripted stand-in for the service behind an injected fetch: records every request, answers
// the token endpoint with numbered tokens, and answers API calls from a queue.

export const BASE_URL = 'https://pay.test/api';
export const AUTH_URL = 'https://pay.test/oauth';

export type Recorded = { method: string; url: string; path: string; headers: Record<string, string>; body: string | undefined };
/** One answer: a response made fresh for each use, or a failure to connect. */
export type Answer = (() => Response) | { networkError: string };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers },
    });
}

/** The error envelope of docs/DESIGN.md 4. */
export function envelope(code: string, en: string, errors: { field?: string; code: string; message: string }[] = []) {
  return {
    success: 'false',
    meta: {
      status: {
        code,
        message_ilgn: [
          { locale: 'es-PE', value: `es: ${en}` },
          { locale: 'en-US', value: en },
        ],
      },
    },
    errors,
  };
}

export const unavailable = () =>
  json(503, envelope('02', 'Service briefly unavailable', [{ code: 'unavailable', message: 'retry' }]), { 'retry-after': '1' });

export function tokenAnswer(token: string, expiresIn = 600): Answer {
  return json(200, {
    action: 'authorize',
    success: true,
    access_token: token,
    scope: 'create:token post:charges get:charges delete:charges get:events',
    expires_in: expiresIn,
    token_type: 'Bearer',
    authorization: { meta: { status: { code: '00', message_ilgn: [] } } },
  });
}

export function fakeService(options: { tokenTtlSeconds?: number } = {}) {
  const calls: Recorded[] = [];
  const apiAnswers: Answer[] = [];
  const tokenAnswers: Answer[] = [];
  let issued = 0;
  const play = (answer: Answer) => {
    if ('networkError' in answer) throw new TypeError('fetch failed', { cause: new Error(answer.networkError) });
    return answer();
  };
  const fetch: FetchLike = async (url, init) => {
    const path = new URL(url).pathname;
    calls.push({
      method: init.method ?? 'GET',
      url,
      path,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    if (path === '/oauth/token') {
      const scripted = tokenAnswers.shift();
      if (scripted) return play(scripted);
      issued += 1;
      return play(tokenAnswer(`token-${issued}`, options.tokenTtlSeconds));
    }
    const next = apiAnswers.shift();
    if (!next) throw new Error(`no answer scripted for ${init.method} ${url}`);
    return play(next);
  };
  return {
    fetch,
    calls,
    apiCalls: () => calls.filter((call) => call.path !== '/oauth/token'),
    tokenCalls: () => calls.filter((call) => call.path === '/oauth/token'),
    answer: (...answers: Answer[]) => apiAnswers.push(...answers),
    answerToken: (...answers: Answer[]) => tokenAnswers.push(...answers),
  };
}
