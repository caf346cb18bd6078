import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { restRouter } from '@/server/api/routers/rest-router';
import type { ApiContext } from '@/server/api/context';
import type { ApiRequest, ApiReply } from '@/server/platform/http/api-request';

// trpc-to-openapi's handler, built once. It maps the path to its procedure and reads path and
// query parameters, validates input and output and calls the procedure. The REST wrapper has
// already read and parsed the body, so the handler is given a request that carries it parsed.
// That request passes for a Fetch Request (its prototype): for any other request the handler
// builds a whole Fetch Request from the Node one only to take its abort signal. The signal
// never aborts: a charge under way is not abandoned because its client hung up.

type BridgeRequest = { method: string; url: string; headers: ApiRequest['headers']; body: unknown; signal: AbortSignal };
type BridgeResponse = { setHeader(key: string, value: string | string[]): void; statusCode: number; end(body: string): void };

const contexts = new WeakMap<object, ApiContext>();
const NEVER_ABORTED = new AbortController().signal;

const handler = createOpenApiNodeHttpHandler({
  router: restRouter,
  createContext: ({ req }: { req: object }) => contexts.get(req)!,
  onError: ({ error, req }: { error: unknown; req: object }) => {
    const context = contexts.get(req);
    if (context) context.failure = error;
  },
}) as unknown as (req: BridgeRequest, res: BridgeResponse) => Promise<void>;

/**
 * Runs the documented procedure of `request` (whose path is below /api) with `context`;
 * `body` is the parsed JSON body of a POST, undefined otherwise.
 */
export function callOpenApiProcedure(request: ApiRequest, context: ApiContext, body: unknown): Promise<ApiReply> {
  const bridged = Object.create(Request.prototype, {
    method: { value: request.method },
    url: { value: `${request.path.slice('/api'.length)}${request.search}` },
    headers: { value: request.headers },
    body: { value: body },
    signal: { value: NEVER_ABORTED },
  }) as BridgeRequest;
  contexts.set(bridged, context);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    const reply = {
      statusCode: 200,
      setHeader(key: string, value: string | string[]) {
        headers[key.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
      },
      end(text: string) {
        resolve({ status: reply.statusCode, headers, body: text });
      },
    };
    handler(bridged, reply).catch(reject);
  });
}
