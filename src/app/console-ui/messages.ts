import en from '../../messages/en.json';
import es from '../../messages/es.json';
import type { ConsoleLang } from './i18n';

// The console's one message catalogue per language (docs/DECISIONS.md, "Console messages (issue 29)").
const CATALOGUES = { es, en } satisfies Record<ConsoleLang, typeof es>;

export function consoleMessages(lang: ConsoleLang): typeof es {
  return CATALOGUES[lang];
}
