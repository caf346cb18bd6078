// The API's own request and reply: what its handlers read and answer, whichever server carries
// them (src/server/http/node-api.ts on Node's HTTP path; a Next route handler through
// fromFetchRequest and toResponse).

/** Reads a request header (case-insensitive name); a repeated header comes joined with ", ". */
export type HeaderReader = { get(name: string): string | null };

export type ApiRequest = {
  method: string;
  /** The path as sent, percent escapes undecoded. */
  path: string;
  /** The query string with its `?`, or ''. */
  search: string;
  headers: HeaderReader;
  /** The body's bytes as they arrive. */
  body: AsyncIterable<Uint8Array>;
};

export type ApiReply = { status: number; headers: Record<string, string>; body: string };

const NO_BODY: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: async function* () {} };

export function fromFetchRequest(request: Request): ApiRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    search: url.search,
    headers: request.headers,
    body: (request.body as AsyncIterable<Uint8Array> | null) ?? NO_BODY,
  };
}

export function toResponse(reply: ApiReply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
