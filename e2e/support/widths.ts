import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The checks every console page passes at every width (docs/DECISIONS.md "Every width"): axe,
// nothing clipped, no string of the other language; and its screenshot, kept by CI.
export const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 768 } } as const;
export type Lang = 'es' | 'en';

/** No WCAG 2.1 A/AA violation that axe finds (the rules accessibility.spec.ts applies). */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = results.violations.map((violation) => ({
    rule: violation.id,
    targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 3),
  }));
  expect(found, `axe on ${label}`).toStrictEqual([]);
}

/**
 * Whatever the visitor cannot reach: the page scrolling sideways; a box whose content is wider
 * than it and hidden (overflow hidden or clip), unless it is text cut with an ellipsis whose full
 * text is its title; a box that scrolls sideways, unless `focusableScroll` lets a keyboard-focusable
 * one do so. Visually hidden text (sr-only) and form fields (whose text scrolls by the caret) are not boxes of content.
 */
export async function clippedElements(page: Page, focusableScroll: boolean): Promise<string[]> {
  return page.evaluate((allowScroll) => {
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : '';
      const testId = element.getAttribute('data-testid');
      const classes = typeof element.className === 'string' ? element.className.split(/\s+/).slice(0, 4).join('.') : '';
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${element.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ''}${classes ? `.${classes}` : ''}> "${text}"`;
    };
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1)
      found.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      if (!(element instanceof HTMLElement) || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)) continue;
      if (element.scrollWidth <= element.clientWidth + 1 || !element.checkVisibility()) continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(element);
      // Visually hidden on purpose (Tailwind's sr-only, the skip link until it has the focus).
      if (style.clipPath === 'inset(50%)' || style.clip === 'rect(0px, 0px, 0px, 0px)') continue;
      // Content that spills out of a visible box: its clipping ancestor, or the page, answers for it.
      if (style.overflowX === 'visible') continue;
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') {
        if (allowScroll && element.tabIndex >= 0) continue;
        found.push(`${describe(element)} scrolls sideways: ${element.scrollWidth} > ${element.clientWidth}`);
        continue;
      }
      if (style.textOverflow === 'ellipsis' && element.title.trim() !== '') continue;
      found.push(`${describe(element)} hides content: ${element.scrollWidth} > ${element.clientWidth}`);
    }
    return found;
  }, focusableScroll);
}

function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (value && typeof value === 'object') for (const each of Object.values(value)) strings(each, into);
  return into;
}

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The catalogue's strings found only in the other language's catalogue (at least 6 characters,
 * no ICU placeholder): one of them on a page is text left untranslated.
 */
export function otherLanguageOnly(lang: Lang): string[] {
  const read = (each: Lang) =>
    strings(JSON.parse(readFileSync(path.join(process.cwd(), 'src/messages', `${each}.json`), 'utf8'))).map(normal);
  const own = new Set(read(lang));
  const other = lang === 'es' ? 'en' : 'es';
  return [...new Set(read(other))].filter((text) => text.length >= 6 && !/[{}]/.test(text) && !own.has(text));
}

/** The page's visible text in its own language (what is marked with another lang, like the language switch, left out). */
export async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const lang = document.documentElement.lang;
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !parent.checkVisibility() || ['SCRIPT', 'STYLE'].includes(parent.tagName)) continue;
      if ((parent.closest('[lang]')?.getAttribute('lang') ?? lang) !== lang) continue;
      parts.push(node.textContent ?? '');
    }
    return parts.join(' ').replace(/\s+/g, ' ');
  });
}

/** A full-page screenshot at a stable path under test-results/screenshots/, which scripts/test.sh copies for CI to keep. */
export async function keepScreenshot(page: Page, testInfo: TestInfo, width: number, lang: Lang, name: string) {
  const root = path.dirname(testInfo.config.configFile ?? path.join(process.cwd(), 'playwright.config.ts'));
  await page.screenshot({
    path: path.join(root, 'test-results', 'screenshots', String(width), lang, `${name}.png`),
    fullPage: true,
  });
}
