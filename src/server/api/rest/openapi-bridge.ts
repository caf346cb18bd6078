import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { appRouter } from '../routers/app-router';
import type { ApiContext } from '../context';

// trpc-to-openapi's handler, built once. Its fetch adapter (createOpenApiFetchHandler) builds
// the handler again on every request (a regular expression per documented path, the router
// copied) and reads and parses the body a second time; the REST wrapper has already read and
// parsed it, so this adapter hands the parsed body over. Everything else is the bridge's own:
// path matching, path and query parameters, input and output validation, the procedure call.

type BridgeRequest = Request & { body: unknown };
type BridgeReply = { status: number; headers: Headers; body: string };

const contexts = new WeakMap<object, ApiContext>();

const handler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }: { req: object }) => contexts.get(req)!,
  onError: ({ error, req }: { error: unknown; req: object }) => {
    const context = contexts.get(req);
    if (context) context.failure = error;
  },
}) as unknown as (
  req: BridgeRequest,
  res: { setHeader(key: string, value: string | string[]): void; statusCode: number; end(body: string): void },
) => Promise<void>;

/**
 * Runs the documented procedure of `request` (whose path is below /api) with `context`;
 * `body` is the parsed JSON body of a POST, undefined otherwise.
 */
export function callOpenApiProcedure(request: Request, context: ApiContext, body: unknown): Promise<BridgeReply> {
  const url = request.url.replace('/api/', '/');
  const proxied = new Proxy(request, {
    get: (target, property) => {
      if (property === 'url') return url;
      if (property === 'body') return body;
      return Reflect.get(target, property, target) as unknown;
    },
  }) as BridgeRequest;
  contexts.set(proxied, context);
  return new Promise((resolve, reject) => {
    const headers = new Headers();
    const reply = {
      statusCode: 200,
      setHeader(key: string, value: string | string[]) {
        if (typeof value === 'string') headers.set(key, value);
        else for (const each of value) headers.append(key, each);
      },
      end(text: string) {
        resolve({ status: reply.statusCode, headers, body: text });
      },
    };
    handler(proxied, reply).catch(reject);
  });
}
