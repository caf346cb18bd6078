import autocannon from 'autocannon';

// One autocannon run: closed loop (as fast as `connections` allow) or open loop (a fixed rate).
export type Target = {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** A new body for every request (charges need fresh operation numbers). */
  body?: () => string;
  /** A new path for every request (a capture is made once per payment). */
  nextPath?: () => string;
};

export type Figures = { requestsPerSecond: number; p50: number; p99: number; errors: number; non2xx: number; total: number };

export async function measure(
  origin: string,
  target: Target,
  options: { seconds: number; connections: number; rate?: number },
): Promise<Figures> {
  const result = await autocannon({
    url: origin,
    connections: options.connections,
    duration: options.seconds,
    ...(options.rate ? { overallRate: options.rate } : {}),
    requests: [
      {
        method: target.method,
        path: target.path,
        headers: target.headers,
        ...(target.body || target.nextPath
          ? {
              setupRequest: (request) => ({
                ...request,
                ...(target.body ? { body: target.body() } : {}),
                ...(target.nextPath ? { path: target.nextPath() } : {}),
              }),
            }
          : {}),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}
