// The console's languages: Spanish by default, English by choice (kept in a cookie).
// Each page or component keeps its own texts as `const TEXT = { es: {...}, en: {...} }` and
// picks with the visitor's language; there is no global catalogue to drift from the pages.
export const CONSOLE_LANGS = ['es', 'en'] as const;
export type ConsoleLang = (typeof CONSOLE_LANGS)[number];
export const LANG_COOKIE = 'console_lang';

export function parseLang(value: string | undefined | null): ConsoleLang {
  return value === 'en' ? 'en' : 'es';
}

/** The Intl locale of a console language (Peruvian formats in both). */
export function intlLocale(lang: ConsoleLang): string {
  return lang === 'en' ? 'en-PE' : 'es-PE';
}
