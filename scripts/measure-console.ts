// npm run measure:console -- [--origin http://localhost:3000] [--email owner@demo.pe] [--runs 20]
// Signs in to a running service and times the console's server-rendered pages: each page is
// fetched `runs` times after two warm-up fetches, reading the whole streamed body, and the
// median, p95 and maximum are printed. Use it after `npm run seed:operations`.
import { parseArgs } from 'node:util';
import { quantile } from './support/timing';

const { values } = parseArgs({
  options: {
    origin: { type: 'string', default: 'http://localhost:3000' },
    email: { type: 'string', default: 'owner@demo.pe' },
    password: { type: 'string', default: 'demo-password-1' },
    runs: { type: 'string', default: '20' },
  },
});
const origin = values.origin;
const DOWNLOAD = '/operations/export';

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
}

async function signIn(): Promise<string> {
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const response = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ csrfToken, email: values.email, password: values.password, json: 'true' }),
  });
  const session = cookiesOf(response).find((cookie) => cookie.includes('session-token='));
  if (!session) throw new Error(`sign-in as ${values.email} failed (${response.status})`);
  return [...jar, session].join('; ');
}

async function timed(path: string, cookie: string): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, { headers: { cookie }, redirect: 'manual' });
  const body = await response.text();
  return { ms: performance.now() - started, status: response.status, body };
}

async function main(): Promise<void> {
  const cookie = await signIn();
  const runs = Number(values.runs);
  const list = await timed('/operations?sort=oldest', cookie);
  const transactionId = /href="\/operations\/([0-9a-f-]{36})"/.exec(list.body)?.[1];
  const number = /href="\/operations\/[0-9a-f-]{36}">([^<]+)</.exec(list.body)?.[1];
  const refund = await timed('/refunds', cookie);
  const refundId = /href="\/refunds\/([0-9a-f-]{36})"/.exec(refund.body)?.[1];
  const pages = [
    '/',
    '/operations',
    '/operations?state=LIQUIDADO&method=CARD',
    '/operations?sort=amount_desc',
    '/operations?minAmount=100000&maxAmount=200000',
    ...(number ? [`/operations?search=${encodeURIComponent(number)}`] : []),
    ...(transactionId ? [`/operations/${transactionId}`] : []),
    DOWNLOAD,
    '/refunds',
    '/refunds?state=RESOLVED',
    ...(refundId ? [`/refunds/${refundId}`] : []),
    '/developers',
    '/settings',
    '/platform',
  ];
  console.log(`${values.email} at ${origin}, ${runs} runs per page after 2 warm-ups (ms, whole body)`);
  console.log(['page'.padEnd(52), 'status', 'median', 'p95', 'max'].join('  '));
  const results: { page: string; median: number }[] = [];
  for (const page of pages) {
    // Pages this user is sent away from (settings or platform) are not timed.
    if ((await timed(page, cookie)).status !== 200) continue;
    await timed(page, cookie);
    const times: number[] = [];
    let status = 0;
    for (let run = 0; run < runs; run += 1) {
      const result = await timed(page, cookie);
      times.push(result.ms);
      status = result.status;
    }
    times.sort((a, b) => a - b);
    const median = quantile(times, 0.5);
    results.push({ page, median });
    console.log(
      [
        page.slice(0, 52).padEnd(52),
        String(status).padStart(6),
        ...[median, quantile(times, 0.95), times.at(-1)!].map((ms) => ms.toFixed(1).padStart(6)),
      ].join('  '),
    );
  }
  // The CSV export is a download of the whole filtered set, not a page: reported on its own line above.
  const slowest = results
    .filter((result) => !result.page.startsWith(DOWNLOAD))
    .reduce((worst, result) => (result.median > worst.median ? result : worst));
  console.log(`slowest page by median: ${slowest.page} (${slowest.median.toFixed(1)} ms)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
