// The console's languages: Spanish by default, English by choice (kept in a cookie). Their texts
// are one catalogue per language, src/messages/{es,en}.json, read with next-intl
// (docs/DECISIONS.md, "Console messages (issue 29)").
export const CONSOLE_LANGS = ['es', 'en'] as const;
export type ConsoleLang = (typeof CONSOLE_LANGS)[number];
export const LANG_COOKIE = 'console_lang';

export function parseLang(value: string | undefined | null): ConsoleLang {
  return value === 'en' ? 'en' : 'es';
}

/**
 * The Intl locale of a console language: Peruvian formats in both, day before month. CLDR has no
 * en-PE, so Intl would fall back to en (US: month first, 11/26/2026); en-GB writes dates as Peru
 * does (26/11/2026) and numbers as en-PE would (1,234.50).
 */
export type IntlLocale = 'es-PE' | 'en-GB';

export function intlLocale(lang: ConsoleLang): IntlLocale {
  return lang === 'en' ? 'en-GB' : 'es-PE';
}
