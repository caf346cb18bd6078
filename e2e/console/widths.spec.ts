import { expect, test, type Page } from '@playwright/test';
import { headers, requestRefund, tokenFor } from '../support/api-client';
import { DEMO, demoCharge, signIn } from '../support/console';
import { BASE_URL, settleNow } from '../support/service';
import {
  WIDTHS,
  clippedElements,
  expectNoAxeViolations,
  keepScreenshot,
  otherLanguageOnly,
  visibleText,
  type Lang,
} from '../support/widths';

// Every console page in both languages at a 390 px phone and a 1366 px laptop (issue 29, point 2;
// docs/DECISIONS.md "Every width"): no axe violation, nothing clipped (at the laptop's width no
// table scrolls sideways either; on the phone only a box the keyboard can focus may), no string
// of the other language, and a screenshot of each under test-results/screenshots/<width>/<lang>/.

type Ids = { operation: string; refund: string; customer: string };
type Visit = { name: string; user: 'owner@demo.pe' | 'admin@demo.pe'; path: (ids: Ids) => string };

const PAGES: Visit[] = [
  { name: 'overview', user: 'owner@demo.pe', path: () => '/' },
  { name: 'operations', user: 'owner@demo.pe', path: () => '/operations' },
  { name: 'operation', user: 'owner@demo.pe', path: (ids) => `/operations/${ids.operation}` },
  { name: 'refunds', user: 'owner@demo.pe', path: () => '/refunds' },
  { name: 'refund', user: 'owner@demo.pe', path: (ids) => `/refunds/${ids.refund}` },
  { name: 'refunds-new', user: 'owner@demo.pe', path: () => '/refunds/new' },
  { name: 'customers', user: 'owner@demo.pe', path: () => '/customers' },
  { name: 'customer', user: 'owner@demo.pe', path: (ids) => `/customers/${ids.customer}` },
  { name: 'developers', user: 'owner@demo.pe', path: () => '/developers' },
  { name: 'processors', user: 'owner@demo.pe', path: () => '/processors' },
  { name: 'processors-accounts', user: 'owner@demo.pe', path: () => '/processors/accounts' },
  { name: 'routing', user: 'owner@demo.pe', path: () => '/routing' },
  { name: 'routing-card', user: 'owner@demo.pe', path: () => '/routing?method=CARD' },
  { name: 'settings', user: 'owner@demo.pe', path: () => '/settings' },
  { name: 'platform', user: 'admin@demo.pe', path: () => '/platform' },
  { name: 'platform-merchant', user: 'admin@demo.pe', path: () => `/platform/merchants/${DEMO.code}` },
];
const LANGS: Lang[] = ['es', 'en'];
// Whole words only: "Resume" is English, and also the start of "Resumen".
const asWords = (text: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u');
const FOREIGN: Record<Lang, RegExp[]> = { es: otherLanguageOnly('es').map(asWords), en: otherLanguageOnly('en').map(asWords) };

let ids: Ids | undefined;

/** An authorized card payment (its page), and a settled one refunded (the refund's page, the lists' rows). */
async function pageData(request: Parameters<typeof demoCharge>[0]): Promise<Ids> {
  if (ids) return ids;
  const authorized = await demoCharge(request, 'CARD', { prefix: 'wid' });
  const settled = await demoCharge(request, 'CARD', { prefix: 'widr' });
  expect(await settleNow(DEMO.code, [settled.transactionId])).toBe(1);
  const refund = await requestRefund(request, await tokenFor(request, DEMO), DEMO.code, settled.number, '15000', {
    canal: 'web',
    reason: 'talla equivocada',
    description: 'cambio por otra talla',
  });
  // The demo's customer with its saved card (seed-demo.ts): a POST of its id answers it unchanged.
  const customer = await request.post(`${BASE_URL}/customers`, {
    headers: headers(await tokenFor(request, DEMO)),
    data: { merchant_code: DEMO.code, merchant_customer_id: 'demo-cliente-001', email: 'lucia.ramos@example.pe' },
  });
  const customerId = ((await customer.json()) as { customer: { customer_id: string } }).customer.customer_id;
  ids = { operation: authorized.transactionId, refund: refund.refund_id, customer: customerId };
  return ids;
}

async function visit(page: Page, path: string, lang: Lang): Promise<void> {
  const origin = new URL(page.url()).origin;
  await page.context().addCookies([{ name: 'console_lang', value: lang, url: origin }]);
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.locator('main h1').first()).toBeVisible();
}

for (const each of PAGES) {
  test(`${each.name}: at 390 and 1366 px, in Spanish and English, nothing clipped, no axe violation, no other language`, async ({
    page,
    request,
  }, testInfo) => {
    // Four loads with axe and a sign-in: about 20 s on these two cores, several times that when busy.
    test.setTimeout(150_000);
    const path = each.path(await pageData(request));
    await signIn(page, each.user, path);
    for (const [kind, size] of Object.entries(WIDTHS)) {
      await page.setViewportSize(size);
      for (const lang of LANGS) {
        const label = `${path} at ${size.width} px in ${lang}`;
        await visit(page, path, lang);
        expect(await clippedElements(page, kind === 'phone'), `clipped on ${label}`).toStrictEqual([]);
        const text = await visibleText(page);
        expect(
          FOREIGN[lang].filter((foreign) => foreign.test(text)).map((foreign) => foreign.source),
          `strings of the other language on ${label}`,
        ).toStrictEqual([]);
        await expectNoAxeViolations(page, label);
        await keepScreenshot(page, testInfo, size.width, lang, each.name);
      }
    }
  });
}
