import { expect, test, type Page } from '@playwright/test';
import { demoCharge, signIn } from '../support/console';

// Security headers: pages get a nonce CSP (a new nonce per response, on every script Next
// writes), framing is refused, HSTS is sent by the production server, and API answers load
// nothing at all.
const COMMON = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
};

function nonceOf(csp: string): string {
  const match = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(csp);
  expect(match, csp).not.toBeNull();
  return match![1]!;
}

test('pages send a nonce CSP that Next puts on its scripts, new for every response', async ({ request }) => {
  const first = await request.get('/login');
  const second = await request.get('/login');
  expect(first.status()).toBe(200);
  expect(first.headers()).toMatchObject(COMMON);
  const csp = first.headers()['content-security-policy']!;
  for (const directive of [
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ]) {
    expect(csp).toContain(directive);
  }
  const nonce = nonceOf(csp);
  expect(nonceOf(second.headers()['content-security-policy']!)).not.toBe(nonce);
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
});

test('a signed-in console page runs under the CSP without a single violation, and the handler of injected markup does not run', async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  const { transactionId } = await demoCharge(request, 'CARD');
  await signIn(page, 'owner@demo.pe', '/');
  await expect(page.locator('figure').first()).toBeVisible();
  const response = await page.goto(`/operations/${transactionId}`);
  expect(response!.headers()).toMatchObject(COMMON);
  await expect(page.getByRole('list', { name: 'Historial' })).toBeVisible();
  expect(violations).toStrictEqual([]);
  await injectMarkup(page);
  await expect.poll(() => violations.length).toBe(1);
  expect(violations[0]).toContain('inline event handler');
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
});

/** Markup with an inline handler, as an injection through some unescaped text would bring. */
async function injectMarkup(page: Page): Promise<void> {
  await page.evaluate(() => {
    const holder = document.createElement('div');
    holder.innerHTML = '<img src="/no-such-image.png" onerror="window.__injected = 1">';
    document.body.appendChild(holder);
  });
}

test('API answers and the API reference have their own policies; nothing may frame them', async ({ request }) => {
  const api = await request.get('/api/charges/NOPE/1');
  expect(api.headers()).toMatchObject({ ...COMMON, 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" });
  const token = await request.post('/oauth/token', { data: {} });
  expect(token.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  const docs = await request.get('/docs');
  expect(docs.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(docs.headers()['content-security-policy']).toContain("default-src 'self'");
  expect(docs.headers()['x-frame-options']).toBe('DENY');
});

test('payer pages let the payer be sent on to the merchant: no form-action limit, framing still refused', async ({ request }) => {
  const response = await request.get('/pay/not-a-real-token-000000');
  const csp = response.headers()['content-security-policy']!;
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('form-action');
  expect(csp).toContain("img-src 'self' data:");
});

test('robots.txt is a static file served without a session: crawlers keep off the console and payer pages', async ({
  request,
}) => {
  const response = await request.get('/robots.txt', { maxRedirects: 0 });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  expect(response.headers()).toMatchObject(COMMON);
  const rules = (await response.text()).split('\n').filter((line) => line && !line.startsWith('#'));
  expect(rules).toStrictEqual(['User-agent: *', 'Allow: /docs', 'Disallow: /']);
});
